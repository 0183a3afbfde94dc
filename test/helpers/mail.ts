import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';

/** A message the test's mail server received: the envelope's sender and recipients, and the parsed message. */
export interface ReceivedMail {
  from: string;
  to: string[];
  mail: ParsedMail;
}

/**
 * A mail server of the suite's own (smtp-server, in this process), listening on a free port from before the file's
 * tests (register it before the app, so `env()` is ready when the app is made) and closed after them. It keeps every
 * message and refuses recipients at refused.example with a 550. With `acceptAfterMs`, it is a slow mail server: it
 * answers each message's end of data (the 250 a sender waits for) only that long after it has read it.
 */
export function openMailServer(opts: { acceptAfterMs?: number } = {}) {
  const received: ReceivedMail[] = [];
  const waiting: Array<() => void> = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@refused.example')) {
        const err = Object.assign(new Error(`5.1.1 <${address.address}>: mailbox unavailable`), { responseCode: 550 });
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        async (mail) => {
          if (opts.acceptAfterMs) await new Promise((resolve) => setTimeout(resolve, opts.acceptAfterMs));
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            mail,
          });
          callback();
          for (const wake of waiting.splice(0)) wake();
        },
        (err: Error) => callback(err),
      );
    },
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });
  return {
    /** Every message received so far, in order. */
    received,
    /** The server's environment for sending through this mail server, as the studio. */
    env: (): Record<string, string> => ({
      STUDIO_SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
      STUDIO_MAIL_FROM: 'Hartley & Rowe <studio@hartley-rowe.example>',
    }),
    /** The n-th message (from 1), once it has arrived (no timer: its arrival resolves the wait). */
    async mailNumber(n: number): Promise<ReceivedMail> {
      while (received.length < n) await new Promise<void>((resolve) => waiting.push(resolve));
      return received[n - 1]!;
    },
  };
}

/** The six-digit verification code in an email the test's mail server received ("…code is 123456…"). */
export const codeIn = (mail: { mail: { text?: string | false } }) =>
  /code is (\d{6})/.exec(String(mail.mail.text))![1]!;
