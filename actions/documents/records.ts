import { z } from 'zod';
import { DELIVERY_STATUSES, DOCUMENT_FORMATS, DOCUMENT_KINDS } from '../../db/vocabulary.js';
import { Id, named, Timestamp } from '../../src/core/values.js';

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

export const ProjectDocument = z
  .strictObject({
    id: Id,
    projectId: Id,
    kind: DocumentKind,
    format: DocumentFormat,
    source: DocumentSource,
    title: z.string(),
    filename: z.string().describe('The name a download saves it under, e.g. harbour-house-client-schedule.pdf.'),
    mediaType: z.string().describe('e.g. application/pdf.'),
    byteSize: z.int().min(0),
    sha256: z.string().describe("The file's SHA-256 (hex): the same bytes always have the same digest."),
    pageCount: z.int().min(1).nullable().describe('Pages of a PDF; null for other formats.'),
    createdBy: MemberRef.describe('The member it was made for.'),
    createdAt: Timestamp,
    archived_at: Timestamp.nullable().describe('Set when archived: it leaves lists and packages, and is never sent.'),
  })
  .describe(
    'A document of a project: a file made from its client document (a PDF, a spreadsheet export) or a package of them. It never changes once made; download it with download_document.',
  );
named(ProjectDocument, 'ProjectDocument');

export const DocumentDelivery = z
  .strictObject({
    id: Id,
    projectId: Id,
    documentId: Id,
    recipient: z.string().describe('The address it was sent to (lower case).'),
    subject: z.string(),
    message: z.string().describe("The email's text, above the attached document."),
    status: DeliveryStatus,
    error: z
      .strictObject({
        code: z.string().describe('A stable code: DELIVERY_FAILED when the mail server refused it.'),
        detail: z.string().describe('What the mail server answered, to act on.'),
      })
      .nullable()
      .describe('Why it failed; null unless status is failed.'),
    messageId: z
      .string()
      .nullable()
      .describe('The Message-ID the mail server took it under; null until sent. No record is kept of it being read.'),
    requestedBy: MemberRef.describe('The member who asked for it to be sent.'),
    createdAt: Timestamp,
    sentAt: Timestamp.nullable().describe('When the mail server took it; null until then.'),
  })
  .describe('One email delivery of a document, and how it went. Deliveries are never edited by hand.');
named(DocumentDelivery, 'DocumentDelivery');
