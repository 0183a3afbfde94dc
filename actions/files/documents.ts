import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { requestDelivery } from '../../src/domain/documents/deliveries.js';
import {
  DELIVER_DOCUMENT,
  EXPORT_SCHEDULE,
  PACKAGE_PROJECT,
  RENDER_DOCUMENT,
  RETAIN_SHARE_PDF,
} from '../../src/domain/documents/jobs.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { assertStorageRoom } from '../../src/domain/storage/quota.js';
import type { ActionContext } from '../../src/core/context.js';
import { type ErrorCode, ServiceError } from '../../src/core/errors.js';
import type { JobDefinition } from '../../src/jobs/job.js';
import { startOperation } from '../../src/jobs/operations.js';
import { DOCUMENT_EX } from '../documents/documents.js';
import { Operation } from '../operations/records.js';
import { EXAMPLE } from '../projects/shapes.js';
import { DocumentId, EstimateRevisionId, ProjectId, PurchaseOrderId, ShareId } from '../shared/refs.js';

/**
 * The file tools that make or send a file: each accepts the act as an operation (see get_operation_status) and answers
 * it at once; the file is made by a worker, outside any transaction, and recorded as the project's document.
 */
const Source = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('live') }),
    z.strictObject({ kind: z.literal('version'), versionNumber: z.int().min(1) }),
  ])
  .optional()
  .describe('Default { kind: "live" }: the client document as it is now; or a minted version by its number.');
type SentSource = z.output<typeof Source>;
const domainSource = (s: SentSource) =>
  s?.kind === 'version' ? { kind: 'version' as const, number: s.versionNumber } : { kind: 'live' as const };

const KEY = '4c1f7a2e-9b3d-4e5f-8a6b-7c8d9e0f1a2b';

/** What generate_document was sent: a kind and what that kind names. */
interface RenderInput {
  projectId: string;
  kind?: 'client_schedule' | 'spec_sheets' | 'estimate' | 'purchase_order' | undefined;
  source?: SentSource;
  estimateRevisionId?: string | undefined;
  purchaseOrderId?: string | undefined;
  revisionNumber?: number | undefined;
}

/** Refuses a kind sent without what it names, or with what another kind names. */
function assertKindFits(input: RenderInput) {
  const estimate = input.kind === 'estimate';
  const order = input.kind === 'purchase_order';
  const wrong =
    estimate !== (input.estimateRevisionId !== undefined)
      ? { path: 'estimateRevisionId', message: 'Only, and always, with kind estimate.' }
      : order !== (input.purchaseOrderId !== undefined)
        ? { path: 'purchaseOrderId', message: 'Only, and always, with kind purchase_order.' }
        : input.revisionNumber !== undefined && !order
          ? { path: 'revisionNumber', message: 'Only with kind purchase_order.' }
          : input.source && (estimate || order)
            ? { path: 'source', message: 'Only with kind client_schedule or spec_sheets.' }
            : undefined;
  if (wrong) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      'An estimate PDF names its revision (kind estimate with estimateRevisionId), a purchase order PDF its order (kind purchase_order with purchaseOrderId, and revisionNumber if not the current one); neither takes a source, and the client kinds take neither id.',
      { errors: [wrong] },
    );
  }
}

/** What generate_document's job renders: an estimate revision, an order's revision, or the client document a source names. */
function renderJob(input: RenderInput) {
  assertKindFits(input);
  if (input.kind === 'estimate') return { projectId: input.projectId, revisionId: input.estimateRevisionId! };
  if (input.kind === 'purchase_order') {
    return {
      projectId: input.projectId,
      purchaseOrderId: input.purchaseOrderId!,
      revisionNumber: input.revisionNumber,
    };
  }
  return { projectId: input.projectId, kind: input.kind ?? 'client_schedule', source: domainSource(input.source) };
}

/**
 * A file tool that makes or sends a file: documents:write, frozen with an archived project, keyed, answered with the
 * operation its job runs under. `job` is what the worker gets: the input as the domain function takes it.
 */
function documentOperation<I extends z.ZodObject>(spec: {
  name: string;
  summary: string;
  description: string;
  intents?: readonly string[];
  input: I;
  errors?: readonly ErrorCode[];
  example: Record<string, unknown>;
  /** The job the operation runs. */
  runs: JobDefinition;
  /** It keeps a new file (a render, an export, a package), so a studio at its storage quota is refused it at once. */
  makesFile: boolean;
  job: (ctx: ActionContext, input: z.output<I>) => unknown;
}) {
  const { runs, job, makesFile, ...declared } = spec;
  const errors: readonly ErrorCode[] = spec.errors ?? ['NOT_FOUND', 'ARCHIVED'];
  return defineAction({
    ...declared,
    kind: 'file',
    effect: 'mutation',
    domain: 'files',
    scope: 'documents:write',
    guards: [frozenWhenArchived],
    keyed: true,
    startsOperation: true,
    output: Operation,
    errors: makesFile ? [...errors, 'STORAGE_QUOTA_EXCEEDED'] : errors,
    handler: async (ctx, input) => {
      if (makesFile) await assertStorageRoom(ctx.db, ctx.studioId, ctx.config.storageQuotaBytes);
      return startOperation(ctx, {
        kind: runs.kind,
        action: spec.name,
        scope: 'documents:write',
        input: await job(ctx, input),
      });
    },
  });
}
const poll =
  'Answers an operation at once: poll get_operation_status until it succeeds, then its result is the document (download it with download_document). Send a fresh commandKey so a retry never starts it twice.';

export const generateDocumentTool = documentOperation({
  name: 'generate_document',
  summary: 'Render a client schedule, spec sheets, an estimate or a purchase order as a PDF document.',
  description: `Renders the client document as a PDF: client_schedule (cover, introduction, sections of pieces with photographs and client prices as the settings allow, totals, removed pieces, then a spec sheet page per piece) or spec_sheets (the spec sheet pages alone), both drawn from the client document only, so no trade price can appear. source picks the live document (default) or a minted version. kind estimate with estimateRevisionId renders that estimate revision as the client sees it (pieces, client prices, tax, totals, deposit, terms); deliver_document then emails it, with the decide link in the message if you wish. kind purchase_order with purchaseOrderId renders that order's current issued revision (or revisionNumber) for its supplier: the studio, the supplier, the lines at trade prices with their tax, the totals and the delivery details, never a client price, markup or the client's name (the delivery address is printed as the studio wrote it); deliver_document without a recipient then emails it to the supplier. ${poll}`,
  intents: [
    'make a PDF of the client schedule',
    'print the schedule for the client',
    'produce a spec sheet',
    'make the purchase order PDF for the supplier',
  ],
  input: z.strictObject({
    projectId: ProjectId,
    kind: z
      .enum(['client_schedule', 'spec_sheets', 'estimate', 'purchase_order'])
      .optional()
      .describe('Default client_schedule; estimate with estimateRevisionId; purchase_order with purchaseOrderId.'),
    source: Source,
    estimateRevisionId: EstimateRevisionId.optional().describe(
      'With kind estimate: the revision to render as the client sees it (list_estimate_revisions).',
    ),
    purchaseOrderId: PurchaseOrderId.optional().describe(
      'With kind purchase_order: the issued order to render for its supplier (list_purchase_orders).',
    ),
    revisionNumber: z
      .int()
      .min(1)
      .optional()
      .describe("With kind purchase_order: an earlier revision's number; default the current one."),
  }),
  example: { projectId: EXAMPLE.projectId, kind: 'client_schedule', commandKey: KEY },
  runs: RENDER_DOCUMENT,
  makesFile: true,
  job: (_ctx, input) => renderJob(input),
});

export const exportClientScheduleTool = documentOperation({
  name: 'export_client_schedule',
  summary: 'Export the client schedule as a spreadsheet (XLSX or CSV), kept as a project document.',
  description: `Writes the client document's schedule as XLSX (amounts as real numbers in the currency's format, exact) or CSV (amounts as decimal text), one row per piece with its section, in document order. Client prices only, as the settings allow. ${poll}`,
  intents: [
    'download the schedule as a spreadsheet',
    'export to Excel or CSV',
    'give me the schedule in a spreadsheet',
  ],
  input: z.strictObject({
    projectId: ProjectId,
    format: z.enum(['xlsx', 'csv']).optional().describe('Default xlsx.'),
    source: Source,
  }),
  example: { projectId: EXAMPLE.projectId, format: 'xlsx', commandKey: KEY },
  runs: EXPORT_SCHEDULE,
  makesFile: true,
  job: (_ctx, input) => ({
    projectId: input.projectId,
    format: input.format ?? 'xlsx',
    source: domainSource(input.source),
  }),
});

export const retainClientLinkPdf = documentOperation({
  name: 'retain_client_link_pdf',
  summary: "Keep what a share's link shows now as a PDF on the project (a record of what the client saw).",
  description: `Renders the client schedule exactly as the share's link shows it at this moment (its settings, its photographs) into a PDF kept as the project's document, so the studio can prove later what the client was shown. The share must be live (a revoked or expired one fails with NOT_FOUND's sentence in the operation's problem). ${poll}`,
  input: z.strictObject({ projectId: ProjectId, shareId: ShareId.describe('From list_project_shares.') }),
  example: { projectId: EXAMPLE.projectId, shareId: '0000000000000000000000000s', commandKey: KEY },
  runs: RETAIN_SHARE_PDF,
  makesFile: true,
  job: (_ctx, input) => ({ projectId: input.projectId, shareId: input.shareId }),
});

export const createProjectPackageTool = documentOperation({
  name: 'create_project_package',
  summary: "Make a ZIP of a project's documents, its schedule export and its photographs.",
  description: `Packs the project's documents (not archived ones or earlier packages), a client schedule export made now (XLSX) and the originals of its pieces' photographs (byte-exact, by section and piece) into one ZIP, made as it is downloaded however large (it keeps no second copy of the files, so it takes almost no storage). Originals keep their camera data; send clients the PDF rather than the package. When the operation succeeds, download_project_package gives the link. ${poll}`,
  input: z.strictObject({ projectId: ProjectId }),
  example: { projectId: EXAMPLE.projectId, commandKey: KEY },
  runs: PACKAGE_PROJECT,
  makesFile: true,
  job: (_ctx, input) => ({ projectId: input.projectId }),
});

export const deliverDocument = documentOperation({
  name: 'deliver_document',
  summary: 'Email a document of a project to someone, as an attachment (when email is configured).',
  description:
    "Sends the document by email through the studio's mail server, attached, with a subject (default: the document's title) and a short message, to recipient (a purchase order without one goes to its supplier's email; a supplier without one is VALIDATION_FAILED: send recipient or update_supplier). Only when the server has email configured: otherwise DELIVERY_NOT_CONFIGURED (503) at once, and nothing is queued; download_document gives a link to send yourself. The delivery is recorded (list_document_deliveries) and sent by an operation: poll get_operation_status; a refusal by the mail server fails it with DELIVERY_FAILED and the delivery says what the server answered. Send a fresh commandKey so a retry never sends it twice.",
  intents: [
    'email the PDF to the client',
    'send a document by email',
    'mail the schedule to the client',
    'send the purchase order to the supplier',
  ],
  input: z.strictObject({
    projectId: ProjectId,
    documentId: DocumentId.describe('From list_project_documents.'),
    recipient: z
      .email()
      .max(320)
      .optional()
      .describe("Who receives it, e.g. client@example.com; a purchase order's default is its supplier's email."),
    subject: z.string().trim().min(1).max(200).optional(),
    message: z.string().trim().max(5000).optional().describe('The email text above the attachment.'),
  }),
  errors: ['NOT_FOUND', 'ARCHIVED', 'DELIVERY_NOT_CONFIGURED', 'VALIDATION_FAILED'],
  example: {
    projectId: EXAMPLE.projectId,
    documentId: DOCUMENT_EX.documentId,
    recipient: 'marsden.family@example.com',
    commandKey: KEY,
  },
  runs: DELIVER_DOCUMENT,
  makesFile: false,
  job: async (ctx, input) => ({ projectId: input.projectId, deliveryId: (await requestDelivery(ctx, input)).id }),
});
