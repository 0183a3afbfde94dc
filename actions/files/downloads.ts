import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { downloadLink } from '../../src/domain/documents/download.js';
import { DEFAULT_LINK_MINUTES, MAX_LINK_MINUTES } from '../../src/domain/documents/links.js';
import { DOCUMENT_EX } from '../documents/documents.js';
import { EXAMPLE } from '../projects/shapes.js';
import { DocumentId, ProjectId } from '../shared/refs.js';
import { Id, named, Timestamp } from '../../src/core/values.js';
import { linkServing } from '../shared/link-serving.js';

const minutes = z
  .int()
  .min(1)
  .max(MAX_LINK_MINUTES)
  .optional()
  .describe(`How long the link works, in minutes: ${DEFAULT_LINK_MINUTES} by default, at most ${MAX_LINK_MINUTES}.`);

export const DownloadLink = z
  .strictObject({
    documentId: Id,
    filename: z.string().describe('The name the file saves under.'),
    mediaType: z.string(),
    byteSize: z.int().min(0),
    url: z
      .string()
      .describe(
        'The private link: anyone holding it gets the file (no login) until expiresAt, so hand it only to whom the file is for. An expired, altered or unknown link answers 403.',
      ),
    expiresAt: Timestamp.describe('When the link stops working; ask again for a fresh one.'),
    ...linkServing,
  })
  .describe('A short-lived private link to one document of your studio.');
named(DownloadLink, 'DownloadLink');

export const downloadDocument = defineAction({
  name: 'download_document',
  kind: 'file',
  effect: 'query',
  domain: 'files',
  summary: 'Get a short-lived private link to download a document of a project.',
  description:
    "Mints a link to the document's file (a PDF, XLSX, CSV or ZIP) that works for a few minutes (minutes: 10 by default, at most 60) and needs no login: open it in a browser or pass it to whoever should have the file. It names this one document of your studio and nothing else; an expired, altered or unknown link answers 403 with the same body. list_project_documents lists the documents; an archived one can still be downloaded with a link asked for after its archiving. A link stops working, with the same 403, once its document is archived, or the member who asked for it is removed, or the API token or OAuth connection it was asked with is revoked. Asking again gives a fresh link; nothing is recorded of links being opened. The link names the address the studio is served at; served false (with linkNote) says no `studio serve` is known to be running, so the link will not open yet. Over MCP the answer also carries a resource_link: resources/read it to get the file itself through the connection (up to 4 MiB), no HTTP server needed. A purchase order (trade prices) is FORBIDDEN to a caller without pricing:read.",
  scope: 'documents:read',
  input: z.strictObject({
    projectId: ProjectId,
    documentId: DocumentId.describe('From list_project_documents.'),
    minutes,
  }),
  // The one document whose bytes carry trade prices: the file cannot be redacted as a response is, so a caller who
  // may not read prices is not given it at all (the record, with no figure in it, stays listed).
  recordScopes: {
    field: 'documentId',
    column: 'kind',
    needs: {
      purchase_order: {
        scope: 'pricing:read',
        refusal: 'is a purchase order at trade prices; downloading it needs pricing:read (ask a studio admin).',
      },
    },
  },
  documentLink: true,
  output: DownloadLink,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
  example: { projectId: EXAMPLE.projectId, documentId: DOCUMENT_EX.documentId },
  handler: (ctx, input) => downloadLink(ctx, input),
});

export const downloadProjectPackage = defineAction({
  name: 'download_project_package',
  kind: 'file',
  effect: 'query',
  domain: 'files',
  summary: "Get a short-lived private link to download a project's package (ZIP).",
  description:
    "Mints a link to a package made by create_project_package (a ZIP of the project's documents, its client schedule export and its photographs) that works for a few minutes (minutes: 10 by default, at most 60) and needs no login. packageId is the package's document id (list_project_documents with kind project_package lists them); any other document answers NOT_FOUND here (use download_document). An expired, altered or unknown link answers 403.",
  scope: 'documents:read',
  input: z.strictObject({
    projectId: ProjectId,
    packageId: DocumentId.describe('The package document, from list_project_documents with kind project_package.'),
    minutes,
  }),
  documentLink: true,
  output: DownloadLink,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, packageId: DOCUMENT_EX.documentId },
  handler: (ctx, input) =>
    downloadLink(ctx, {
      projectId: input.projectId,
      documentId: input.packageId,
      minutes: input.minutes,
      packagesOnly: true,
    }),
});
