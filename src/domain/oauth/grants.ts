import type { Db, GroupMemo } from '../../../db/store.js';
import type { OAuthRevocationReason } from '../../../db/vocabulary.js';
import { type AuditActor, appendAuditEvents } from '../../core/audit.js';
import { newId } from '../../core/ids.js';
import { recordedAct } from '../../core/action-names.js';

/**
 * One consented connection: a member of one studio let a client act for them with these scopes (space-separated
 * StudioPermission names, what the person allowed; a request gets them only as far as the member's role allows) for
 * tokens whose audience is `resource`. Revoked as a whole, never edited otherwise.
 */
export interface OAuthGrantRow {
  id: string;
  client_id: string;
  member_id: string;
  scopes: string;
  resource: string;
  created_at: string;
  revoked_at: string | null;
  revoked_reason: OAuthRevocationReason | null;
}
declare module '../../../db/schema.js' {
  interface Database {
    oauth_grants: OAuthGrantRow;
  }
}

// The audit feed's names for a grant's two acts (they are not catalog actions: see src/core/action-names.ts).
const OAUTH_CONSENT = recordedAct('oauth_consent');
const OAUTH_REVOCATION = recordedAct('oauth_revocation');

/**
 * A grant is one consented connection: a client acting for one member of one studio. It is recorded in that studio's
 * audit feed when it is made (the member, through OAuth) and when it ends (the member through the client's
 * revocation, or the system when a spent code or refresh token came back: a sign one was stolen).
 */
export interface NewGrant {
  clientId: string;
  clientName: string | null;
  memberId: string;
  studioId: string;
  /** What the person allowed, as stored; `effective` is what the member's role gives of it now. */
  scopes: readonly string[];
  effective: string;
  resource: string;
}

export async function createGrant(tx: Db, memo: GroupMemo, g: NewGrant, now: string): Promise<string> {
  const id = newId();
  await tx
    .insertInto('oauth_grants')
    .values({
      id,
      client_id: g.clientId,
      member_id: g.memberId,
      scopes: g.scopes.join(' '),
      resource: g.resource,
      created_at: now,
      revoked_at: null,
      revoked_reason: null,
    })
    .execute();
  const client = g.clientName ?? 'an MCP client';
  await appendAuditEvents(
    { db: tx, memo },
    {
      studioId: g.studioId,
      actor: { kind: 'member', id: g.memberId, via: 'oauth' },
      action: OAUTH_CONSENT,
      at: now,
      events: [
        {
          targetKind: 'oauth_connection',
          targetId: id,
          summary: `Connected ${client} over OAuth (${g.effective || 'no permissions'})`,
          changes: {
            client: { from: null, to: client },
            scopes: { from: null, to: g.effective },
            resource: { from: null, to: g.resource },
          },
        },
      ],
    },
  );
  return id;
}

const REASONS: Record<OAuthRevocationReason, string> = {
  revoked: 'revoked by its client',
  refresh_token_reused: 'a refresh token it had already spent was presented again',
  code_reused: 'its authorization code was presented a second time',
  member_removed: 'its member left the studio',
};

/** Ends a grant and so every token of it, at the next request; a grant already ended is left as it is. */
export async function revokeGrant(
  tx: Db,
  memo: GroupMemo,
  grantId: string,
  reason: OAuthRevocationReason,
  now: string,
): Promise<void> {
  const grant = await tx
    .selectFrom('oauth_grants as g')
    .innerJoin('members as m', 'm.id', 'g.member_id')
    .leftJoin('oauth_clients as c', 'c.id', 'g.client_id')
    .select(['g.id', 'g.member_id', 'g.revoked_at', 'm.studio_id', 'c.name'])
    .where('g.id', '=', grantId)
    .executeTakeFirst();
  if (!grant || grant.revoked_at) return;
  await tx
    .updateTable('oauth_grants')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('id', '=', grantId)
    .execute();
  const actor: AuditActor =
    reason === 'revoked'
      ? { kind: 'member', id: grant.member_id, via: 'oauth' }
      : { kind: 'system', id: null, via: null };
  await appendAuditEvents(
    { db: tx, memo },
    {
      studioId: grant.studio_id,
      actor,
      action: OAUTH_REVOCATION,
      at: now,
      events: [
        {
          targetKind: 'oauth_connection',
          targetId: grantId,
          summary: `Ended the OAuth connection of ${grant.name ?? 'an MCP client'}: ${REASONS[reason]}`,
          changes: { revokedAt: { from: null, to: now }, reason: { from: null, to: reason } },
        },
      ],
    },
  );
}
