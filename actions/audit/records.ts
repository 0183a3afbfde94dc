import { z } from 'zod';
import { AUDIT_EVENT_RECORD } from '../../src/domain/audit/record.js';

export { AuditTargetKind } from '../../src/domain/audit/record.js';
/** One recorded change, as every audit list answers it. */
export const AuditEvent = AUDIT_EVENT_RECORD.output;

export const ChainCheck = z
  .strictObject({
    intact: z.boolean().describe('Every event links to the one before and carries the digest of its own fields.'),
    eventsChecked: z.int().min(0),
    brokenAtSeq: z.int().nullable().describe('The first event that does not verify; null when intact.'),
  })
  .describe("The studio's audit hash chain, recomputed from its first event.");
