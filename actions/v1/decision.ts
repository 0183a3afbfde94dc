import { z } from 'zod';
import type { ActionContext } from '../../src/core/context.js';
import { defineAction } from '../../src/core/define-action.js';
import { Id } from '../../src/core/values.js';
import { LINE_OUTCOMES } from '../../db/vocabulary.js';
import { EstimateDecision } from '../../src/domain/estimates/decide.js';
import { decideOnShare } from '../../src/domain/share-decisions/decide.js';
import { openDecisionShare } from '../../src/domain/share-decisions/resolve.js';
import type { LiveShare } from '../../src/domain/shares/resolve.js';

/**
 * decide_estimate is its own declaration, not a binding of record_estimate_decision: the two differ in who acts and
 * what stands behind the act. This one has no caller (scope capability: the share token in the path opens the
 * studio), proves the holder controls the recipient's mailbox (a one-time code, or the page's verified session), and
 * records a client's decision; the procedure is a member's act (procurement:write), confirmed by the person, and
 * records the studio's word for what the client said. A binding shares scope, handler and input, which none of this
 * could.
 */
const shareOf = (ctx: ActionContext) => ctx.capability as LiveShare;

export const decideEstimate = defineAction({
  name: 'decide_estimate',
  kind: 'resource',
  effect: 'mutation',
  domain: 'estimates',
  summary: "Accept or decline an estimate revision by its decide link (the client's email verified by a code).",
  description:
    "For whoever holds a decide link (token: everything after /s/): get_shared_document shows the revision (revisionId, digest, pieces). Send outcome accepted or declined, or by_line with lines answering every piece once, and the name the person types. The first call emails a code to the link's recipient and answers VERIFICATION_REQUIRED; ask them for it and repeat with verificationCode. One decision per revision; the same Idempotency-Key and body replay it.",
  scope: 'capability',
  capability: { field: 'token', open: openDecisionShare },
  keyed: true,
  input: z.strictObject({
    token: z.string(),
    revisionId: Id,
    digest: z.string().max(100),
    outcome: z.enum(['accepted', 'declined', 'by_line']),
    lines: z
      .array(z.strictObject({ pieceId: Id, outcome: z.enum(LINE_OUTCOMES) }))
      .max(2000)
      .optional(),
    comment: z.string().max(5000).optional(),
    deciderName: z.string().trim().min(1).max(200),
    verificationCode: z
      .string()
      .regex(/^\d{6}$/, 'The code is the 6 digits from the email.')
      .optional(),
    verifiedSession: z.string().max(200).optional(),
  }),
  output: EstimateDecision,
  errors: [
    'VERIFICATION_REQUIRED',
    'VERIFICATION_FAILED',
    'VERIFICATION_LIMITED',
    'DELIVERY_NOT_CONFIGURED',
    'REVISION_SUPERSEDED',
    'REVISION_EXPIRED',
    'REVISION_DIGEST_MISMATCH',
    'REVISION_ALREADY_DECIDED',
    'NOT_FOUND',
    'IDEMPOTENCY_KEY_REQUIRED',
    'IDEMPOTENCY_KEY_REUSED',
    'IDEMPOTENCY_IN_PROGRESS',
  ],
  http: { method: 'POST', path: '/shares/{token}/decision' },
  mcp: { advertised: true, title: 'Decide an estimate' },
  example: {
    token: 'share_q7BvJ1n0Xw2c9kLrT4yUo8ZpHs6dMe3aFgQiVbNlRxY',
    revisionId: '0000000000000000000000000r',
    digest: 'sha256:5f2b…',
    outcome: 'by_line',
    lines: [
      { pieceId: '0000000000000000000000000p', outcome: 'accepted' },
      { pieceId: '0000000000000000000000000q', outcome: 'declined' },
    ],
    deciderName: 'Ann Marsden',
    verificationCode: '493027',
    idempotencyKey: '3b5d7f9a-1c2e-4a6b-8d0f-2e4a6c8e0b1d',
  },
  handler: (ctx, input) => decideOnShare(ctx, shareOf(ctx), input),
});
