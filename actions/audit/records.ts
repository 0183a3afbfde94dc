import { z } from 'zod';
import { ACTOR_CHANNELS, ACTOR_KINDS } from '../../db/vocabulary.js';
import { declaredAuditKinds } from '../../src/core/audit-kinds.js';
import { Id, named, Timestamp } from '../../src/core/values.js';

/**
 * The kind of record an event is about: every kind a domain declared (src/core/audit-kinds.ts), sorted. Lazy, so the
 * enumeration is made when first parsed or published, once every domain's entity module has loaded, not when the audit
 * actions are declared, which may be before some of them.
 */
export const AuditTargetKind = z.lazy(() => z.enum(declaredAuditKinds()));

export const AuditEvent = z
  .strictObject({
    id: Id,
    seq: z.int().describe("Position in the studio's hash-chained feed."),
    projectId: Id.nullable(),
    actor: z
      .strictObject({
        kind: z.enum(ACTOR_KINDS),
        id: z.string().nullable().describe('The member id when kind is member.'),
        name: z
          .string()
          .nullable()
          .describe("The member's name as the studio knows them now; null for system changes."),
        via: z
          .enum(ACTOR_CHANNELS)
          .nullable()
          .describe(
            "How they reached the server: api_token, oauth, local_owner (a local stdio server without a token) or web (this server's own pages: an invitation accepted in a browser); null for system changes and events recorded before this was kept.",
          ),
      })
      .describe('Who made the change.'),
    action: z.string().describe('The action that made the change.'),
    target: z.strictObject({ kind: AuditTargetKind.nullable(), id: z.string().nullable() }),
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
