import type { Readable } from 'node:stream';
import type { Config } from '../config.js';

/**
 * Email through the studio's mail server (STUDIO_SMTP_URL) with nodemailer: smtp:// upgrades with STARTTLS when the
 * server offers it, smtps:// is TLS from the start. One transport per URL; nodemailer is loaded on first use
 * (and kept out of the server bundle) so a server that sends nothing never loads it.
 */

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The Message-ID to send under, `<id@domain>`: the same for a retried send, so receivers can tell it is one email. */
  messageId: string;
  /** A file streamed (from disk, or as it is written), never read whole into memory; none for a plain message. */
  attachment?: { filename: string; content: Readable; contentType: string };
}

type Transport = { sendMail(m: Record<string, unknown>): Promise<{ messageId: string }>; close(): void };
const transports = new Map<string, Promise<Transport>>();

function transportFor(url: string): Promise<Transport> {
  let t = transports.get(url);
  if (!t) {
    t = import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(url) as unknown as Transport);
    transports.set(url, t);
  }
  return t;
}

/** Sends one email from STUDIO_MAIL_FROM; resolves with the Message-ID the server took it under, or throws its refusal. */
export async function sendMail(
  config: Pick<Config, 'smtpUrl' | 'mailFrom'>,
  mail: Mail,
): Promise<{ messageId: string }> {
  const transport = await transportFor(config.smtpUrl!);
  const info = await transport.sendMail({
    from: config.mailFrom,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    messageId: mail.messageId,
    attachments: mail.attachment ? [mail.attachment] : [],
  });
  return { messageId: info.messageId };
}

/** What a mail server's refusal said, for the studio to act on: its SMTP answer when it gave one, bounded. */
export function refusalText(err: unknown): string {
  const e = err as { response?: unknown; message?: unknown };
  const text = typeof e?.response === 'string' ? e.response : typeof e?.message === 'string' ? e.message : 'unknown';
  return text.replace(/\s+/g, ' ').slice(0, 500);
}
