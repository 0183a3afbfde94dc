import { z } from 'zod';
import { AUDIT_TARGET_KINDS } from '../../db/vocabulary.js';
import { Id, named, Timestamp } from '../shared/values.js';

export const AuditEvent = z
  .strictObject({
    id: Id,
    seq: z.int().describe("Position in the studio's hash-chained feed."),
    projectId: Id.nullable(),
    actor: z.strictObject({ kind: z.enum(['member', 'share_client', 'system']), id: z.string().nullable() }),
    action: z.string().describe('The action that made the change.'),
    target: z.strictObject({ kind: z.enum(AUDIT_TARGET_KINDS).nullable(), id: z.string().nullable() }),
    at: Timestamp,
    summary: z.string(),
    changes: z.record(z.string(), z.unknown()).nullable(),
  })
  .describe('One recorded change.');
named(AuditEvent, 'AuditEvent');

export const ChainCheck = z
  .strictObject({
    intact: z.boolean().describe('Every event links to the one before and carries the digest of its own fields.'),
    eventsChecked: z.int().min(0),
    brokenAtSeq: z.int().nullable().describe('The first event that does not verify; null when intact.'),
  })
  .describe("The studio's audit hash chain, recomputed from its first event.");
