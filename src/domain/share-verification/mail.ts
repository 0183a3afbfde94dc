import type { Config } from '../../config.js';
import { sendMail } from '../../files/mail.js';
import { messageIdFor } from '../documents/deliver.js';
import { minutes, VERIFICATION_RULES as RULES } from './rules.js';

/** The email that carries a code: who asks, what it is for, how long it works, and what to do if unexpected. */
export function codeMail(p: { studioName: string; code: string }) {
  return {
    subject: `Your code for ${p.studioName}: ${p.code}`,
    text: [
      `Your verification code is ${p.code}`,
      '',
      `Enter it where you are deciding on the estimate from ${p.studioName}. It works once, for ${minutes(RULES.codeLifetimeMs)} minutes.`,
      '',
      'If you did not ask for it, you can ignore this email: nothing can be decided on the estimate without this code.',
      '',
    ].join('\n'),
  };
}

/** Sends a code's email through the configured mail server, under a Message-ID of its own (the code row's id). */
export const sendCodeMail = (
  config: Pick<Config, 'smtpUrl' | 'mailFrom'>,
  p: { codeId: string; to: string; studioName: string; code: string },
) => sendMail(config, { to: p.to, ...codeMail(p), messageId: messageIdFor(p.codeId, config.mailFrom!) });
