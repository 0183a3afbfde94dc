import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import * as revocations from '../../src/domain/shares/revocations.js';
import { EXAMPLE } from '../projects/shapes.js';
import { page } from '../../src/core/values.js';
import { ShareRevocation } from './records.js';
import { SHARE_EX, inShare } from './shares.js';

export const revokeProjectShare = defineAction({
  name: 'revoke_project_share',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'shares',
  summary: 'Revoke a share link: it stops working at once, and a revocation record is appended.',
  description:
    'Appends a revocation record (who, when, an optional reason) and the link stops working from the next request; the share itself is never edited. Revoking an already revoked share changes nothing and answers its first revocation. Allowed on an archived project too, so its links can still be withdrawn. To send the client a working link again, reissue_project_share. Send a fresh commandKey to retry safely.',
  intents: ['stop a link working', 'take back access from the client', 'cancel a shared link'],
  scope: 'shares:manage',
  // Not frozenWhenArchived: withdrawing a link changes nothing of the project, and a studio must be able to stop the
  // links of a job it has archived.
  keyed: true,
  input: z.strictObject({
    ...inShare,
    reason: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .optional()
      .describe('Why, for the studio\'s record, e.g. "Sent to the wrong address".'),
  }),
  output: ShareRevocation,
  errors: ['NOT_FOUND'],
  example: {
    projectId: EXAMPLE.projectId,
    shareId: SHARE_EX.shareId,
    reason: 'Sent to the wrong address',
    commandKey: '6a8c0e2f-4b1d-4e7a-9c3b-1f3d5b7c9e0a',
  },
  handler: (ctx, input) => revocations.revokeShare(ctx, input.projectId, input.shareId, input.reason),
});

export const listShareRevocations = defineAction({
  name: 'list_share_revocations',
  kind: 'procedure',
  effect: 'query',
  domain: 'shares',
  summary: "List the revocation records of a project's shares (who revoked which link, when and why).",
  description:
    "The project's revocation records, newest first (sort: revokedAt for oldest first), or one share's with shareId: each names the share, the member who revoked it, the time and the reason given. A share's own revokedAt (list_project_shares) comes from this record.",
  scope: 'shares:manage',
  input: revocations.REVOCATION_LISTING.input,
  output: page(ShareRevocation),
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId },
  handler: (ctx, input) => revocations.listRevocations(ctx, input),
});
