import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { compiledShape, insertRows } from '../../db/compiled-shape.js';
import type { WriteChannel } from '../../db/store.js';
import type { ActorChannel, ActorKind } from '../../db/vocabulary.js';
import type { AuditInput, Caller } from './context.js';
import { canonicalJson } from './canonical-json.js';
import { newId, sha256 } from './ids.js';

/** The digest the first event of every studio's chain points back to. */
export const GENESIS_DIGEST = '0'.repeat(64);

export interface AuditActor {
  kind: ActorKind;
  id: string | null;
  via: ActorChannel | null;
}

/** Events to append to one studio's chain, by one actor, for one action, at one time. */
export interface AuditBatch {
  studioId: string;
  actor: AuditActor;
  action: string;
  at: string;
  events: readonly AuditInput[];
}

export const actorOf = (caller: Caller | null): AuditActor =>
  caller ? { kind: 'member', id: caller.memberId, via: caller.via } : { kind: 'system', id: null, via: null };

/** The exact fields a digest covers, in one place so that verification recomputes the same text. */
export function eventDigest(
  prevDigest: string,
  e: {
    id: string;
    studioId: string;
    seq: number;
    projectId: string | null;
    actorKind: string;
    actorId: string | null;
    actorVia: string | null;
    action: string;
    targetKind: string | null;
    targetId: string | null;
    at: string;
    summary: string;
    changes: string | null;
  },
): string {
  // The text canonicalJson gives (keys sorted, every value a string, number or null), written in that order directly:
  // every write hashes at least one event. An event without a channel leaves actorVia out (JSON.stringify drops an
  // undefined value), so it hashes exactly as before the channel was recorded, and older chains still verify.
  const text = JSON.stringify({
    action: e.action,
    actorId: e.actorId,
    actorKind: e.actorKind,
    actorVia: e.actorVia === null ? undefined : e.actorVia,
    at: e.at,
    changes: e.changes,
    id: e.id,
    projectId: e.projectId,
    seq: e.seq,
    studioId: e.studioId,
    summary: e.summary,
    targetId: e.targetId,
    targetKind: e.targetKind,
  });
  return sha256(prevDigest + text);
}

/** The last event of a studio's chain: read by every write that does not follow another in its commit group. */
const chainHead = (tx: Kysely<Database>, studioId: string) =>
  compiledShape(tx, 'audit-head', [studioId, 1], () =>
    tx
      .selectFrom('audit_events')
      .select(['seq', 'digest'])
      .where('studio_id', '=', studioId)
      .orderBy('seq', 'desc')
      .limit(1)
      .compile(),
  );

/**
 * Appends events to the studio's hash chain inside the caller's transaction: each stores the digest of the previous,
 * so an edited or removed event breaks every digest after it. With `later` (a write's), the INSERT is sent without
 * waiting for it: nothing reads it back, and the group commit checks it before the write settles.
 */
export async function appendAuditEvents(to: WriteChannel, batch: AuditBatch): Promise<void> {
  const { db: tx, memo, later } = to;
  const { studioId, actor, action, at, events } = batch;
  if (!events.length) return;
  // The chain's head, as the previous write of this commit group left it, or read (one statement saved per write).
  const headKey = `audit-head:${studioId}`;
  const head =
    (memo?.get(headKey) as { seq: number; digest: string } | undefined) ??
    (await tx.executeQuery<{ seq: number; digest: string }>(chainHead(tx, studioId))).rows[0];
  let seq = head?.seq ?? 0;
  let prev = head?.digest ?? GENESIS_DIGEST;
  const rows = events.map((input) => {
    seq += 1;
    const e = {
      id: newId(),
      studioId,
      seq,
      projectId: input.projectId ?? null,
      actorKind: actor.kind,
      actorId: actor.id,
      actorVia: actor.via,
      action: input.action ?? action,
      targetKind: input.targetKind,
      targetId: input.targetId,
      at,
      summary: input.summary,
      changes: input.changes ? canonicalJson(input.changes) : null,
    };
    const digest = eventDigest(prev, e);
    const row = {
      id: e.id,
      studio_id: studioId,
      seq,
      project_id: e.projectId,
      actor_kind: e.actorKind,
      actor_id: e.actorId,
      actor_via: e.actorVia,
      action: e.action,
      target_kind: e.targetKind,
      target_id: e.targetId,
      at,
      summary: e.summary,
      changes: e.changes,
      prev_digest: prev,
      digest,
    };
    prev = digest;
    return row;
  });
  const insert = insertRows(tx, 'audit_events', rows);
  if (later) later(insert);
  else await tx.executeQuery(insert);
  memo?.set(headKey, { seq, digest: prev });
}

/**
 * Appends the events a write queued: to the chain of the studio it acts in, as its actor; an event that belongs to
 * another studio (`elsewhere`) to that studio's own chain, as the membership it names there, by the same channel.
 */
export async function appendQueuedEvents(to: WriteChannel, batch: AuditBatch): Promise<void> {
  await appendAuditEvents(to, { ...batch, events: batch.events.filter((e) => !e.elsewhere) });
  const elsewhere = new Map<string, AuditInput[]>();
  for (const e of batch.events) {
    if (!e.elsewhere) continue;
    const key = `${e.elsewhere.studioId}\u0000${e.elsewhere.memberId}`;
    elsewhere.set(key, [...(elsewhere.get(key) ?? []), e]);
  }
  for (const group of elsewhere.values()) {
    const { studioId, memberId } = group[0]!.elsewhere!;
    const actor: AuditActor = { kind: 'member', id: memberId, via: batch.actor.via };
    await appendAuditEvents(to, { ...batch, studioId, actor, events: group });
  }
}

export interface ChainCheck {
  intact: boolean;
  eventsChecked: number;
  /** The first event whose digest or link does not verify; null when the chain is intact. */
  brokenAtSeq: number | null;
}

/**
 * Recomputes a studio's hash chain from its first event: each event must follow the one before (seq), point at its
 * digest, and carry the digest of its own fields. An edited, removed or reordered event breaks the chain from there.
 */
export async function verifyAuditChain(db: Kysely<Database>, studioId: string): Promise<ChainCheck> {
  const rows = await db
    .selectFrom('audit_events')
    .selectAll()
    .where('studio_id', '=', studioId)
    .orderBy('seq')
    .execute();
  let prev = GENESIS_DIGEST;
  let checked = 0;
  for (const r of rows) {
    checked += 1;
    const digest = eventDigest(prev, {
      id: r.id,
      studioId: r.studio_id,
      seq: r.seq,
      projectId: r.project_id,
      actorKind: r.actor_kind,
      actorId: r.actor_id,
      actorVia: r.actor_via,
      action: r.action,
      targetKind: r.target_kind,
      targetId: r.target_id,
      at: r.at,
      summary: r.summary,
      changes: r.changes,
    });
    if (r.seq !== checked || r.prev_digest !== prev || r.digest !== digest) {
      return { intact: false, eventsChecked: checked, brokenAtSeq: r.seq };
    }
    prev = digest;
  }
  return { intact: true, eventsChecked: checked, brokenAtSeq: null };
}
