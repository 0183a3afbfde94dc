import { z } from 'zod';
import { ENQUIRY_RECORD, ENQUIRY_RESPONSE_RECORD } from '../../src/domain/enquiries/record.js';

/** An enquiry as the API answers it (declared once, in src/domain/enquiries/record.ts). */
export const Enquiry = ENQUIRY_RECORD.output;
/** A supplier's recorded response; its trade prices need pricing:read. */
export const EnquiryResponse = ENQUIRY_RESPONSE_RECORD.output;
/** An enquiry with every response recorded against it, oldest first. */
export const EnquiryWithResponses = Enquiry.extend({
  responses: z.array(EnquiryResponse).describe('Every response recorded, oldest first.'),
});

/** Fake ids for examples: the shape the API mints, no meaning. */
export const ENQUIRY_EX = {
  projectId: '0000000000000000000000000a',
  enquiryId: '000000000000000000000000en',
  responseId: '000000000000000000000000er',
  supplierId: '0000000000000000000000000s',
  otherSupplierId: '0000000000000000000000000t',
  lineId: '0000000000000000000000000l',
} as const;
