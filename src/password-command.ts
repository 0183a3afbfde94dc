import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Config } from './config.js';
import { hashPassword, passwordProblem } from './domain/people/passwords.js';
import { normalizeEmail } from './domain/people/sign-in.js';

/**
 * `studio password set --email EMAIL [--generate]`: gives a person a password (stored as a scrypt digest), so they
 * can sign in on the OAuth consent page. The password is read from standard input (one line; at a terminal it is
 * asked for without echo), or with --generate made up and printed once. Setting it also lifts a sign-in lock.
 */
export async function setPasswordCommand(config: Config, opts: { email?: string; generate?: boolean }) {
  if (!opts.email) {
    console.error('Name the person: studio password set --email EMAIL');
    process.exitCode = 2;
    return;
  }
  const email = normalizeEmail(opts.email);
  const password = opts.generate ? generated() : await readPassword();
  const problem = passwordProblem(password);
  if (problem) {
    console.error(problem);
    process.exitCode = 2;
    return;
  }
  const digest = await hashPassword(password);
  const { openDatabase } = await import('../db/open.js');
  const store = await openDatabase({ path: config.databasePath, url: config.databaseUrl });
  try {
    const now = new Date().toISOString();
    const changed = await store.write(async (tx) => {
      const user = await tx
        .selectFrom('users')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
        .executeTakeFirst();
      if (!user) return false;
      await tx
        .updateTable('users')
        .set({ password_hash: digest, password_changed_at: now })
        .where('id', '=', user.id)
        .execute();
      await tx.deleteFrom('sign_in_failures').where('email', '=', email).execute();
      return true;
    });
    if (!changed) {
      console.error(`No person has the email ${email} here; check it (studio serve creates the demo studio).`);
      process.exitCode = 2;
      return;
    }
    if (opts.generate) console.log(password);
    console.error(
      `Password set for ${email}${opts.generate ? ' (shown once above; keep it safe)' : ''}. They can now sign in on the OAuth consent page.`,
    );
  } finally {
    await store.close();
  }
}

/** 20 characters from an unambiguous alphabet: about 100 bits. */
function generated(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return [...randomBytes(20)].map((b) => alphabet[b % alphabet.length]).join('');
}

/** One line from standard input; at a terminal, asked for without showing what is typed. */
async function readPassword(): Promise<string> {
  const input = process.stdin;
  if (!input.isTTY) {
    const rl = createInterface({ input, terminal: false });
    for await (const line of rl) {
      rl.close();
      return line.replace(/\r$/, '');
    }
    return '';
  }
  process.stderr.write('New password: ');
  input.setRawMode(true);
  input.resume();
  input.setEncoding('utf8');
  let typed = '';
  try {
    return await new Promise<string>((resolve, reject) => {
      const onData = (chunk: string) => {
        for (const c of chunk) {
          if (c === '\r' || c === '\n') {
            input.off('data', onData);
            return resolve(typed);
          }
          if (c === '\u0003') return reject(new Error('canceled'));
          if (c === '\u007f' || c === '\b') typed = [...typed].slice(0, -1).join('');
          else typed += c;
        }
      };
      input.on('data', onData);
    });
  } finally {
    input.setRawMode(false);
    input.pause();
    process.stderr.write('\n');
  }
}
