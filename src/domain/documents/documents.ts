import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { whereArchived } from '../kit/filters.js';
import { namedSorts } from '../kit/keyset-page.js';
import { archivedFilter, defineListing, type ListingQuery, projectScope } from '../kit/listing.js';
import { MEDIA_TYPES } from './formats.js';
import type { DocumentFormat, DocumentKind } from '../../../db/vocabulary.js';
import {
  DOCUMENT_RECORD,
  DocumentFormat as FormatField,
  DocumentKind as KindField,
  type DocumentRow,
  type ShownDocumentSource,
} from './record.js';

/** A document with its maker's name, as lists and reads show it. */
type DocumentRecord = DocumentRow & { creator_name: string };

/** A document as the API shows it: what it is, where it came from, its file; never where the file lies on disk. */
export const presentDocument = (row: DocumentRecord) =>
  DOCUMENT_RECORD.present(row, {
    mediaType: MEDIA_TYPES[row.format],
    createdBy: { memberId: row.created_by, name: row.creator_name },
  });
export type PresentedDocument = ReturnType<typeof presentDocument>;

function documentRecords(db: Kysely<Database>) {
  return db
    .selectFrom('documents')
    .innerJoin('members', 'members.id', 'documents.created_by')
    .innerJoin('users', 'users.id', 'members.user_id')
    .selectAll('documents')
    .select('users.name as creator_name');
}

export const DOCUMENT_SORTS = namedSorts(
  { createdAt: { column: 'documents.created_at' }, title: { column: 'documents.title' } },
  { column: 'documents.id', field: 'id' },
);

export const DOCUMENT_LISTING = defineListing({
  filters: {
    ...projectScope,
    kind: KindField.optional().describe('Only documents of this kind.'),
    format: FormatField.optional().describe('Only documents in this format.'),
    archived: archivedFilter('documents'),
  },
  sorts: DOCUMENT_SORTS,
  defaultSort: '-createdAt',
  defaultSays: '-createdAt (newest first)',
});

/** A project's documents, newest first unless sorted otherwise; archived ones only when asked. */
export async function listDocuments(ctx: Pick<ActionContext, 'db'>, q: ListingQuery<typeof DOCUMENT_LISTING>) {
  let qb = documentRecords(ctx.db).where('documents.project_id', '=', q.projectId);
  if (q.kind) qb = qb.where('documents.kind', '=', q.kind);
  if (q.format) qb = qb.where('documents.format', '=', q.format);
  qb = whereArchived(qb, 'documents.archived_at', q.archived);
  const { rows, nextCursor } = await DOCUMENT_LISTING.page(qb, q);
  return { items: rows.map(presentDocument), nextCursor };
}

/** The document, read in its project (ownership has already proved it belongs there). */
export async function loadDocument(ctx: Pick<ActionContext, 'db'>, projectId: string, documentId: string) {
  const row = await documentRecords(ctx.db)
    .where('documents.id', '=', documentId)
    .where('documents.project_id', '=', projectId)
    .executeTakeFirst();
  if (!row) {
    throw new ServiceError(
      'NOT_FOUND',
      `No document ${documentId} exists in this project; list_project_documents lists them.`,
    );
  }
  return row;
}

export async function getDocument(ctx: Pick<ActionContext, 'db'>, projectId: string, documentId: string) {
  return presentDocument(await loadDocument(ctx, projectId, documentId));
}

/** Archives a document: it leaves the lists and packages and cannot be delivered, but stays readable and downloadable. */
export async function archiveDocument(ctx: ActionContext, projectId: string, documentId: string) {
  const before = await loadDocument(ctx, projectId, documentId);
  if (before.archived_at) {
    throw new ServiceError(
      'ALREADY_ARCHIVED',
      `Document ${documentId} was archived at ${before.archived_at}; it stays readable with get_project_document.`,
    );
  }
  await ctx.db.updateTable('documents').set({ archived_at: ctx.now }).where('id', '=', documentId).execute();
  ctx.audit({
    targetKind: 'document',
    targetId: documentId,
    projectId,
    summary: `Archived document ${before.title} (${before.format})`,
    changes: { archived_at: { from: null, to: ctx.now } },
  });
  return presentDocument({ ...before, archived_at: ctx.now });
}

/** Where a new document came from. */
export type DocumentSource =
  | { kind: 'live' }
  | { kind: 'version'; number: number }
  | { kind: 'share'; shareId: string }
  | { kind: 'estimate_revision'; revisionId: string }
  | { kind: 'purchase_order_revision'; revisionId: string };

/** A source as the API names it (a version by its versionNumber). */
const shownSource = (s: DocumentSource): ShownDocumentSource =>
  s.kind === 'version' ? { kind: 'version', versionNumber: s.number } : s;

/** A file just written to the blob store, to be recorded as a document. */
export interface NewDocument {
  projectId: string;
  kind: DocumentKind;
  format: DocumentFormat;
  source: DocumentSource;
  title: string;
  filename: string;
  sha256: string;
  byteSize: number;
  pageCount: number | null;
  /** When it was made, if not now: a package's ZIP carries the day it was measured, and its record must say the same. */
  createdAt?: string;
}

/**
 * Records a document whose file is already kept in the blob store, made for the caller now. The one write of
 * generating, exporting, retaining or packaging: a job calls it inside its commit, so the record and the operation's
 * success land together (a file kept without a record is harmless: it is content-addressed and named by nothing).
 */
export async function recordDocument(ctx: ActionContext, doc: NewDocument) {
  const row = DOCUMENT_RECORD.newRow(
    {
      studioId: ctx.studioId,
      kind: doc.kind,
      format: doc.format,
      source: shownSource(doc.source),
      title: doc.title,
      filename: doc.filename,
      sha256: doc.sha256,
      byteSize: doc.byteSize,
      pageCount: doc.pageCount,
      creator: ctx.caller!.memberId,
    },
    { id: newId(), ownerId: doc.projectId, now: doc.createdAt ?? ctx.now },
  );
  await ctx.db.insertInto('documents').values(row).execute();
  ctx.audit({
    targetKind: 'document',
    targetId: row.id,
    projectId: doc.projectId,
    summary: `Made document ${row.title} (${row.kind}, ${row.format}${row.page_count ? `, ${row.page_count} pages` : ''})`,
    changes: { created: { from: null, to: { kind: row.kind, format: row.format, sha256: row.blob_sha256 } } },
  });
  const creator = await ctx.queryRow<{ name: string }>(
    'SELECT u.name FROM members m JOIN users u ON u.id = m.user_id WHERE m.id = ?',
    row.created_by,
  );
  return presentDocument({ ...row, creator_name: creator?.name ?? '' });
}
