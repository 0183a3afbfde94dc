import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { WriteChannel } from '../../db/store.js';
import { canonicalJson } from './canonical-json.js';
import { ServiceError } from './errors.js';
import { sha256 } from './ids.js';

/** A keyed request's answer, kept for replay until `expires_at` (see KEY_RETENTION_MS). */
export interface IdempotencyRecordRow {
  studio_id: string;
  caller_id: string;
  key: string;
  action: string;
  request_hash: string;
  response: string;
  created_at: string;
  expires_at: string;
}
declare module '../../db/schema.js' {
  interface Database {
    idempotency_records: IdempotencyRecordRow;
  }
}

/** Keys are kept this long (at least the 24 hours the contract promises). */
export const KEY_RETENTION_MS = 48 * 60 * 60 * 1000;

/** The hash that decides "identical input": the action and every input field but the key itself (and `ignored`). */
export function requestHash(action: string, input: Record<string, unknown>, ignored: readonly string[]): string {
  const rest = Object.fromEntries(Object.entries(input).filter(([field]) => !ignored.includes(field)));
  return sha256(canonicalJson({ action, input: rest }));
}

/**
 * One keyed request: whose (a member in a studio; for an action authorised by a capability, the capability itself, see
 * invoke's keyOwner), under which key, for which action, and the digest of what it asked.
 */
export interface KeyedRequest {
  studioId: string;
  callerId: string;
  key: string;
  action: string;
  hash: string;
}

export async function findIdempotentReplay(
  db: Kysely<Database>,
  { studioId, callerId, key, action, hash }: KeyedRequest,
): Promise<{ found: false } | { found: true; response: unknown }> {
  const row = await db
    .selectFrom('idempotency_records')
    .select(['action', 'request_hash', 'response', 'expires_at'])
    .where('studio_id', '=', studioId)
    .where('caller_id', '=', callerId)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row || row.expires_at <= new Date().toISOString()) return { found: false };
  if (row.action !== action || row.request_hash !== hash) throw new ServiceError('IDEMPOTENCY_KEY_REUSED');
  return { found: true, response: JSON.parse(row.response) };
}

export async function saveIdempotentResponse(
  { db, later }: WriteChannel,
  { studioId, callerId, key, action, hash }: KeyedRequest,
  response: unknown,
  now: string,
): Promise<void> {
  const expires = new Date(Date.parse(now) + KEY_RETENTION_MS).toISOString();
  // Expired keys are swept a few at a time by the writes that add new ones, so the table never grows without bound.
  const sweep = db.deleteFrom('idempotency_records').where('expires_at', '<', now);
  const save = db
    .insertInto('idempotency_records')
    .values({
      studio_id: studioId,
      caller_id: callerId,
      key,
      action,
      request_hash: hash,
      response: JSON.stringify(response),
      created_at: now,
      expires_at: expires,
    })
    .onConflict((oc) =>
      oc.columns(['studio_id', 'caller_id', 'key']).doUpdateSet({
        action,
        request_hash: hash,
        response: JSON.stringify(response),
        created_at: now,
        expires_at: expires,
      }),
    );
  // Nothing reads either back in this write: with `later` both are sent at once, checked before the write settles.
  if (later) {
    later(sweep.compile());
    later(save.compile());
    return;
  }
  await sweep.execute();
  await save.execute();
}
