import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { liveDocument, previewDocument } from '../../src/domain/client-document/document.js';
import { EXAMPLE } from '../projects/shapes.js';
import { ProjectId } from '../shared/refs.js';
import { ClientDocument } from './records.js';

export const getProjectClientDocument = defineAction({
  name: 'get_project_client_document',
  kind: 'procedure',
  effect: 'query',
  domain: 'clientDocument',
  summary: "Read a project's live client document: pieces as they are now, photographs as last minted.",
  description:
    "The project's schedule as its client reads it: pieces (never lines) by section with client prices rounded for display, the columns and custom properties the settings choose, removed pieces, and totals; never a trade price, markup or margin. Pieces are live (piecesAsOf is now); photographs are those the latest mint froze (photographsAsOf), and before the first mint no piece shows photographs: mint_client_document to show them. To see what minting now would give, photographs included, use preview_client_document; to read what was kept, get_client_document_version. Change what it shows with update_client_document_settings.",
  scope: 'documents:read',
  input: z.strictObject({ projectId: ProjectId }),
  output: ClientDocument,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId },
  handler: (ctx, input) => liveDocument(ctx, input.projectId),
});

export const previewClientDocument = defineAction({
  name: 'preview_client_document',
  kind: 'procedure',
  effect: 'query',
  domain: 'clientDocument',
  summary: 'Preview what minting the client document now would keep, photographs included.',
  description:
    'Renders the client document exactly as mint_client_document would keep it now: pieces and their current photographs (cover first), with piecesAsOf and photographsAsOf both now. Nothing is kept and nothing changes, so call it freely before minting. For the document the client sees today use get_project_client_document (its photographs are those of the last mint).',
  intents: ['what will the client see', 'preview the client schedule', 'check the client document before sending'],
  scope: 'documents:read',
  input: z.strictObject({ projectId: ProjectId }),
  output: ClientDocument,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId },
  handler: (ctx, input) => previewDocument(ctx, input.projectId),
});
