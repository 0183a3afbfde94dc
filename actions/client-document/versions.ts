import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { getVersion, listVersions, mintVersion, VERSION_LISTING } from '../../src/domain/client-document/versions.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { EXAMPLE } from '../projects/shapes.js';
import { ProjectId } from '../shared/refs.js';
import { ClientDocumentVersion, ClientDocumentVersionPage } from './records.js';

export const mintClientDocument = defineAction({
  name: 'mint_client_document',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'clientDocument',
  summary: "Keep the client document as it is now as the project's next numbered, immutable version.",
  description:
    "Freezes the client document now, pieces and photographs, as version 1, 2, 3 … of the project, and returns it. A version never changes afterwards, whatever happens to the schedule. Minting also updates the live document's photographs (get_project_client_document shows those of the latest mint). Check it first with preview_client_document, which shows exactly what would be kept. Send a fresh commandKey so a retry never mints twice. An archived project is frozen (ARCHIVED): restore_project first.",
  intents: [
    'freeze the client schedule as a version',
    'record what we sent the client',
    'issue a version of the client document',
  ],
  scope: 'documents:write',
  guards: [frozenWhenArchived],
  keyed: true,
  input: z.strictObject({ projectId: ProjectId }),
  output: ClientDocumentVersion,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { projectId: EXAMPLE.projectId, commandKey: '3f6c1a2b-4d5e-4f60-8a7b-9c0d1e2f3a4b' },
  handler: (ctx, input) => mintVersion(ctx, input.projectId),
});

export const listClientDocumentVersions = defineAction({
  name: 'list_client_document_versions',
  kind: 'procedure',
  effect: 'query',
  domain: 'clientDocument',
  summary: "List a project's minted client document versions, without their documents.",
  description:
    'Each minted version: its number, title, piece count, when and by whom it was minted. Oldest first (sort "-number" for the latest first, with limit 1 for just the latest). Read one whole with get_client_document_version.',
  scope: 'documents:read',
  input: VERSION_LISTING.input,
  output: ClientDocumentVersionPage,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, sort: '-number', limit: 10 },
  handler: (ctx, input) => listVersions(ctx, input),
});

export const getClientDocumentVersion = defineAction({
  name: 'get_client_document_version',
  kind: 'procedure',
  effect: 'query',
  domain: 'clientDocument',
  summary: 'Read one minted client document version, exactly as it was kept.',
  description:
    'The version by its number (list_client_document_versions lists them) with its whole document: pieces, prices and photographs as of mintedAt, unchanged by anything since. For the document as it is now use get_project_client_document; for what minting now would give, preview_client_document.',
  scope: 'documents:read',
  input: z.strictObject({
    projectId: ProjectId,
    number: z.int().min(1).max(1_000_000).describe('The version number: 1 for the first minted.'),
  }),
  output: ClientDocumentVersion,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, number: 1 },
  handler: (ctx, input) => getVersion(ctx, input.projectId, input.number),
});
