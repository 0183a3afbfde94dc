import { z } from 'zod';
import { linkServing } from '../shared/link-serving.js';
import { SHARE_DOCUMENT_KINDS, SHARE_INTENTS } from '../../db/vocabulary.js';
import { Id, named, Timestamp } from '../../src/core/values.js';

export const ShareIntent = z
  .enum(SHARE_INTENTS)
  .describe(
    "What the link's holder may do with the document: view it, or decide (accept or decline one exact estimate revision, after verifying their email).",
  );
named(ShareIntent, 'ShareIntent');

export const ShareState = z
  .enum(['live', 'revoked', 'expired'])
  .describe('live: the link works; revoked: a revocation was appended; expired: past expiresAt. Revocation wins.');
named(ShareState, 'ShareState');

export const RecipientEmail = z
  .email('A recipient email looks like client@example.com.')
  .max(254)
  .describe(
    'Who the link is for, e.g. client@example.com (kept in lower case). Optional: a link works for whoever holds it.',
  );

const MemberRef = z.strictObject({ memberId: Id, name: z.string().describe('As the studio knows them now.') });

export const Share = z
  .strictObject({
    id: Id,
    projectId: Id,
    document: z
      .strictObject({
        kind: z
          .enum(SHARE_DOCUMENT_KINDS)
          .describe(
            "client_document: the project's live client document; estimate_revision: one estimate revision, to decide.",
          ),
        id: Id.describe("For client_document, the project id; for estimate_revision, the revision's."),
      })
      .describe('The one document the link opens.'),
    intent: ShareIntent,
    recipientEmail: z.string().nullable().describe('Who the link was issued for; null when nobody was named.'),
    tokenHint: z
      .string()
      .describe('The last 4 characters of the token, to recognise a link; the token is never stored.'),
    issuedAt: Timestamp,
    issuedBy: MemberRef.describe('The member who issued it.'),
    expiresAt: Timestamp.nullable().describe('When the link stops working; null: it works until revoked.'),
    revokedAt: Timestamp.nullable().describe('From the revocation record (list_share_revocations); null if none.'),
    state: ShareState,
  })
  .describe(
    'A share: an issued, immutable link to one document of a project. No record is kept of a link being opened.',
  );
named(Share, 'Share');

export const IssuedShare = Share.extend({
  token: z
    .string()
    .nullable()
    .describe(
      "The link's secret, shown in this answer only (stored as a digest): give the url to the recipient now. Null when this answer replays an earlier request with the same key; reissue the share if the link was lost.",
    ),
  url: z.string().nullable().describe('The full link to send, <server>/s/<token>. Null exactly when token is.'),
  ...linkServing,
}).describe('A share just issued, with its token and link, which no later read shows again.');
named(IssuedShare, 'IssuedShare');

export const ShareRevocation = z
  .strictObject({
    id: Id,
    shareId: Id,
    projectId: Id,
    revokedAt: Timestamp,
    revokedBy: MemberRef.describe('The member who revoked it.'),
    reason: z.string().nullable().describe('Why, as the studio gave it; null when none was given.'),
  })
  .describe('The record appended when a share is revoked; the share itself is never edited.');
named(ShareRevocation, 'ShareRevocation');
