/**
 * Invitations when the server sends email, against a real SMTP server in this test process (smtp-server): the
 * invitation is emailed to the address (recipient, subject, the link), never shown in the answer; the link opens the
 * invitation's page, where a new person sets their name and password and becomes a member, signed in; a resend
 * sends a new link and the old one stops working; a mail server's refusal is recorded on the invitation.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type Trpc, trpc } from '../helpers/clients.js';
import { openTestApp, type TestApp } from '../helpers/in-process.js';
import { openMailServer } from '../helpers/mail.js';
import type { ParsedMail } from 'mailparser';
import { getPage, postForm } from './page-client.js';

/** Every message the server sends, and a way to wait for the next one (no timer: the message resolves it). */
const { mailNumber, env: mailEnv } = openMailServer();

let app: TestApp;
let owner: Trpc;

openTestApp((opened) => ({ app, owner } = opened), mailEnv);

/** The invitation once its email operation has ended. */
async function settled(id: string) {
  for (;;) {
    const inv = (await owner.invitations.listInvitations.query({})).items.find((i) => i.id === id)!;
    if (inv.emailStatus !== 'sending') return inv;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const linkIn = (mail: ParsedMail) => /(http:\/\/\S+\/invitations\/invite_[\w-]{43})/.exec(mail.text ?? '')?.[1];

describe('an invitation by email', () => {
  let invitationId: string;
  let firstLink: string;
  /** The cookies of Sam's browser once they joined. */
  let samBrowser: Map<string, string>;

  it('is emailed to the address with the link, which the answer never shows', async () => {
    const made = await owner.invitations.createInvitation.mutate({
      email: 'sam@example.com',
      role: 'designer',
      commandKey: randomUUID(),
    });
    expect(made).toMatchObject({ delivery: 'email', emailStatus: 'sending', token: null, url: null, tokenHint: null });
    invitationId = made.id;
    const { to, mail } = await mailNumber(1);
    expect(to).toEqual(['sam@example.com']);
    expect(mail.from?.text).toBe('"Hartley & Rowe" <studio@hartley-rowe.example>');
    expect(mail.subject).toBe('Alex Hartley invited you to Hartley & Rowe Interiors');
    expect(mail.text).toContain('Alex Hartley has invited you to join Hartley & Rowe Interiors as a designer.');
    firstLink = linkIn(mail)!;
    expect(firstLink.startsWith(`${app.url}/invitations/invite_`)).toBe(true);
    const sent = await settled(invitationId);
    expect(sent).toMatchObject({ emailStatus: 'sent', emailError: null, tokenHint: firstLink.slice(-4) });
    expect(sent.emailedAt).not.toBeNull();
  });

  it('is sent again with a new link; the first one stops working', async () => {
    await owner.invitations.resendInvitation.mutate({ invitationId, commandKey: randomUUID() });
    const { mail } = await mailNumber(2);
    const second = linkIn(mail)!;
    expect(second).not.toBe(firstLink);
    await settled(invitationId);
    expect((await getPage(firstLink)).status).toBe(403);
    firstLink = second;
  });

  it("opens the invitation's page, where a new person sets a name and password and joins, signed in", async () => {
    const page = await getPage(firstLink);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Join Hartley &amp; Rowe Interiors');
    expect(page.html).toContain('sam@example.com');
    const joined = await postForm(
      firstLink,
      {
        form_token: page.formToken!,
        name: 'Sam Taylor',
        password: 'a long new password',
        password_again: 'a long new password',
      },
      page.cookies,
    );
    expect(joined.status).toBe(303);
    expect(joined.location).toBe('/login');
    samBrowser = new Map(joined.cookies);
    const signedIn = await getPage(`${app.url}/login`, joined.cookies);
    expect(signedIn.html).toContain('Signed in as Sam Taylor');
    expect(signedIn.html).toContain('Hartley &amp; Rowe Interiors');

    const members = await owner.members.listStudioMembers.query({ q: 'sam@example.com' });
    expect(members.items).toEqual([expect.objectContaining({ name: 'Sam Taylor', role: 'designer', state: 'active' })]);
    const inv = await settled(invitationId);
    expect(inv).toMatchObject({ state: 'accepted', acceptedMemberId: members.items[0]!.id });
    // Used once: the link is refused from now on.
    expect((await getPage(firstLink)).status).toBe(403);
    const feed = await owner.audit.listStudioAuditEvents.query({ action: 'accept_invitation', verifyChain: true });
    expect(feed.items[0]!.actor).toMatchObject({ id: members.items[0]!.id, via: 'web' });
    expect(feed.chain?.intact).toBe(true);
  });

  it('takes the password of someone who already has an account, on the one form everyone sees, and joins them', async () => {
    const made = await owner.account.createStudio.mutate({
      name: 'Hartley Contract',
      currency: 'GBP',
      commandKey: randomUUID(),
    });
    const other = trpc(app.url, made.ownerTokenSecret!);
    await other.invitations.createInvitation.mutate({
      email: 'SAM@example.com',
      role: 'viewer',
      commandKey: randomUUID(),
    });
    const link = linkIn((await mailNumber(3)).mail)!;
    const page = await getPage(link);
    // The same form a new person gets (test/attack/invitation-page.test.ts): the page does not tell the account apart.
    expect(page.html).toContain('Already have an account with this address? Type its password');
    expect(page.html).toContain('Choose a password');
    const wrong = await postForm(link, { form_token: page.formToken!, password: 'not the password' }, page.cookies);
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('That password is not right.');
    const right = await postForm(
      link,
      { form_token: wrong.formToken!, password: 'a long new password' },
      wrong.cookies,
    );
    expect(right.status).toBe(303);
    const signedIn = await getPage(`${app.url}/login`, right.cookies);
    expect(signedIn.html).toContain('Hartley Contract');
    expect((await other.members.listStudioMembers.query({ role: 'viewer' })).items[0]).toMatchObject({
      name: 'Sam Taylor',
      email: 'sam@example.com',
    });
  });

  it('gives a browser that was signed in already a new session, ending the one it brought', async () => {
    const made = await owner.account.createStudio.mutate({
      name: 'Hartley Workshop',
      currency: 'GBP',
      commandKey: randomUUID(),
    });
    await trpc(app.url, made.ownerTokenSecret!).invitations.createInvitation.mutate({
      email: 'sam@example.com',
      role: 'designer',
      commandKey: randomUUID(),
    });
    const link = linkIn((await mailNumber(4)).mail)!;
    const brought = new Map(samBrowser);
    const page = await getPage(link, new Map(brought));
    expect(page.html).toContain('You are signed in as Sam Taylor.');
    const joined = await postForm(link, { form_token: page.formToken! }, page.cookies);
    expect(joined.status).toBe(303);
    const [name, before] = [...brought].find(([k]) => /session/.test(k))!;
    expect(joined.cookies.get(name)).toBeDefined();
    expect(joined.cookies.get(name)).not.toBe(before);
    expect((await getPage(`${app.url}/login`, joined.cookies)).html).toContain('Hartley Workshop');
    // The session the browser brought is over: its cookie signs nobody in.
    expect((await getPage(`${app.url}/login`, brought)).html).not.toContain('Signed in as');
  });

  it("records the mail server's refusal on the invitation", async () => {
    const made = await owner.invitations.createInvitation.mutate({
      email: 'nobody@refused.example',
      role: 'viewer',
      commandKey: randomUUID(),
    });
    const inv = await settled(made.id);
    expect(inv.emailStatus).toBe('failed');
    expect(inv.emailError).toMatch(/mailbox unavailable/);
    expect(inv.state).toBe('pending');
  });
});
