import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { API_TOKEN_RECORD, type ApiTokenRow } from './record.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { mintToken } from '../studio/onboarding.js';
import { keysetSort, namedSorts } from '../kit/keyset-page.js';
import { defineListing, type ListingQuery } from '../kit/listing.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether a token still works: revocation wins over expiry. */
function tokenState(row: ApiTokenRow, now: string): 'active' | 'expired' | 'revoked' {
  if (row.revoked_at) return 'revoked';
  return row.expires_at && row.expires_at <= now ? 'expired' : 'active';
}

/** A token's metadata (declared in record.ts): never its secret or digest. `current` marks the token in use. */
export function presentToken(row: ApiTokenRow, currentTokenId: string | undefined, now: string) {
  return API_TOKEN_RECORD.present(row, { state: tokenState(row, now), current: row.id === currentTokenId });
}

async function loadOwnToken(db: Kysely<Database>, memberId: string, tokenId: string): Promise<ApiTokenRow> {
  const row = await db
    .selectFrom('api_tokens')
    .selectAll()
    .where('id', '=', tokenId)
    .where('member_id', '=', memberId)
    .executeTakeFirst();
  // Someone else's token answers exactly like one that does not exist.
  if (!row) throw new ServiceError('NOT_FOUND', `You have no API token ${tokenId} in this studio.`);
  return row;
}

const NEWEST_FIRST = keysetSort('api_tokens', '-created_at', '-id');
/** The orders a token list may ask for; without one it is newest first. */
export const TOKEN_SORTS = namedSorts(
  { name: { column: 'name' }, createdAt: { column: 'created_at' } },
  { column: 'id' },
);

export const TOKEN_LISTING = defineListing({
  filters: {},
  sorts: TOKEN_SORTS,
  defaultSort: NEWEST_FIRST,
  defaultSays: 'newest first',
});

/** The caller's own tokens in this studio (their membership), newest first, revoked and expired ones included. */
export async function listTokens(ctx: ActionContext, q: ListingQuery<typeof TOKEN_LISTING>) {
  const caller = ctx.caller!;
  const qb = ctx.db.selectFrom('api_tokens').selectAll().where('member_id', '=', caller.memberId);
  const { rows, nextCursor } = await TOKEN_LISTING.page(qb, q);
  return { items: rows.map((r) => presentToken(r, caller.tokenId, ctx.now)), nextCursor };
}

/** Mints a token for a membership and answers its metadata with the secret, which is stored only as a digest. */
export async function issueToken(
  db: Kysely<Database>,
  memberId: string,
  name: string,
  now: string,
  expiresInDays?: number,
) {
  const expiresAt =
    expiresInDays === undefined ? null : new Date(Date.parse(now) + expiresInDays * DAY_MS).toISOString();
  const { id, token } = await mintToken(db, memberId, name, now, expiresAt);
  const row = await db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { row, secret: token };
}

export async function createToken(ctx: ActionContext, input: { name: string; expiresInDays?: number }) {
  const caller = ctx.caller!;
  const { row, secret } = await issueToken(ctx.db, caller.memberId, input.name, ctx.now, input.expiresInDays);
  ctx.audit({
    targetKind: 'api_token',
    targetId: row.id,
    summary: `Created API token ${row.name} (…${row.hint})`,
    changes: { created: { from: null, to: row.name }, expiresAt: { from: null, to: row.expires_at } },
  });
  return { token: presentToken(row, caller.tokenId, ctx.now), secret };
}

/**
 * Revokes one of the caller's own tokens; it stops working on the next request (the current one included, when it is
 * the token in use). Revoking a revoked token changes nothing and answers it as it is.
 */
export async function revokeToken(ctx: ActionContext, tokenId: string) {
  const caller = ctx.caller!;
  const before = await loadOwnToken(ctx.db, caller.memberId, tokenId);
  if (before.revoked_at) {
    ctx.audit({
      targetKind: 'api_token',
      targetId: before.id,
      summary: `API token ${before.name} (…${before.hint}) was already revoked; nothing changed`,
    });
    return presentToken(before, caller.tokenId, ctx.now);
  }
  await ctx.db.updateTable('api_tokens').set({ revoked_at: ctx.now }).where('id', '=', before.id).execute();
  ctx.audit({
    targetKind: 'api_token',
    targetId: before.id,
    summary: `Revoked API token ${before.name} (…${before.hint})`,
    changes: { revokedAt: { from: null, to: ctx.now } },
  });
  return presentToken({ ...before, revoked_at: ctx.now }, caller.tokenId, ctx.now);
}
