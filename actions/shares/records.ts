import { z } from 'zod';
import { linkServing } from '../shared/link-serving.js';
import { named } from '../../src/core/values.js';
import { SHARE_RECORD, SHARE_REVOCATION_RECORD } from '../../src/domain/shares/record.js';

export { RecipientEmail, ShareIntent } from '../../src/domain/shares/record.js';

/** A share as the API answers it (declared once, in src/domain/shares/record.ts). */
export const Share = SHARE_RECORD.output;

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

/** A revocation as the API answers it (declared once, in src/domain/shares/record.ts). */
export const ShareRevocation = SHARE_REVOCATION_RECORD.output;
