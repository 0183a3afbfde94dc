import type { LineOutcome } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError, StandingRefusal } from '../../core/errors.js';
import { decidableRevision, decideRevision, pieceOutcomes } from '../estimates/decide.js';
import type { LiveShare } from '../shares/resolve.js';
import { sendCodeMail } from '../share-verification/mail.js';
import { liveSession, sessionUsedFor, type VerifiedSession } from '../share-verification/sessions.js';
import { checkCode, codeSent, requestCode } from '../share-verification/verify.js';

/** A decision as the link's holder sends it: the exact revision (id and digest), the answers, and their proof. */
export interface ShareDecisionInput {
  revisionId: string;
  digest: string;
  outcome: 'accepted' | 'declined' | 'by_line';
  lines?: ReadonlyArray<{ pieceId: string; outcome: LineOutcome }> | undefined;
  comment?: string | undefined;
  deciderName: string;
  verificationCode?: string | undefined;
  verifiedSession?: string | undefined;
}

/**
 * The client's decision through their link: on the one revision the link names, checked as decidable (not superseded,
 * voided, expired or decided; the digest its own) before anything is sent, then made by a verified holder: a live
 * verified session of this share, or a correct code (which opens one). Without either, a code is emailed to the
 * link's recipient and the call is refused with VERIFICATION_REQUIRED; a wrong code is counted and refused. Both
 * refusals keep what they wrote (the code, the count): see StandingRefusal. The decision records the verified address.
 */
export async function decideOnShare(ctx: ActionContext, share: LiveShare, input: ShareDecisionInput) {
  if (input.revisionId !== share.document.id) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `This link decides one revision only, ${share.document.id}; send that revisionId (get_shared_document shows it with its digest).`,
      { errors: [{ path: 'revisionId', message: 'Not the revision this link decides.' }] },
    );
  }
  const lines = input.lines?.map((l) => ({ estimateLineId: l.pieceId, outcome: l.outcome }));
  const { content } = await decidableRevision(ctx, input.revisionId, input.digest, ctx.now);
  pieceOutcomes(content, { outcome: input.outcome, lines });
  const verified = await verifiedHolder(ctx, share, input);
  const decision = await decideRevision(ctx, {
    revisionId: input.revisionId,
    digest: input.digest,
    outcome: input.outcome,
    lines,
    comment: input.comment,
    deciderName: input.deciderName,
    by: { kind: 'client', shareId: share.shareId, verifiedEmail: verified.email },
  });
  await sessionUsedFor(ctx.db, verified.id, decision.id as string);
  return decision;
}

/** The verified session this call stands on: the one it names, or one a correct code opens now; else a code is sent. */
async function verifiedHolder(
  ctx: ActionContext,
  share: LiveShare,
  input: Pick<ShareDecisionInput, 'verificationCode' | 'verifiedSession'>,
): Promise<VerifiedSession> {
  const session = await liveSession(ctx.db, share.shareId, input.verifiedSession, ctx.now);
  if (session) return session;
  if (input.verificationCode) {
    const checked = await checkCode(ctx.db, share.shareId, input.verificationCode, ctx.now);
    if (!checked.ok) throw new StandingRefusal(checked.refusal);
    return checked.session;
  }
  const sent = await requestCode(ctx.db, ctx.config, share.shareId, ctx.now);
  // Sent once the code is committed (it must work when it arrives). A refusal by the mail server is not the caller's
  // to act on here: they ask again, within the day's 10 codes.
  ctx.afterCommit(() => void sendCodeMail(ctx.config, sent.mail).catch(() => undefined));
  throw new StandingRefusal(codeSent(sent));
}
