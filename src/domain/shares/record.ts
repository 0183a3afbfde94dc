import { z } from 'zod';
import { SHARE_DOCUMENT_KINDS, SHARE_INTENTS, type ShareDocumentKind } from '../../../db/vocabulary.js';
import { Id, named, Timestamp } from '../../core/values.js';
import { defineRecord, field, type TableOf } from '../kit/record.js';

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
export type ShareState = z.output<typeof ShareState>;

export const RecipientEmail = z
  .email('A recipient email looks like client@example.com.')
  .max(254)
  .describe(
    'Who the link is for, e.g. client@example.com (kept in lower case). Optional: a link works for whoever holds it.',
  );

/** A member named in a share's record: who issued or revoked it. */
export const MemberRef = z.strictObject({ memberId: Id, name: z.string().describe('As the studio knows them now.') });

const SharedDocument = z
  .strictObject({
    kind: z
      .enum(SHARE_DOCUMENT_KINDS)
      .describe(
        "client_document: the project's live client document; estimate_revision: one estimate revision, to decide.",
      ),
    id: Id.describe("For client_document, the project id; for estimate_revision, the revision's."),
  })
  .describe('The one document the link opens.');

/**
 * An issued share: never edited once written (no version, no ending stamp: a revocation is a record of its own,
 * share_revocations, read beside it as revokedAt). The token is never stored: its digest is kept (hidden), and its
 * last 4 characters to recognise it. See 016_shares.ts.
 */
export const SHARE_RECORD = defineRecord({
  name: 'Share',
  description:
    'A share: an issued, immutable link to one document of a project. No record is kept of a link being opened.',
  table: 'shares',
  owner: 'project',
  versioned: false,
  archivable: false,
  created: { key: 'issuedAt', column: 'issued_at' },
  fields: {
    projectId: field(Id, { owner: true }),
    document: field(SharedDocument, {
      write: 'create',
      required: true,
      columns: {
        toColumns: (d: z.output<typeof SharedDocument>) => ({
          document_kind: d.kind as ShareDocumentKind,
          document_id: d.id,
        }),
        fromRow: (row) => ({ kind: row.document_kind, id: row.document_id }),
      },
    }),
    intent: field(ShareIntent, { write: 'create', required: true }),
    recipientEmail: field(z.string().nullable().describe('Who the link was issued for; null when nobody was named.'), {
      write: 'create',
    }),
    tokenHash: field(z.string(), { hidden: true }),
    tokenHint: field(
      z.string().describe('The last 4 characters of the token, to recognise a link; the token is never stored.'),
    ),
    issuer: field(Id, { column: 'issued_by', hidden: true }),
    expiresAt: field(Timestamp.nullable().describe('When the link stops working; null: it works until revoked.'), {
      write: 'create',
    }),
  },
  computed: {
    issuedBy: MemberRef.describe('The member who issued it.'),
    revokedAt: Timestamp.nullable().describe('From the revocation record (list_share_revocations); null if none.'),
    state: ShareState,
  },
  order: [
    'id',
    'projectId',
    'document',
    'intent',
    'recipientEmail',
    'tokenHint',
    'issuedAt',
    'issuedBy',
    'expiresAt',
    'revokedAt',
    'state',
  ],
});

export type ShareRow = TableOf<typeof SHARE_RECORD>;

/**
 * The revocation of a share, appended once (the share row is left as issued): never changed, so no version; its
 * creation stamp is the revocation's time. The revoking member's name is read beside it.
 */
export const SHARE_REVOCATION_RECORD = defineRecord({
  name: 'ShareRevocation',
  description: 'The record appended when a share is revoked; the share itself is never edited.',
  table: 'share_revocations',
  owner: 'project',
  versioned: false,
  archivable: false,
  created: { key: 'revokedAt', column: 'revoked_at' },
  fields: {
    shareId: field(Id, { write: 'create', required: true }),
    projectId: field(Id, { owner: true }),
    /** The member who revoked it. */
    revoker: field(Id, { column: 'revoked_by', hidden: true }),
    reason: field(z.string().nullable().describe('Why, as the studio gave it; null when none was given.'), {
      write: 'create',
    }),
  },
  computed: { revokedBy: MemberRef.describe('The member who revoked it.') },
  order: ['id', 'shareId', 'projectId', 'revokedAt', 'revokedBy', 'reason'],
});

export type ShareRevocationRow = TableOf<typeof SHARE_REVOCATION_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    shares: ShareRow;
    share_revocations: ShareRevocationRow;
  }
}
