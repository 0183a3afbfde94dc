import type { AssignableRole } from '../../../db/vocabulary.js';
import { ServiceError } from '../../core/errors.js';
import { nowIso } from '../../core/ids.js';
import { refusalText, sendMail } from '../../files/mail.js';
import { defineJob, type JobContext } from '../../jobs/job.js';
import { messageIdFor } from '../documents/deliver.js';
import { assertDeliveryConfigured } from '../documents/mail-config.js';
import { invitationUrl, mintInvitationToken } from './token.js';

interface Pending {
  id: string;
  email: string;
  role: AssignableRole;
  expires_at: string;
  email_operation_id: string | null;
  accepted_at: string | null;
  revoked_at: string | null;
  studio_name: string;
  inviter_name: string;
}

const article = (role: string) => (/^[aeiou]/.test(role) ? `an ${role}` : `a ${role}`);
const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The invitation email: who invites, to which studio, as what, and the link with how long it works. */
export function invitationMail(p: {
  studioName: string;
  inviterName: string;
  role: string;
  url: string;
  expiresAt: string;
}) {
  return {
    subject: `${p.inviterName} invited you to ${p.studioName}`,
    text: [
      `${p.inviterName} has invited you to join ${p.studioName} as ${article(p.role)}.`,
      '',
      `Accept the invitation here (the link works once, until ${day(p.expiresAt)}):`,
      p.url,
      '',
      'If you did not expect this invitation, you can ignore this email.',
      '',
    ].join('\n'),
  };
}

/**
 * Emails an invitation, as the operation create_invitation or resend_invitation queued. The token is minted here, just
 * before sending, and its digest written first (so the link in the email works the moment it arrives); it exists in
 * clear only in the email. An invitation accepted, revoked or sent again since (another operation now owns its email)
 * is left alone. A crash after sending can only send again, with a fresh token (the first link then stops working).
 */
export async function sendInvitationEmail(job: JobContext<{ invitationId: string }>) {
  const { invitationId } = job.input;
  const ours = (row: Pending | undefined): row is Pending =>
    row !== undefined && row.email_operation_id === job.operationId && !row.accepted_at && !row.revoked_at;
  const inv = await job.store.readRow<Pending>(
    `SELECT i.id, i.email, i.role, i.expires_at, i.email_operation_id, i.accepted_at, i.revoked_at,
            s.name AS studio_name, u.name AS inviter_name
     FROM invitations i JOIN studios s ON s.id = i.studio_id
     JOIN members m ON m.id = i.invited_by JOIN users u ON u.id = m.user_id
     WHERE i.id = ?`,
    invitationId,
  );
  if (!ours(inv)) return { invitationId, sent: false };
  /** Written on its own, outside the job's commit, guarded like everything here by the operation still owning it. */
  const record = (columns: Record<string, string | null>) =>
    job.store.write((tx) =>
      tx
        .updateTable('invitations')
        .set({ ...columns, updated_at: nowIso() })
        .where('id', '=', inv.id)
        .where('email_operation_id', '=', job.operationId)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst(),
    );
  try {
    assertDeliveryConfigured(job.config);
  } catch (err) {
    await record({ email_status: 'failed', email_error: (err as ServiceError).detail });
    throw err;
  }
  const { token, hash, hint } = mintInvitationToken();
  const minted = await record({ token_hash: hash, token_hint: hint });
  if (Number(minted.numUpdatedRows) !== 1) return { invitationId, sent: false };
  const mail = invitationMail({
    studioName: inv.studio_name,
    inviterName: inv.inviter_name,
    role: inv.role,
    url: invitationUrl(job.config.baseUrl, token),
    expiresAt: inv.expires_at,
  });
  let messageId: string;
  try {
    ({ messageId } = await sendMail(job.config, {
      to: inv.email,
      ...mail,
      messageId: messageIdFor(job.operationId, job.config.mailFrom!),
    }));
  } catch (err) {
    const detail = refusalText(err);
    await record({ email_status: 'failed', email_error: detail });
    throw new ServiceError(
      'DELIVERY_FAILED',
      `The mail server did not take the invitation to ${inv.email}: ${detail}. Check the address, then resend_invitation.`,
    );
  }
  return job.commit(async (ctx) => {
    const sent = await ctx.db
      .updateTable('invitations')
      .set({ email_status: 'sent', email_error: null, emailed_at: ctx.now, updated_at: ctx.now })
      .where('id', '=', inv.id)
      .where('email_operation_id', '=', job.operationId)
      .executeTakeFirst();
    if (Number(sent.numUpdatedRows) === 1) {
      ctx.audit({
        targetKind: 'invitation',
        targetId: inv.id,
        summary: `Emailed the invitation to ${inv.email}`,
        changes: { emailStatus: { from: 'sending', to: 'sent' }, tokenHint: { from: null, to: hint } },
      });
    }
    return { invitationId, sent: true, messageId };
  });
}

/** The operation that emails an invitation (see sendInvitationEmail). */
export const INVITATION_EMAIL = defineJob({
  kind: 'invitation_email',
  run: (job) => sendInvitationEmail(job as JobContext<{ invitationId: string }>),
});
