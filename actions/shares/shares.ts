import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import * as shares from '../../src/domain/shares/shares.js';
import { EXAMPLE } from '../projects/shapes.js';
import { EstimateRevisionId, ProjectId, ShareId } from '../shared/refs.js';
import { CONFIRMED } from '../shared/confirmation.js';
import { page } from '../../src/core/values.js';
import { IssuedShare, RecipientEmail, Share, ShareIntent } from './records.js';

/** A fake id for examples: the shape the API mints, no meaning. */
export const SHARE_EX = { shareId: '0000000000000000000000000s' } as const;
export const inShare = { projectId: ProjectId, shareId: ShareId.describe('From list_project_shares.') };

export const listProjectShares = defineAction({
  name: 'list_project_shares',
  kind: 'procedure',
  effect: 'query',
  domain: 'shares',
  summary: "List a project's share links (never their tokens), newest first.",
  description:
    "Every share issued for the project, newest first (sort: issuedAt for oldest first), with who issued it, for whom, its token's last 4 characters (tokenHint), when it expires and whether it was revoked. state: live keeps the links that work now; revoked or expired the others. A link's token is never shown again after issue: to send a lost link, reissue_project_share. No record is kept of links being opened.",
  intents: ['which links have we sent the client', 'who can see the schedule', 'list shared links'],
  scope: 'shares:manage',
  input: shares.SHARE_LISTING.input,
  output: page(Share),
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, state: 'live' },
  handler: (ctx, input) => shares.listShares(ctx, input),
});

export const getProjectShare = defineAction({
  name: 'get_project_share',
  kind: 'procedure',
  effect: 'query',
  domain: 'shares',
  summary: 'Read one share link of a project (never its token).',
  description:
    'The share with its document, intent, recipient, tokenHint (the last 4 characters of its token), issuer, expiry, revokedAt and state. The token itself is shown only when the share is issued; a share of another project answers NOT_FOUND.',
  scope: 'shares:manage',
  input: z.strictObject(inShare),
  output: Share,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, shareId: SHARE_EX.shareId },
  handler: (ctx, input) => shares.getShare(ctx, input.projectId, input.shareId),
});

export const issueProjectShare = defineAction({
  name: 'issue_project_share',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'shares',
  summary: 'Issue a link for a client to view the client document or decide an estimate; shown once.',
  description: `Mints a share and answers it with its token and url, the link to send, in this answer only: they are stored as a digest, so keep them now. intent view (the default) shares the project's live client document (it always shows the schedule as it is now); intent decide with estimateRevisionId shares that one revision (the estimate's current one) for the client to accept or decline, line by line or whole, and needs recipientEmail: the client enters a code emailed there before deciding. Name the recipient with recipientEmail (optional: the link works for whoever holds it) and a lifetime with expiresInDays (1 to 365 days from now; default: until revoked). Each call makes another link; revoke_project_share stops one. Send a fresh commandKey: a retry with it answers the same share without its token or url (and asks no one again). An archived project takes no new shares (ARCHIVED). ${CONFIRMED}`,
  intents: ['send the client a link to the schedule', 'share the schedule with the client', 'give the client a link'],
  scope: 'shares:manage',
  guards: [frozenWhenArchived],
  keyed: true,
  confirmation: { ask: shares.issueQuestion },
  shownOnce: ['token', 'url'],
  input: z.strictObject({
    projectId: ProjectId,
    intent: ShareIntent.optional().describe('Default view; decide with estimateRevisionId.'),
    estimateRevisionId: EstimateRevisionId.optional().describe(
      'With intent decide: the revision the link decides (list_estimate_revisions); the current one.',
    ),
    recipientEmail: RecipientEmail.optional(),
    expiresInDays: z
      .int()
      .min(1)
      .max(365)
      .optional()
      .describe('Whole days from now until the link stops working; default: it works until revoked.'),
  }),
  output: IssuedShare,
  errors: ['NOT_FOUND', 'ARCHIVED', 'REVISION_SUPERSEDED', 'REVISION_EXPIRED', 'REVISION_ALREADY_DECIDED'],
  example: {
    projectId: EXAMPLE.projectId,
    recipientEmail: 'client@example.com',
    expiresInDays: 30,
    commandKey: '2c4e6a8b-0d1f-4a3c-9e5b-7d9f1b3c5e7a',
    confirm: true,
  },
  handler: (ctx, input) => shares.issueShare(ctx, input),
});

export const reissueProjectShare = defineAction({
  name: 'reissue_project_share',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'shares',
  summary: 'Mint a new link like an existing share (same document, intent, recipient and lifetime).',
  description: `Issues a new share with the old one's document, intent and recipient, and the same lifetime counted from now (a 30-day link gives a new 30-day link; a link without expiry, one without expiry), answered with its new token and url once. Use it when a link was lost, leaked or expired; the old share is left as issued, revoked or not: revoke_project_share it separately if it should stop working. Send a fresh commandKey: a retry with it answers the same share without its token or url (and asks no one again). An archived project takes no new shares (ARCHIVED). ${CONFIRMED}`,
  scope: 'shares:manage',
  guards: [frozenWhenArchived],
  keyed: true,
  confirmation: { ask: shares.reissueQuestion },
  shownOnce: ['token', 'url'],
  input: z.strictObject(inShare),
  output: IssuedShare,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    shareId: SHARE_EX.shareId,
    commandKey: '4e6a8c0d-2f1b-4c5e-8a7b-9d1f3b5c7e9a',
    confirm: true,
  },
  handler: (ctx, input) => shares.reissueShare(ctx, input.projectId, input.shareId),
});
