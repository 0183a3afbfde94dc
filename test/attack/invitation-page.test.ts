/**
 * An invitation's page (issue 29, item 7) is the same whether or not the invited address already has an account: an
 * inviter who opens the link learns nothing about the address from it. Both kinds of person still join through it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, nowIso } from '../../src/core/ids.js';
import { hashPassword } from '../../src/domain/people/passwords.js';
import type { Trpc } from '../helpers/clients.js';
import { fromOutside } from '../helpers/fixtures.js';
import { createTestAppAsOwner, type TestApp } from '../helpers/in-process.js';
import { getPage, postForm } from '../members/page-client.js';

let app: TestApp;
let owner: Trpc;
const PASSWORD = 'an existing long password';

beforeAll(async () => {
  ({ app, owner } = await createTestAppAsOwner());
});
afterAll(async () => app?.close());

/** Someone with an account (and a password) on this server, in no studio the owner knows of. */
async function existingPerson(): Promise<string> {
  const email = `known-${newId()}@example.com`;
  const passwordHash = await hashPassword(PASSWORD);
  await fromOutside(app.database, (db) =>
    db
      .insertInto('users')
      .values({
        id: newId(),
        email,
        name: 'Known Person',
        created_at: nowIso(),
        password_hash: passwordHash,
        password_changed_at: nowIso(),
      })
      .execute(),
  );
  return email;
}

async function invite(email: string): Promise<string> {
  const made = await owner.invitations.createInvitation.mutate({
    email,
    role: 'designer',
    commandKey: crypto.randomUUID(),
  });
  return made.url!;
}

/** A page with what differs by design (the address, the form's token) taken out. */
const normalised = (html: string, email: string) =>
  html.replaceAll(email, '[email]').replace(/name="form_token" value="[^"]+"/g, 'name="form_token" value="[token]"');

describe("an invitation's page", () => {
  it('is the same for an address with an account and one without', async () => {
    const known = await existingPerson();
    const unknown = `new-${newId()}@example.com`;
    const [a, b] = await Promise.all([getPage(await invite(known)), getPage(await invite(unknown))]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(normalised(a.html, known)).toBe(normalised(b.html, unknown));
    expect(a.html).not.toContain('already have an account with this address: sign in');
  });

  it('lets a person with an account join with its password alone, and a new person with a name and a password', async () => {
    const known = await existingPerson();
    const url = await invite(known);
    const page = await getPage(url);
    const joined = await postForm(url, { form_token: page.formToken!, password: PASSWORD }, page.cookies);
    expect(joined.status, joined.html.slice(0, 500)).toBe(303);
    expect(joined.location).toBe('/login');

    const fresh = await invite(`new-${newId()}@example.com`);
    const other = await getPage(fresh);
    const made = await postForm(
      fresh,
      {
        form_token: other.formToken!,
        name: 'Robin Ames',
        password: 'a long new password',
        password_again: 'a long new password',
      },
      other.cookies,
    );
    expect(made.status, made.html.slice(0, 500)).toBe(303);
  });
});
