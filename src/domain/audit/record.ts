import { z } from 'zod';
import { ACTOR_CHANNELS, ACTOR_KINDS } from '../../../db/vocabulary.js';
import { declaredAuditKinds } from '../../core/audit-kinds.js';
import { Id } from '../../core/values.js';
import { asJson, defineRecord, field, orNull, type TableOf } from '../kit/record.js';

/**
 * The kind of record an event is about: every kind a domain declared (src/core/audit-kinds.ts), sorted. Lazy, so the
 * enumeration is made when first parsed or published, once every domain's entity module has loaded, not when the audit
 * actions are declared, which may be before some of them.
 */
export const AuditTargetKind = z.lazy(() => z.enum(declaredAuditKinds()));

/** Who made a change, as an event answers it: the actor's columns and the member's name as the studio knows it now. */
const Actor = z
  .strictObject({
    kind: z.enum(ACTOR_KINDS),
    id: z.string().nullable().describe('The member id when kind is member.'),
    name: z.string().nullable().describe("The member's name as the studio knows them now; null for system changes."),
    via: z
      .enum(ACTOR_CHANNELS)
      .nullable()
      .describe(
        "How they reached the server: api_token, oauth, local_owner (a local stdio server without a token) or web (this server's own pages: an invitation accepted in a browser); null for system changes and events recorded before this was kept.",
      ),
  })
  .describe('Who made the change.');

const Target = z.strictObject({ kind: AuditTargetKind.nullable(), id: z.string().nullable() });

/**
 * One event of a studio's audit chain: numbered per studio (`seq`) and chained by digest (each covers the one before),
 * so an edited or removed event breaks every later one. Appended by src/core/audit.ts, never changed; no version, never
 * archived. When it happened is answered as `at` (its column too). The actor is answered with the member's current
 * name, looked up per page (events.ts), so it is computed; its columns are kept hidden, like the digests.
 */
export const AUDIT_EVENT_RECORD = defineRecord({
  name: 'AuditEvent',
  description: 'One recorded change.',
  table: 'audit_events',
  owner: 'studio',
  versioned: false,
  archivable: false,
  created: { key: 'at', column: 'at' },
  fields: {
    seq: field(z.int().describe("Position in the studio's hash-chained feed.")),
    projectId: field(Id.nullable()),
    actorKind: field(z.enum(ACTOR_KINDS), { hidden: true }),
    actorId: field(z.string().nullable(), { hidden: true }),
    /** NULL for system events and those recorded before migration 011. */
    actorVia: field(z.enum(ACTOR_CHANNELS).nullable(), { hidden: true }),
    action: field(z.string().describe('The action that made the change.')),
    target: field(Target, {
      columns: {
        toColumns: (t: z.output<typeof Target>) => ({ target_kind: t.kind as string | null, target_id: t.id }),
        fromRow: (row: { target_kind: string | null; target_id: string | null }) => ({
          // The store keeps the kind as text; only declared kinds are ever written (AuditInput takes the closed union).
          kind: row.target_kind as z.output<typeof AuditTargetKind> | null,
          id: row.target_id,
        }),
      },
    }),
    summary: field(z.string()),
    changes: field(z.record(z.string(), z.unknown()).nullable(), {
      codec: orNull(asJson<Record<string, unknown>>()),
    }),
    prevDigest: field(z.string(), { hidden: true }),
    digest: field(z.string(), { hidden: true }),
  },
  computed: { actor: Actor },
  order: ['id', 'seq', 'projectId', 'actor', 'action', 'target', 'at', 'summary', 'changes'],
});

export type AuditEventRow = TableOf<typeof AUDIT_EVENT_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    audit_events: AuditEventRow;
  }
}
