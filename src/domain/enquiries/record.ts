import { z } from 'zod';
import { ENQUIRY_MAIL_STATUSES, ENQUIRY_STATES } from '../../../db/vocabulary.js';
import { priced } from '../../core/schema-marks.js';
import { Id, Money, named, QuantityAmount4, Timestamp } from '../../core/values.js';
import { asJson, defineRecord, field, type TableOf } from '../kit/record.js';

export const EnquiryState = z
  .enum(ENQUIRY_STATES)
  .describe(
    'draft: not sent yet; sent: emailed to its suppliers; partly_responded: some answered; responded: all answered; applied: a response was written onto the lines; closed: ended.',
  );
named(EnquiryState, 'EnquiryState');

export const EnquiryMailStatus = z
  .enum(ENQUIRY_MAIL_STATUSES)
  .describe(
    "unsent: not sent yet; queued: waiting for the mail server; sent; failed: the mail server's refusal is in error.",
  );
named(EnquiryMailStatus, 'EnquiryMailStatus');

/** A calendar day, as a reply-by or valid-until date is given. */
export const CalendarDate = z.iso.date('A date is written YYYY-MM-DD, e.g. 2026-12-04.').describe('YYYY-MM-DD.');

/**
 * One thing asked about: a schedule line (its code, heading and details as they were when the enquiry was written) or
 * a free-text item not on the schedule yet. Responses name it by its number.
 */
export const EnquiryItem = z
  .strictObject({
    number: z.int().min(1).describe('1-based; what record_enquiry_response names it by.'),
    lineId: Id.nullable().describe('The schedule line asked about; null for a free-text item.'),
    code: z.string().nullable().describe("The line's code, e.g. FF-012."),
    description: z.string().describe("The line's heading, or the free-text item's description."),
    details: z.string().nullable().describe('Brand, product code, finish and dimensions, as the supplier reads them.'),
    quantity: z.strictObject({ amount4: QuantityAmount4, unit: z.string().describe('The unit, e.g. "each", "m²".') }),
  })
  .describe('One item of an enquiry.');
named(EnquiryItem, 'EnquiryItem');
export type EnquiryItemValue = z.output<typeof EnquiryItem>;

const ITEMS = asJson<EnquiryItemValue[]>();
/** An enquiry's items, from the JSON its row keeps them in. */
export const itemsOf = (row: { items: string }) => ITEMS.fromColumn(row.items);

/** A supplier an enquiry goes to, with how its email went and how many responses it has given. */
export const EnquirySupplier = z.strictObject({
  supplierId: Id,
  name: z.string(),
  email: z
    .string()
    .nullable()
    .describe("Where the enquiry goes (the supplier's address; once sent, the one it went to)."),
  mail: z.strictObject({
    status: EnquiryMailStatus,
    error: z.string().nullable().describe("The mail server's refusal, when it failed."),
    messageId: z.string().nullable(),
    sentAt: Timestamp.nullable(),
  }),
  responseCount: z.int().min(0),
});

/** A supplier enquiry: its items, suppliers, reply-by date and where it stands. */
export const ENQUIRY_RECORD = defineRecord({
  name: 'Enquiry',
  description:
    "A request to suppliers for trade prices and lead times on some of a project's lines or free-text items.",
  table: 'enquiries',
  owner: 'project',
  archivable: false,
  fields: {
    projectId: field(Id, { owner: true }),
    title: field(z.string().trim().min(1).max(200).describe('What it is about, e.g. "Living room upholstery".'), {
      write: 'create',
      required: true,
    }),
    message: field(z.string().trim().max(5000).describe('The words above the table of items in the email.'), {
      write: 'create',
      default: '',
    }),
    replyBy: field(CalendarDate.describe('The date suppliers are asked to answer by (YYYY-MM-DD).'), {
      write: 'create',
      required: true,
    }),
    state: field(EnquiryState, { default: 'draft' }),
    items: field(z.array(EnquiryItem).min(1), { codec: ITEMS }),
    sentAt: field(Timestamp.nullable()),
    closedAt: field(Timestamp.nullable()),
    closeReason: field(z.string().nullable().describe('Why it was closed, when it was.')),
    createdBy: field(Id.describe('The member who wrote it.')),
  },
  computed: {
    suppliers: z.array(EnquirySupplier).describe('The suppliers it goes to, in the order given.'),
    responseCount: z.int().min(0).describe('Responses recorded so far, from all suppliers.'),
  },
});
export type EnquiryRow = TableOf<typeof ENQUIRY_RECORD>;

/** One item as a supplier answered it: a trade price or "cannot supply", a lead time, how long the price holds. */
export const ResponseLine = z.strictObject({
  item: z.int().min(1).describe("The item's number on the enquiry."),
  lineId: Id.nullable().describe('The schedule line the item is; null for a free-text item.'),
  cannotSupply: z.boolean().describe('The supplier cannot supply it (then there is no price).'),
  tradePrice: priced(Money)
    .nullable()
    .optional()
    .describe('Needs pricing:read. The unit price quoted; null when none.'),
  leadTimeDays: z.int().min(0).max(3650).nullable(),
  validUntil: CalendarDate.nullable().describe('The last day the price holds.'),
  note: z.string(),
  lineVersion: z
    .int()
    .min(1)
    .nullable()
    .describe("The line's version when the response was recorded: applying refuses once the line has changed since."),
});
export type ResponseLineValue = z.output<typeof ResponseLine>;

const LINES = asJson<ResponseLineValue[]>();
/** A response's lines, from the JSON its row keeps them in. */
export const linesOf = (row: { lines: string }) => LINES.fromColumn(row.lines);

/** A supplier's answer to an enquiry, recorded once and never edited; applied to the lines at most once. */
export const ENQUIRY_RESPONSE_RECORD = defineRecord({
  name: 'EnquiryResponse',
  description: "A supplier's answer to an enquiry, per item; recorded once, applied to the schedule at most once.",
  table: 'enquiry_responses',
  owner: 'project',
  archivable: false,
  fields: {
    projectId: field(Id, { owner: true }),
    enquiryId: field(Id),
    supplierId: field(Id),
    lines: field(z.array(ResponseLine), { codec: LINES }),
    note: field(z.string().max(5000).describe('About the whole response (terms, carriage …).'), { default: '' }),
    recordedBy: field(Id.describe('The member who recorded it.')),
    appliedAt: field(Timestamp.nullable().describe('When its prices were written onto the lines; null until then.')),
    appliedBy: field(Id.nullable()),
  },
  computed: {
    supplierName: z.string(),
  },
});
export type EnquiryResponseRow = TableOf<typeof ENQUIRY_RESPONSE_RECORD>;

/** An enquiry's email to one of its suppliers (a row of the outbox), shown inside the enquiry. */
export interface EnquiryRecipientRow {
  enquiry_id: string;
  supplier_id: string;
  project_id: string;
  position: number;
  email: string | null;
  mail_status: (typeof ENQUIRY_MAIL_STATUSES)[number];
  mail_error: string | null;
  message_id: string | null;
  sent_at: string | null;
}

declare module '../../../db/schema.js' {
  interface Database {
    enquiries: EnquiryRow;
    enquiry_responses: EnquiryResponseRow;
    enquiry_recipients: EnquiryRecipientRow;
  }
}
