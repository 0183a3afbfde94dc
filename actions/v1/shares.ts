import { bindResource } from '../../src/core/define-action.js';
import { revokeProjectShare } from '../shares/revocations.js';
import { reissueProjectShare } from '../shares/shares.js';

/** The `/v1` share operations: each is its procedure twin bound to a path; the command key travels as Idempotency-Key. */

export const reissueShare = bindResource(reissueProjectShare, {
  name: 'reissue_share',
  summary: 'Mint a new link like an existing share; answers 201 with the new share and its link once.',
  description:
    'Issues a new share with the old one\'s document, intent and recipient, and the same lifetime counted from now, answered (201, Location: the new share) with its token and url in this answer only. The old share stays as issued: revoke it separately (revoke_share) if it should stop working. Needs an Idempotency-Key; a retry with the same key answers the same share without its token or url. An archived project takes no new shares (ARCHIVED). The person must agree first: without {"confirm": true} in the body nothing changes and the answer is 428 CONFIRMATION_REQUIRED, whose detail is the question to put to them; send confirm: true only once they have agreed.',
  http: {
    method: 'POST',
    path: '/projects/{projectId}/shares/{shareId}/reissues',
    status: 201,
    created: '/projects/{projectId}/shares/{id}',
  },
  example: {
    projectId: '0000000000000000000000000a',
    shareId: '0000000000000000000000000s',
    idempotencyKey: '8e0a2c4d-6f1b-4d3e-9a5c-7b9d1f3e5a70',
    confirm: true,
  },
});

export const revokeShare = bindResource(revokeProjectShare, {
  name: 'revoke_share',
  description:
    'Appends a revocation record (who, when, an optional reason) and answers it; the link stops working from the next request and the share itself is never edited. Revoking an already revoked share changes nothing and answers its first revocation. Allowed on an archived project too. Needs an Idempotency-Key.',
  http: { method: 'POST', path: '/projects/{projectId}/shares/{shareId}/revocation' },
  example: {
    projectId: '0000000000000000000000000a',
    shareId: '0000000000000000000000000s',
    reason: 'Sent to the wrong address',
    idempotencyKey: '0a2c4e6f-8b1d-4f5a-9c7e-1d3f5a7b9c2e',
  },
});
