import { z } from 'zod';
import { Timestamp } from '../../core/values.js';
import { defineRecord, field, type TableOf } from '../kit/record.js';

/**
 * An API token of one membership. It has no version (a token is made, then only revoked) and is never deleted:
 * revocation stamps revoked_at. The secret is never stored: its SHA-256 digest is kept (hidden), and its last 4
 * characters to recognise it. `state` and `current` are worked out from the clock and the caller.
 */
export const API_TOKEN_RECORD = defineRecord({
  name: 'ApiToken',
  description: 'An API token, without its secret (never stored; shown once at creation).',
  table: 'api_tokens',
  owner: 'member',
  versioned: false,
  archivable: { key: 'revokedAt' },
  archivedMeans: 'When it was revoked: it stops working from then on. Null while it was not; tokens are never deleted.',
  fields: {
    name: field(z.string(), { write: 'create', required: true }),
    tokenHash: field(z.string(), { hidden: true }),
    hint: field(z.string().describe('The last 4 characters of the secret, to recognise it.')),
    expiresAt: field(Timestamp.nullable()),
  },
  computed: {
    state: z.enum(['active', 'expired', 'revoked']),
    current: z.boolean().describe('The token this request was made with.'),
  },
  order: ['id', 'name', 'hint', 'createdAt', 'expiresAt', 'revokedAt', 'state', 'current'],
});

export type ApiTokenRow = TableOf<typeof API_TOKEN_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    api_tokens: ApiTokenRow;
  }
}
