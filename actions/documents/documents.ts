import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import * as documents from '../../src/domain/documents/documents.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { EXAMPLE } from '../projects/shapes.js';
import { DocumentId, ProjectId } from '../shared/refs.js';
import { page } from '../../src/core/values.js';
import { ProjectDocument } from './records.js';

/** Fake ids for examples: the shape the API mints, no meaning. */
export const DOCUMENT_EX = {
  documentId: '0000000000000000000000000d',
  deliveryId: '0000000000000000000000000y',
} as const;
export const inDocument = { projectId: ProjectId, documentId: DocumentId.describe('From list_project_documents.') };

export const listProjectDocuments = defineAction({
  name: 'list_project_documents',
  kind: 'procedure',
  effect: 'query',
  domain: 'documents',
  summary: "List a project's documents (PDFs, exports, packages), newest first.",
  description:
    "Every document made for the project, newest first (sort: createdAt for oldest first, or title): client schedule and spec sheet PDFs, spreadsheet exports and packages, each with its source (the live client document, a minted version, or a share's view), file name, size, page count and maker. Narrow with kind or format; archived documents are left out unless archived is include or only. Download one with download_document; send one with deliver_document.",
  scope: 'documents:read',
  input: documents.DOCUMENT_LISTING.input,
  output: page(ProjectDocument),
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, kind: 'client_schedule' },
  handler: (ctx, input) => documents.listDocuments(ctx, input),
});

export const getProjectDocument = defineAction({
  name: 'get_project_document',
  kind: 'procedure',
  effect: 'query',
  domain: 'documents',
  summary: 'Read one document of a project: what it is, where it came from, its file.',
  description:
    'The document (archived or not) with its kind, format, source, title, file name, media type, size, SHA-256 and page count. The file itself is fetched through a short-lived link from download_document. A document of another project answers NOT_FOUND.',
  scope: 'documents:read',
  input: z.strictObject(inDocument),
  output: ProjectDocument,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, documentId: DOCUMENT_EX.documentId },
  handler: (ctx, input) => documents.getDocument(ctx, input.projectId, input.documentId),
});

export const archiveProjectDocument = defineAction({
  name: 'archive_project_document',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'documents',
  summary: 'Archive a document: it leaves the lists and packages and is never sent again.',
  description:
    'Archives the document (never deleted): list_project_documents leaves it out unless asked, packages leave it out and deliver_document refuses it, while get_project_document and download_document still reach it. A second archival answers ALREADY_ARCHIVED. An archived project is frozen (ARCHIVED): restore_project first.',
  scope: 'documents:write',
  guards: [frozenWhenArchived],
  input: z.strictObject(inDocument),
  output: ProjectDocument,
  errors: ['NOT_FOUND', 'ALREADY_ARCHIVED', 'ARCHIVED'],
  example: { projectId: EXAMPLE.projectId, documentId: DOCUMENT_EX.documentId },
  handler: (ctx, input) => documents.archiveDocument(ctx, input.projectId, input.documentId),
});
