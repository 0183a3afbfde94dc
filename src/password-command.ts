import { createInterface } from 'node:readline';
import type { Config } from './config.js';
import { hashPassword, madeUpPassword, passwordProblem } from './domain/people/passwords.js';
import { normalizeEmail } from './domain/people/sign-in.js';

/**
 * `studio password set|reset`: gives a person a password for the sign-in page (/login, invitations) and the OAuth
 * consent page, stored as a scrypt digest. `set` reads it from standard input (one line; at a terminal it is asked for
 * without echo), or with --generate makes one up; `reset` always makes one up, for the owner when no email is named.
 * A made-up password is printed once. Setting one ends the person's sessions (sessions.ts compares
 * password_changed_at) and lifts a sign-in lock.
 */
export async function setPasswordCommand(
  config: Config,
  opts: { email?: string; generate?: boolean; verb: 'set' | 'reset' },
) {
  if (opts.verb === 'set' && !opts.email) {
    console.error('Name the person: studio password set --email EMAIL');
    process.exitCode = 2;
    return;
  }
  const generate = opts.verb === 'reset' || !!opts.generate;
  const password = generate ? madeUpPassword() : await readPassword();
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
    const found = await store.write(async (tx) => {
      const users = await (opts.email
        ? tx
            .selectFrom('users')
            .select(['users.id', 'users.email'])
            .where((eb) => eb(eb.fn('lower', ['users.email']), '=', normalizeEmail(opts.email!)))
        : tx
            .selectFrom('users')
            .innerJoin('members', 'members.user_id', 'users.id')
            .select(['users.id', 'users.email'])
            .distinct()
            .where('members.role', '=', 'owner')
            .where('members.removed_at', 'is', null)
      ).execute();
      if (users.length !== 1) return users.length;
      const user = users[0]!;
      await tx
        .updateTable('users')
        .set({ password_hash: digest, password_changed_at: now })
        .where('id', '=', user.id)
        .execute();
      await tx.deleteFrom('sign_in_failures').where('email', '=', normalizeEmail(user.email)).execute();
      return user.email;
    });
    if (typeof found === 'number') {
      console.error(
        found
          ? 'Several studios have owners; name the person with --email.'
          : `No person has the email ${opts.email} here; check it (studio serve creates the demo studio).`,
      );
      process.exitCode = 2;
      return;
    }
    if (generate) console.log(password);
    console.error(
      `Password set for ${found}${generate ? ' (shown once above; keep it safe)' : ''}. They can sign in at /login and where an MCP client connects over OAuth; their sessions have ended.`,
    );
  } finally {
    await store.close();
  }
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
