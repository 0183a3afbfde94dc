import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { priced } from '../../src/core/schema-marks.js';
import { PriceAmount4, QuantityAmount4, page } from '../../src/core/values.js';
import * as enquiries from '../../src/domain/enquiries/enquiries.js';
import { ENQUIRY } from '../../src/domain/enquiries/entity.js';
import { ENQUIRY_RECORD } from '../../src/domain/enquiries/record.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { EnquiryId, LineId, ProjectId, SupplierId } from '../shared/refs.js';
import { ENQUIRY_EX as EX, Enquiry, EnquiryWithResponses } from './records.js';

const inEnquiry = { projectId: ProjectId, enquiryId: EnquiryId.describe('From list_enquiries.') };

export const listEnquiries = defineAction({
  name: 'list_enquiries',
  kind: 'procedure',
  effect: 'query',
  domain: 'enquiries',
  summary: "List a project's supplier enquiries (requests for prices and lead times), newest first.",
  description:
    "The project's enquiries to suppliers, newest first (sort: createdAt, replyBy, '-' for descending), each with its items, its suppliers and how each one's email went, and how many responses came back. Narrow to a state (e.g. sent: still waiting for answers) or to the enquiries that went to one supplier. Read one with its responses (and their trade prices) with get_enquiry.",
  intents: ['which price requests are open', 'show our enquiries to suppliers', 'what have we asked suppliers'],
  scope: 'procurement:read',
  input: enquiries.ENQUIRY_LISTING.input,
  output: page(Enquiry),
  errors: ['NOT_FOUND'],
  example: { projectId: EX.projectId, state: 'sent' },
  handler: (ctx, input) => enquiries.listEnquiries(ctx, input),
});

export const getEnquiry = defineAction({
  name: 'get_enquiry',
  kind: 'procedure',
  effect: 'query',
  domain: 'enquiries',
  summary: 'Read one supplier enquiry with every reply recorded: the prices each supplier gave, lead times.',
  description:
    "The enquiry (items numbered from 1, suppliers with how their email went, state, reply-by date) and its responses, oldest first: per item a trade price (needs pricing:read) or cannot supply, lead time, valid-until date and note, and whether the response was applied. Keep its version for send_enquiry, apply_enquiry_response and close_enquiry, and a response's id for apply_enquiry_response.",
  intents: ['show a request for prices and its answers', 'look at an enquiry', 'what did the suppliers reply'],
  scope: 'procurement:read',
  input: z.strictObject(inEnquiry),
  output: EnquiryWithResponses,
  errors: ['NOT_FOUND'],
  example: { projectId: EX.projectId, enquiryId: EX.enquiryId },
  handler: (ctx, input) => enquiries.getEnquiry(ctx, input.projectId, input.enquiryId),
});

/** An item of a new enquiry: a schedule line, or something not on the schedule yet. */
const ItemRequest = z.union([
  z.strictObject({
    lineId: LineId,
    quantity: z
      .strictObject({ amount4: QuantityAmount4 })
      .optional()
      .describe("Default: the line's quantity, in its unit."),
  }),
  z.strictObject({
    description: z.string().trim().min(1).max(500).describe('What is wanted, e.g. "Linen cushion, 50 × 50 cm".'),
    details: z.string().trim().max(500).optional().describe('Brand, product code, finish, dimensions.'),
    quantity: z.strictObject({
      amount4: QuantityAmount4,
      unit: z.string().trim().min(1).max(20).optional().describe('Default "each".'),
    }),
  }),
]);

export const createEnquiry = defineAction({
  name: 'create_enquiry',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'enquiries',
  summary: 'Draft an enquiry asking suppliers for trade prices and lead times on lines or new items.',
  description:
    "Writes a draft enquiry to one or more suppliers (supplierIds, active ones) about some of the project's schedule lines ({ lineId }, the line's quantity unless you give one) and items not on the schedule yet ({ description, quantity }), with the date to reply by and a message for the email. Nothing is sent until send_enquiry. The email never shows client prices, markup or the client. Send a fresh commandKey so a retry never drafts it twice. To price a line you already have a price for, update_schedule_line is enough.",
  intents: ['ask suppliers for prices', 'request a quote from a maker', 'check lead times with suppliers'],
  scope: 'procurement:write',
  keyed: true,
  guards: [frozenWhenArchived],
  input: ENQUIRY_RECORD.createInput.extend({
    projectId: ProjectId,
    supplierIds: z.array(SupplierId).min(1).max(20).describe('The suppliers to ask, each once (from list_suppliers).'),
    items: z.array(ItemRequest).min(1).max(200).describe('What to ask about, numbered 1, 2 … in this order.'),
  }),
  output: Enquiry,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EX.projectId,
    title: 'Living room upholstery',
    replyBy: '2026-12-04',
    message: 'We would be grateful for your best trade prices.',
    supplierIds: [EX.supplierId, EX.otherSupplierId],
    items: [{ lineId: EX.lineId }, { description: 'Linen cushion, 50 × 50 cm', quantity: { amount4: '40000' } }],
    commandKey: '5b2e7c1a-3d4f-4e6a-9b8c-0d1e2f3a4b5c',
  },
  handler: (ctx, input) => enquiries.createEnquiry(ctx, input),
});

export const closeEnquiry = defineAction({
  name: 'close_enquiry',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'enquiries',
  summary: 'Close a supplier enquiry: nothing more is sent, recorded or applied.',
  description:
    'Ends the enquiry from any state (a draft never sent, one still waiting, one answered or applied), with an optional reason. Prices already applied to lines stay. Needs expectedVersion from get_enquiry; closing a closed enquiry answers ENQUIRY_WRONG_STATE.',
  intents: ['we are done with this enquiry', 'close a price request', 'stop waiting for suppliers'],
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  versioned: { entity: ENQUIRY, idField: 'enquiryId' },
  input: z.strictObject({
    ...inEnquiry,
    reason: z.string().trim().min(1).max(500).optional().describe('Why, e.g. "Ordered from the first quote".'),
  }),
  output: Enquiry,
  errors: ['NOT_FOUND', 'ENQUIRY_WRONG_STATE'],
  example: { projectId: EX.projectId, enquiryId: EX.enquiryId, expectedVersion: 4, reason: 'Chose another fabric.' },
  handler: (ctx, input) => enquiries.closeEnquiry(ctx, input.projectId, input.enquiryId, input.reason),
});

/** What record_enquiry_response takes for one item. */
export const ResponseLineRequest = z.strictObject({
  item: z.int().min(1).describe("The item's number on the enquiry (get_enquiry)."),
  tradePrice: priced(z.strictObject({ amount4: PriceAmount4 }))
    .optional()
    .describe("Needs pricing:write. The supplier's unit price, in the project's currency."),
  cannotSupply: z.boolean().optional().describe('true when the supplier cannot supply it (then no tradePrice).'),
  leadTimeDays: z.int().min(0).max(3650).nullable().optional(),
  validUntil: z.iso.date().nullable().optional().describe('The last day the price holds (YYYY-MM-DD).'),
  note: z.string().trim().max(2000).optional(),
});
