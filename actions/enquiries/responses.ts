import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { ENQUIRY } from '../../src/domain/enquiries/entity.js';
import { requestSend } from '../../src/domain/enquiries/send.js';
import { SEND_ENQUIRY } from '../../src/domain/enquiries/jobs.js';
import { applyQuestion, applyResponse, recordResponse } from '../../src/domain/enquiries/responses.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { startOperation } from '../../src/jobs/operations.js';
import { Operation } from '../operations/records.js';
import { Line } from '../schedule/records.js';
import { CONFIRMED } from '../shared/confirmation.js';
import { EnquiryId, EnquiryResponseId, ProjectId, SupplierId } from '../shared/refs.js';
import { ResponseLineRequest } from './enquiries.js';
import { writesTradePrices } from './guards.js';
import { ENQUIRY_EX as EX, Enquiry, EnquiryResponse } from './records.js';

const inEnquiry = { projectId: ProjectId, enquiryId: EnquiryId.describe('From list_enquiries.') };

export const sendEnquiry = defineAction({
  name: 'send_enquiry',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'enquiries',
  summary: 'Email an enquiry (a request for prices) to each of its suppliers, when email is configured.',
  description:
    "Sends one email per supplier through the studio's mail server: the message, the items as a table (code, item, details, quantity) and the reply-by date; never a client price, markup or the client. Refused at once, nothing queued, when the server has no email (DELIVERY_NOT_CONFIGURED, 503) or when a supplier has no usable email address (VALIDATION_FAILED naming them: add one with update_supplier). Needs expectedVersion from get_enquiry. The enquiry is sent at once and the emails go by an operation: poll get_operation_status; the enquiry's suppliers say how each email went, and a refusal by the mail server fails the operation with DELIVERY_FAILED. Sending a sent enquiry again sends only the emails that failed.",
  intents: ['email the request for prices to the suppliers', 'send the enquiry out', 'ask the makers by email'],
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  versioned: { entity: ENQUIRY, idField: 'enquiryId' },
  startsOperation: true,
  input: z.strictObject(inEnquiry),
  output: Operation,
  errors: ['NOT_FOUND', 'ENQUIRY_WRONG_STATE', 'DELIVERY_NOT_CONFIGURED'],
  example: { projectId: EX.projectId, enquiryId: EX.enquiryId, expectedVersion: 1 },
  handler: async (ctx, input) =>
    startOperation(ctx, {
      kind: SEND_ENQUIRY.kind,
      action: 'send_enquiry',
      scope: 'procurement:write',
      input: await requestSend(ctx, input.projectId, input.enquiryId),
    }),
});

export const recordEnquiryResponse = defineAction({
  name: 'record_enquiry_response',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'enquiries',
  summary: 'Record what a supplier replied to an enquiry: their prices or cannot supply, lead times.',
  description:
    "Appends the supplier's answer (it never replaces an earlier one; a revised quote is a new response): per item, by its number, a tradePrice (needs pricing:write) or cannotSupply: true, with leadTimeDays, validUntil and a note, and a note for the whole answer. Items not mentioned were not answered. The enquiry becomes partly_responded, or responded once every supplier has answered. Nothing reaches the schedule until apply_enquiry_response. Send a fresh commandKey so a retry never records it twice.",
  intents: ['the supplier replied with prices', "note a maker's quote and lead time", "record a supplier's answer"],
  scope: 'procurement:write',
  keyed: true,
  guards: [frozenWhenArchived],
  input: z.strictObject({
    ...inEnquiry,
    supplierId: SupplierId.describe('The supplier answering: one the enquiry went to.'),
    lines: z.array(ResponseLineRequest).min(1).max(200).describe('One entry per item answered.'),
    note: z.string().trim().max(5000).optional().describe('About the whole answer: terms, carriage, contact.'),
  }),
  output: z.strictObject({ response: EnquiryResponse, enquiry: Enquiry }),
  errors: ['NOT_FOUND', 'ENQUIRY_WRONG_STATE'],
  example: {
    projectId: EX.projectId,
    enquiryId: EX.enquiryId,
    supplierId: EX.supplierId,
    lines: [
      { item: 1, tradePrice: { amount4: '12500000' }, leadTimeDays: 42, validUntil: '2027-01-31' },
      { item: 2, cannotSupply: true, note: 'Discontinued.' },
    ],
    commandKey: '8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d',
  },
  handler: (ctx, input) => recordResponse(ctx, input),
});

export const applyEnquiryResponse = defineAction({
  name: 'apply_enquiry_response',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'enquiries',
  summary: "Write a chosen supplier response's trade prices and lead times onto the schedule lines.",
  description: `Writes the response's trade price and lead time onto each schedule line it answered (not free-text items or cannot-supply ones), in one transaction, each line's version going up with its own history entry naming the enquiry and the response (get_schedule_line_history); client prices derived from trade change with them. Needs pricing:write besides procurement:write, and expectedVersion from get_enquiry. A response is applied once (ENQUIRY_WRONG_STATE after). If any of its lines changed since the response was recorded, nothing is written: VERSION_CONFLICT names them; read them, record the answer again and apply that. ${CONFIRMED}`,
  intents: [
    "use the supplier's prices on the schedule",
    'put the quoted trade prices on the pieces',
    "accept a supplier's quote",
  ],
  scope: 'procurement:write',
  guards: [frozenWhenArchived, writesTradePrices],
  versioned: { entity: ENQUIRY, idField: 'enquiryId' },
  confirmation: { ask: applyQuestion },
  input: z.strictObject({ ...inEnquiry, responseId: EnquiryResponseId.describe("From get_enquiry's responses.") }),
  output: z.strictObject({
    enquiry: Enquiry,
    response: EnquiryResponse,
    lines: z.array(Line).describe('The lines as they now are.'),
  }),
  errors: ['NOT_FOUND', 'ARCHIVED', 'ENQUIRY_WRONG_STATE', 'VERSION_CONFLICT'],
  example: {
    projectId: EX.projectId,
    enquiryId: EX.enquiryId,
    responseId: EX.responseId,
    expectedVersion: 3,
    confirm: true,
  },
  handler: (ctx, input) => applyResponse(ctx, input.projectId, input.enquiryId, input.responseId),
});
