import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ShareIntent } from '../../../db/vocabulary.js';
import type { ConfirmationContext } from '../../core/confirmation.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { namedSorts } from '../kit/keyset-page.js';
import { defineListing, type ListingQuery, projectScope } from '../kit/listing.js';
import type { NewRowFields } from '../kit/record.js';
import { memberName } from './members.js';
import { RecipientEmail, SHARE_RECORD, type ShareRow, ShareState } from './record.js';
import { mintShareToken, shareUrl } from './token.js';
import { type LinkBase, linkBase } from '../serving/heartbeat.js';
import { decideQuestion, sharedDocumentOf } from '../share-decisions/issue.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A share as read: its row, its issuer's name, and the time of its revocation when one was appended. */
export type ShareRecord = ShareRow & { issuer_name: string; revoked_at: string | null };

/** Whether the share's link works now: a revocation wins over expiry. */
export function shareState(row: Pick<ShareRecord, 'revoked_at' | 'expires_at'>, now: string): ShareState {
  if (row.revoked_at) return 'revoked';
  return row.expires_at !== null && row.expires_at <= now ? 'expired' : 'live';
}

/** A share as the API shows it (declared in record.ts): never its token or digest, only its last 4 characters. */
export function presentShare(row: ShareRecord, now: string) {
  return SHARE_RECORD.present(row, {
    issuedBy: { memberId: row.issued_by, name: row.issuer_name },
    revokedAt: row.revoked_at,
    state: shareState(row, now),
  });
}
export type PresentedShare = ReturnType<typeof presentShare>;

/** Shares with their issuer's name and revocation time, in one statement. */
function shareRecords(db: Kysely<Database>) {
  return db
    .selectFrom('shares')
    .innerJoin('members', 'members.id', 'shares.issued_by')
    .innerJoin('users', 'users.id', 'members.user_id')
    .leftJoin('share_revocations', 'share_revocations.share_id', 'shares.id')
    .selectAll('shares')
    .select(['users.name as issuer_name', 'share_revocations.revoked_at as revoked_at']);
}

export const SHARE_SORTS = namedSorts({ issuedAt: { column: 'shares.issued_at' } }, { column: 'shares.id' });

export const SHARE_LISTING = defineListing({
  filters: {
    ...projectScope,
    state: ShareState.optional().describe('Only shares in this state; default all.'),
    recipientEmail: RecipientEmail.optional().describe('Only shares issued for this address.'),
  },
  sorts: SHARE_SORTS,
  defaultSort: '-issuedAt',
  defaultSays: '-issuedAt (newest first)',
});

/** A project's shares, newest first unless `sort` says otherwise; `state` keeps the live, revoked or expired ones. */
export async function listShares(ctx: ActionContext, q: ListingQuery<typeof SHARE_LISTING>) {
  let qb = shareRecords(ctx.db).where('shares.project_id', '=', q.projectId);
  if (q.recipientEmail) qb = qb.where('shares.recipient_email', '=', q.recipientEmail.toLowerCase());
  if (q.state === 'revoked') qb = qb.where('share_revocations.id', 'is not', null);
  else if (q.state) {
    qb = qb.where('share_revocations.id', 'is', null);
    qb =
      q.state === 'expired'
        ? qb.where('shares.expires_at', 'is not', null).where('shares.expires_at', '<=', ctx.now)
        : qb.where((eb) => eb.or([eb('shares.expires_at', 'is', null), eb('shares.expires_at', '>', ctx.now)]));
  }
  const { rows, nextCursor } = await SHARE_LISTING.page(qb, q);
  return { items: rows.map((r) => presentShare(r, ctx.now)), nextCursor };
}

/** The share, read in its project (ownership has already proved it belongs there). */
export async function loadShare(ctx: Pick<ActionContext, 'db'>, projectId: string, shareId: string) {
  const row = await shareRecords(ctx.db)
    .where('shares.id', '=', shareId)
    .where('shares.project_id', '=', projectId)
    .executeTakeFirst();
  if (!row)
    throw new ServiceError('NOT_FOUND', `No share ${shareId} exists in this project; list_project_shares lists them.`);
  return row;
}

export async function getShare(ctx: ActionContext, projectId: string, shareId: string) {
  return presentShare(await loadShare(ctx, projectId, shareId), ctx.now);
}

/** What issue and reissue answer: the share, and its token and link, which exist only in this answer. */
export type IssuedShare = PresentedShare &
  Omit<LinkBase, 'baseUrl'> & {
    token: string;
    url: string;
  };

/** What a new share is made of: the document, who may do what with it, until when. */
type NewShare = Pick<
  NewRowFields<(typeof SHARE_RECORD)['spec']['fields']>,
  'document' | 'intent' | 'recipientEmail' | 'expiresAt'
>;

/** Writes a new share of a project with a fresh token, issued by the caller now. */
async function mint(
  ctx: ActionContext,
  projectId: string,
  fields: NewShare,
): Promise<{ row: ShareRecord; issued: IssuedShare }> {
  const caller = ctx.caller!;
  const { token, hash, hint } = mintShareToken();
  const row = SHARE_RECORD.newRow(
    { ...fields, tokenHash: hash, tokenHint: hint, issuer: caller.memberId },
    { id: newId(), ownerId: projectId, now: ctx.now },
  );
  await ctx.db.insertInto('shares').values(row).execute();
  const record: ShareRecord = { ...row, issuer_name: await memberName(ctx, caller.memberId), revoked_at: null };
  const { baseUrl, ...serving } = await linkBase(ctx.queryRow, ctx.config);
  return {
    row: record,
    issued: { ...presentShare(record, ctx.now), token, url: shareUrl(baseUrl, token), ...serving },
  };
}

/** What an audit event says about a share: never its token (the last 4 characters name it). */
const audited = (row: ShareRecord) => ({
  document: { kind: row.document_kind, id: row.document_id },
  intent: row.intent,
  recipientEmail: row.recipient_email,
  expiresAt: row.expires_at,
  tokenHint: row.token_hint,
});

export interface IssueShareInput {
  projectId: string;
  intent?: ShareIntent | undefined;
  estimateRevisionId?: string | undefined;
  recipientEmail?: string | undefined;
  expiresInDays?: number | undefined;
}

/** Who may open a link, and for how long, in a question's words. */
function exposure(recipient: string | null, expiresAt: string | null) {
  const until = expiresAt === null ? 'until it is revoked' : `until ${expiresAt.slice(0, 10)}`;
  return `${recipient ? `It is meant for ${recipient}, but anyone` : 'Anyone'} holding the link can view it, as the schedule stands at each visit, ${until}.`;
}

const expiryIn = (now: string, days: number | undefined) =>
  days === undefined ? null : new Date(Date.parse(now) + days * DAY_MS).toISOString();

/** The question before a share is issued (see the action's `confirmation`). */
export async function issueQuestion(ctx: ConfirmationContext, input: IssueShareInput) {
  const name = ctx.project?.name ?? 'this project';
  const recipient = input.recipientEmail?.toLowerCase() ?? null;
  const expiry = expiryIn(new Date().toISOString(), input.expiresInDays);
  const document = await sharedDocumentOf(ctx, input);
  if (document.kind === 'estimate_revision') return decideQuestion(document.revision, recipient, expiry);
  return `Share the client document of ${name}${recipient ? ` with ${recipient}` : ''}? ${exposure(recipient, expiry)}`;
}

/** The question before a share is reissued (see the action's `confirmation`). */
export async function reissueQuestion(ctx: ConfirmationContext, input: { projectId: string; shareId: string }) {
  const old = await loadShare(ctx, input.projectId, input.shareId);
  const name = ctx.project?.name ?? 'this project';
  return `Issue a new link to the client document of ${name}, like share …${old.token_hint}${old.recipient_email ? ` for ${old.recipient_email}` : ''}? ${exposure(old.recipient_email, renewedExpiry(old, new Date().toISOString()))} The old link is left as it is.`;
}

/** A reissued share's expiry: the old one's lifetime, counted from now (none stays none). */
function renewedExpiry(old: Pick<ShareRow, 'expires_at' | 'issued_at'>, now: string) {
  const lifetime = old.expires_at === null ? null : Date.parse(old.expires_at) - Date.parse(old.issued_at);
  return lifetime === null ? null : new Date(Date.parse(now) + lifetime).toISOString();
}

/**
 * A new share: of the project's live client document (its id is the project's) to view, or of one estimate revision
 * to decide (see sharedDocumentOf).
 */
export async function issueShare(ctx: ActionContext, input: IssueShareInput) {
  const document = await sharedDocumentOf(ctx, input);
  const { row, issued } = await mint(ctx, input.projectId, {
    document: { kind: document.kind, id: document.id },
    intent: document.kind === 'estimate_revision' ? 'decide' : 'view',
    recipientEmail: input.recipientEmail?.toLowerCase() ?? null,
    expiresAt: expiryIn(ctx.now, input.expiresInDays),
  });
  ctx.audit({
    targetKind: 'share',
    targetId: row.id,
    projectId: input.projectId,
    summary: `Issued a share of ${row.document_kind === 'estimate_revision' ? 'an estimate revision, to decide' : 'the client document'} (…${row.token_hint})${row.recipient_email ? ` for ${row.recipient_email}` : ''}`,
    changes: { created: { from: null, to: audited(row) } },
  });
  return issued;
}

/**
 * A new share with the old one's document, intent and recipient, and the same lifetime (an old share that expired 30
 * days after its issue gives one that expires 30 days from now; one that never expired, one that never expires). The
 * old share is left as issued, revoked or not: revoking it is a separate act.
 */
export async function reissueShare(ctx: ActionContext, projectId: string, shareId: string) {
  const old = await loadShare(ctx, projectId, shareId);
  const { row, issued } = await mint(ctx, old.project_id, {
    document: { kind: old.document_kind, id: old.document_id },
    intent: old.intent,
    recipientEmail: old.recipient_email,
    expiresAt: renewedExpiry(old, ctx.now),
  });
  ctx.audit({
    targetKind: 'share',
    targetId: row.id,
    projectId,
    summary: `Reissued share …${old.token_hint} as a new link (…${row.token_hint})`,
    changes: { created: { from: null, to: audited(row) }, reissueOf: { from: null, to: old.id } },
  });
  return issued;
}
