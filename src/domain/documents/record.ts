import { z } from 'zod';
import {
  DELIVERY_STATUSES,
  DOCUMENT_FORMATS,
  DOCUMENT_KINDS,
  type DocumentSourceKind,
} from '../../../db/vocabulary.js';
import { Id, named, Timestamp } from '../../core/values.js';
import { type ColumnsCodec, defineRecord, field, type TableOf } from '../kit/record.js';

export const DocumentKind = z
  .enum(DOCUMENT_KINDS)
  .describe(
    'client_schedule: the client schedule as a PDF (cover, introduction, sections of pieces, totals, removed pieces, then a spec sheet page per piece); spec_sheets: the spec sheet pages alone; client_export: the client schedule as a spreadsheet (xlsx or csv); project_package: a ZIP of the documents, the export and the photographs; estimate: an estimate revision as the client sees it; purchase_order: a purchase order revision as the supplier reads it (trade prices; downloading it needs pricing:read, and packages leave it out).',
  );
named(DocumentKind, 'DocumentKind');

export const DocumentFormat = z.enum(DOCUMENT_FORMATS).describe('The file format: pdf, xlsx, csv or zip.');
named(DocumentFormat, 'DocumentFormat');

export const DeliveryStatus = z
  .enum(DELIVERY_STATUSES)
  .describe('queued: accepted, not sent yet; sent: the mail server took it; failed: it refused (see error).');
named(DeliveryStatus, 'DeliveryStatus');

/** A member named in a record (who a document was made for, who asked for a delivery), with their name as of now. */
const MemberRef = z.strictObject({ memberId: Id, name: z.string().describe('As the studio knows them now.') });

const DocumentSource = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('live').describe('The live client document as it was when the document was made.'),
    }),
    z.strictObject({
      kind: z.literal('version'),
      versionNumber: z.int().min(1).describe('The minted client document version it shows.'),
    }),
    z.strictObject({
      kind: z.literal('share'),
      shareId: Id.describe('The share whose view it keeps (retain_client_link_pdf).'),
    }),
    z.strictObject({
      kind: z.literal('estimate_revision'),
      revisionId: Id.describe("The estimate revision it shows, as the client sees it (generate_document's estimate)."),
    }),
    z.strictObject({
      kind: z.literal('purchase_order_revision'),
      revisionId: Id.describe(
        "The purchase order revision it shows, as the supplier reads it (generate_document's purchase_order).",
      ),
    }),
  ])
  .describe(
    'What the document was made from. Every document shows the client document only (never a trade price), except a purchase order, which shows trade prices and no client price.',
  );
export type ShownDocumentSource = z.output<typeof DocumentSource>;

/** Where a document came from, kept as its kind and the one column that kind names (a version, a share, a revision). */
const sourceColumns: ColumnsCodec<
  ShownDocumentSource,
  {
    source_kind: DocumentSourceKind;
    source_version: number | null;
    source_share_id: string | null;
    /** An estimate's or a purchase order's revision (027). */
    source_revision_id: string | null;
  }
> = {
  toColumns: (s) => ({
    source_kind: s.kind,
    source_version: s.kind === 'version' ? s.versionNumber : null,
    source_share_id: s.kind === 'share' ? s.shareId : null,
    source_revision_id: 'revisionId' in s ? s.revisionId : null,
  }),
  fromRow: (row) =>
    row.source_kind === 'version'
      ? { kind: row.source_kind, versionNumber: row.source_version! }
      : row.source_kind === 'share'
        ? { kind: row.source_kind, shareId: row.source_share_id! }
        : row.source_kind === 'estimate_revision' || row.source_kind === 'purchase_order_revision'
          ? { kind: row.source_kind, revisionId: row.source_revision_id! }
          : { kind: row.source_kind },
};

/**
 * A file made from a project, kept in the blob store by its SHA-256 (`sha256`, column blob_sha256); never changed but
 * for its archival. Its media type follows from its format, and its maker is shown with their name as of now: both are
 * `computed`, worked out on every read.
 */
export const DOCUMENT_RECORD = defineRecord({
  name: 'ProjectDocument',
  description:
    'A document of a project: a file made from its client document (a PDF, a spreadsheet export) or a package of them. It never changes once made; download it with download_document.',
  table: 'documents',
  owner: 'project',
  versioned: false,
  archivable: true,
  archivedMeans: 'Set when archived: it leaves lists and packages, and is never sent.',
  fields: {
    studioId: field(Id, { hidden: true }),
    projectId: field(Id, { owner: true }),
    kind: field(DocumentKind),
    format: field(DocumentFormat),
    source: field(DocumentSource, { columns: sourceColumns }),
    title: field(z.string()),
    filename: field(z.string().describe('The name a download saves it under, e.g. harbour-house-client-schedule.pdf.')),
    byteSize: field(z.int().min(0)),
    sha256: field(z.string().describe("The file's SHA-256 (hex): the same bytes always have the same digest."), {
      column: 'blob_sha256',
    }),
    pageCount: field(z.int().min(1).nullable().describe('Pages of a PDF; null for other formats.')),
    /** The member it was made for (shown as createdBy, with their name). */
    creator: field(Id, { column: 'created_by', hidden: true }),
  },
  computed: {
    mediaType: z.string().describe('e.g. application/pdf.'),
    createdBy: MemberRef.describe('The member it was made for.'),
  },
  // As published before the record was declared.
  order: [
    'id',
    'projectId',
    'kind',
    'format',
    'source',
    'title',
    'filename',
    'mediaType',
    'byteSize',
    'sha256',
    'pageCount',
    'createdBy',
    'createdAt',
    'archived_at',
  ],
});
export type DocumentRow = TableOf<typeof DOCUMENT_RECORD>;

/**
 * One sending of a document by email, and how it went: queued by the request, then sent or failed by its operation
 * (never edited by hand, so it has no version; updated_at says when the operation last moved it).
 */
export const DOCUMENT_DELIVERY_RECORD = defineRecord({
  name: 'DocumentDelivery',
  description: 'One email delivery of a document, and how it went. Deliveries are never edited by hand.',
  table: 'document_deliveries',
  owner: 'project',
  versioned: false,
  archivable: false,
  fields: {
    studioId: field(Id, { hidden: true }),
    projectId: field(Id, { owner: true }),
    documentId: field(Id),
    recipient: field(z.string().describe('The address it was sent to (lower case).')),
    subject: field(z.string()),
    message: field(z.string().describe("The email's text, above the attached document.")),
    status: field(DeliveryStatus),
    error: field(
      z
        .strictObject({
          code: z.string().describe('A stable code: DELIVERY_FAILED when the mail server refused it.'),
          detail: z.string().describe('What the mail server answered, to act on.'),
        })
        .nullable()
        .describe('Why it failed; null unless status is failed.'),
      {
        columns: {
          toColumns: (e: { code: string; detail: string } | null) => ({
            /** A failure's stable code (DELIVERY_FAILED, DELIVERY_NOT_CONFIGURED …); null otherwise. */
            error_code: e?.code ?? null,
            /** What the mail server said when it refused, for the studio to act on; null otherwise. */
            error_detail: e?.detail ?? null,
          }),
          fromRow: (row: { error_code: string | null; error_detail: string | null }) =>
            row.error_code ? { code: row.error_code, detail: row.error_detail ?? '' } : null,
        },
      },
    ),
    messageId: field(
      z
        .string()
        .nullable()
        .describe('The Message-ID the mail server took it under; null until sent. No record is kept of it being read.'),
    ),
    /** The member who asked for it (shown as requestedBy, with their name). */
    requester: field(Id, { column: 'requested_by', hidden: true }),
    sentAt: field(Timestamp.nullable().describe('When the mail server took it; null until then.')),
    updatedAt: field(Timestamp, { hidden: true }),
  },
  computed: {
    requestedBy: MemberRef.describe('The member who asked for it to be sent.'),
  },
  // As published before the record was declared.
  order: [
    'id',
    'projectId',
    'documentId',
    'recipient',
    'subject',
    'message',
    'status',
    'error',
    'messageId',
    'requestedBy',
    'createdAt',
    'sentAt',
  ],
});
export type DocumentDeliveryRow = TableOf<typeof DOCUMENT_DELIVERY_RECORD>;

/** One file a project package packs, by its address in the blob store. See 026_package_entries.ts. */
export interface PackageEntryRow {
  document_id: string;
  /** 1, 2, 3 …: the entry's place in the ZIP. */
  position: number;
  /** Its name in the ZIP, e.g. `photographs/living-room/l-01-sofa-1.jpg`. */
  path: string;
  blob_sha256: string;
  byte_size: number;
}

declare module '../../../db/schema.js' {
  interface Database {
    documents: DocumentRow;
    document_deliveries: DocumentDeliveryRow;
    package_entries: PackageEntryRow;
  }
}
