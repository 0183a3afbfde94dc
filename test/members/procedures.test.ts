/**
 * Members and invitations through the typed tRPC client and MCP call_action, on the real server: listing and reading
 * members, roles, the one-owner rule, removal and leaving cutting access at once (the next request with any of their
 * tokens is 401 over HTTP, their grants gone), invitations shown once when no email is configured, accepted by a
 * person with an account through accept_invitation (a token for the studio joined, the acceptance in that studio's
 * feed), resend rotating the link, revoke closing it, one refusal for every link that does not work, and the
 * sign-in throttle holding against guesses sent side by side.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS } from '../../src/core/permissions.js';
import { hashPassword } from '../../src/domain/people/passwords.js';
import { checkSignIn, FAILURES_BEFORE_LOCK } from '../../src/domain/people/sign-in.js';
import { callAction, codeOf, refusal } from '../helpers/calls.js';
import { http, type Trpc, trpc } from '../helpers/clients.js';
import { uuid } from '../helpers/ids.js';
import { addMembership, demoMembers, fromOutside, type Member, studioOfTheirOwn } from '../helpers/fixtures.js';
import { type TestApp, openTestApp } from '../helpers/in-process.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let admin: Member;
let designer: Member;
let assistant: Member;
let viewer: Member;
let designerEmail: string;

openTestApp((opened) => ({ app, owner } = opened));
beforeAll(async () => {
  ({ admin, designer, assistant, viewer } = await demoMembers(app, ['admin', 'designer', 'assistant', 'viewer']));
  mcp = await app.mcp();
  designerEmail = await emailOf(designer);
});

/** A request with a token over plain HTTP: what "their next request" is. */
const projectsWith = (token: string) => http(app.url, 'GET', '/v1/projects', { token });
const emailOf = async (m: Member) => (await trpc(app.url, m.token).account.getCurrentUser.query({})).email;

describe('members', () => {
  it('lists the active members by name, the same over MCP, with you marked', async () => {
    const list = await owner.members.listStudioMembers.query({});
    expect(list.items.map((m) => m.role).sort()).toEqual(['admin', 'assistant', 'designer', 'owner', 'viewer']);
    expect(list.items.map((m) => m.name)).toEqual([...list.items.map((m) => m.name)].sort());
    const me = list.items.find((m) => m.you)!;
    expect(me).toMatchObject({
      name: 'Alex Hartley',
      email: 'alex@hartley-rowe.example',
      role: 'owner',
      state: 'active',
    });
    const { result } = await callAction(mcp, 'list_studio_members', {});
    expect(result).toEqual(list);
    expect((await owner.members.listStudioMembers.query({ role: 'designer' })).items).toHaveLength(1);
    expect((await owner.members.listStudioMembers.query({ q: 'HARTLEY' })).items.map((m) => m.id)).toEqual([me.id]);
    expect(await owner.members.getStudioMember.query({ memberId: designer.memberId })).toMatchObject({
      id: designer.memberId,
      role: 'designer',
      you: false,
    });
  });

  it('lists the roles with their permissions, who may be given them, and how many hold them', async () => {
    const { roles } = await trpc(app.url, admin.token).members.listMemberRoles.query({});
    expect(roles.map((r) => [r.role, r.assignable, r.activeMembers])).toEqual([
      ['owner', false, 1],
      ['admin', true, 1],
      ['designer', true, 1],
      ['assistant', true, 1],
      ['viewer', true, 1],
    ]);
    expect(roles.find((r) => r.role === 'assistant')!.permissions).toEqual([...ROLE_PERMISSIONS.assistant]);
  });

  it('is workspace:manage: a designer may not list members or invite', async () => {
    const d = trpc(app.url, designer.token);
    expect(await refusal(d.members.listStudioMembers.query({}))).toEqual({ code: 'FORBIDDEN', status: 403 });
    expect(
      await codeOf(
        d.invitations.createInvitation.mutate({ email: 'x@example.com', role: 'viewer', commandKey: uuid() }),
      ),
    ).toBe('FORBIDDEN');
  });

  it("changes a member's role, which their very next request acts with", async () => {
    const v = trpc(app.url, viewer.token);
    expect((await v.account.getCurrentUser.query({})).permissions).not.toContain('projects:write');
    const changed = await trpc(app.url, admin.token).members.updateMemberRole.mutate({
      memberId: viewer.memberId,
      role: 'assistant',
    });
    expect(changed.role).toBe('assistant');
    expect((await v.account.getCurrentUser.query({})).role).toBe('assistant');
    // The same role again changes nothing, and records nothing.
    const before = await owner.audit.listStudioAuditEvents.query({ limit: 1 });
    await owner.members.updateMemberRole.mutate({ memberId: viewer.memberId, role: 'assistant' });
    expect(await owner.audit.listStudioAuditEvents.query({ limit: 1 })).toEqual(before);
    await owner.members.updateMemberRole.mutate({ memberId: viewer.memberId, role: 'viewer' });
  });

  it('keeps exactly one owner: not demoted, not removed, not leaving, and nobody made owner but by transfer', async () => {
    const a = trpc(app.url, admin.token);
    const ownerId = (await owner.account.getCurrentUser.query({})).memberId;
    expect(await refusal(a.members.updateMemberRole.mutate({ memberId: ownerId, role: 'admin' }))).toEqual({
      code: 'OWNERSHIP_TRANSFER_REQUIRED',
      status: 409,
    });
    expect(await codeOf(a.members.removeStudioMember.mutate({ memberId: ownerId, confirm: true }))).toBe(
      'OWNERSHIP_TRANSFER_REQUIRED',
    );
    const left = await callAction(mcp, 'leave_studio', { confirm: true });
    expect(left.code).toBe('OWNERSHIP_TRANSFER_REQUIRED');
    expect(left.error?.nextStep).toMatch(/transfer_studio_ownership/);
    const promote = await callAction(mcp, 'update_member_role', { memberId: admin.memberId, role: 'owner' });
    expect(promote.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(promote.error)).toMatch(/transfer_studio_ownership/);
    const owners = (await owner.members.listStudioMembers.query({ role: 'owner' })).items;
    expect(owners.map((m) => m.id)).toEqual([ownerId]);
  });

  it('removes a member only once the person confirms; their tokens are refused 401 at once and their grants go', async () => {
    const before = await projectsWith(designer.token);
    expect(before.status).toBe(200);
    expect(before.body.items).toHaveLength(1);
    const unconfirmed = await callAction(mcp, 'remove_studio_member', { memberId: designer.memberId });
    expect(unconfirmed.code).toBe('CONFIRMATION_REQUIRED');
    expect((await projectsWith(designer.token)).status).toBe(200);

    const removed = await owner.members.removeStudioMember.mutate({ memberId: designer.memberId, confirm: true });
    expect(removed).toMatchObject({ tokensRevoked: 1, grantsRemoved: 1, member: { state: 'removed' } });
    const after = await projectsWith(designer.token);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('UNAUTHENTICATED');
    expect(await codeOf(trpc(app.url, designer.token).account.getCurrentUser.query({}))).toBe('UNAUTHENTICATED');
    const grants = await owner.projects.listProjectGrants.query({ projectId: app.projectId });
    expect(grants.items.map((g) => g.memberId)).not.toContain(designer.memberId);
    // Still readable, as removed; listed with state removed; removing again changes nothing.
    expect((await owner.members.getStudioMember.query({ memberId: designer.memberId })).removedAt).not.toBeNull();
    expect((await owner.members.listStudioMembers.query({ state: 'removed' })).items.map((m) => m.id)).toEqual([
      designer.memberId,
    ]);
    expect(await owner.members.removeStudioMember.mutate({ memberId: designer.memberId, confirm: true })).toMatchObject(
      {
        tokensRevoked: 0,
      },
    );
    expect(await codeOf(owner.members.updateMemberRole.mutate({ memberId: designer.memberId, role: 'viewer' }))).toBe(
      'NOT_FOUND',
    );
  });

  it('lets a member leave once confirmed; the token that asked is refused on its next request', async () => {
    const mine = await callAction(await app.mcp(assistant.token), 'leave_studio', { confirm: true });
    expect(mine.result).toMatchObject({ member: { id: assistant.memberId, state: 'removed', you: true } });
    expect((await projectsWith(assistant.token)).status).toBe(401);
  });
});

describe('invitations without email: the link is shown once', () => {
  let invitationId: string;
  let link: { token: string; url: string };

  it('invites an address with a role; the answer carries the link, a replay does not', async () => {
    const commandKey = uuid();
    const made = await owner.invitations.createInvitation.mutate({
      email: 'Sam.Taylor@Example.com',
      role: 'designer',
      expiresInDays: 3,
      commandKey,
    });
    expect(made).toMatchObject({
      email: 'sam.taylor@example.com',
      role: 'designer',
      state: 'pending',
      delivery: 'link',
      emailStatus: null,
      invitedBy: { name: 'Alex Hartley' },
    });
    expect(made.token).toMatch(/^invite_[\w-]{43}$/);
    expect(made.url).toBe(`${app.url}/invitations/${made.token}`);
    expect(made.tokenHint).toBe(made.token!.slice(-4));
    expect(Date.parse(made.expiresAt) - Date.parse(made.issuedAt)).toBe(3 * 24 * 3600 * 1000);
    invitationId = made.id;
    link = { token: made.token!, url: made.url! };
    const replay = await owner.invitations.createInvitation.mutate({
      email: 'Sam.Taylor@Example.com',
      role: 'designer',
      expiresInDays: 3,
      commandKey,
    });
    expect(replay).toMatchObject({ id: made.id, token: null, url: null });
    // The digest only is kept.
    const stored = await fromOutside(app.database, (db) =>
      db.selectFrom('invitations').select('token_hash').where('id', '=', made.id).executeTakeFirstOrThrow(),
    );
    expect(stored.token_hash).not.toContain(link.token);
  });

  it('refuses a second invitation to the same address and one to a member', async () => {
    const again = await callAction(mcp, 'create_invitation', {
      email: 'sam.taylor@example.com',
      role: 'viewer',
      commandKey: uuid(),
    });
    expect(again.code).toBe('INVITATION_PENDING');
    expect(
      await codeOf(
        owner.invitations.createInvitation.mutate({ email: await emailOf(admin), role: 'viewer', commandKey: uuid() }),
      ),
    ).toBe('ALREADY_MEMBER');
    const ownerInvite = await callAction(mcp, 'create_invitation', {
      email: 'o@example.com',
      role: 'owner',
      commandKey: uuid(),
    });
    expect(ownerInvite.code).toBe('VALIDATION_FAILED');
  });

  it('lists them by state, never with a link', async () => {
    const pending = await owner.invitations.listInvitations.query({ state: 'pending' });
    expect(pending.items.map((i) => i.id)).toEqual([invitationId]);
    expect(JSON.stringify(pending)).not.toContain(link.token);
    expect((await owner.invitations.listInvitations.query({ state: 'accepted' })).items).toEqual([]);
  });

  it('resends with a new link; the old one no longer works', async () => {
    const again = await owner.invitations.resendInvitation.mutate({ invitationId, commandKey: uuid() });
    expect(again.token).not.toBe(link.token);
    expect(again.state).toBe('pending');
    const old = await fetch(link.url);
    expect(old.status).toBe(403);
    link = { token: again.token!, url: again.url! };
    expect((await fetch(link.url)).status).toBe(200);
  });

  it('revokes: the link stops, revoking again changes nothing, resending is refused', async () => {
    const revoked = await owner.invitations.revokeInvitation.mutate({ invitationId });
    expect(revoked.state).toBe('revoked');
    expect((await fetch(link.url)).status).toBe(403);
    expect(await owner.invitations.revokeInvitation.mutate({ invitationId })).toEqual(revoked);
    expect(await refusal(owner.invitations.resendInvitation.mutate({ invitationId, commandKey: uuid() }))).toEqual({
      code: 'INVITATION_CLOSED',
      status: 409,
    });
  });
});

describe('accept_invitation: a person with an account joins another studio', () => {
  let other: Trpc;
  let otherStudioId: string;
  let joinedToken: string;

  beforeAll(async () => {
    ({ them: other, studioId: otherStudioId } = await studioOfTheirOwn(app, owner, { name: 'Hartley Contract' }));
  });

  it('joins with the invited role and a token for the studio joined, shown once; recorded in that studio', async () => {
    const inv = await other.invitations.createInvitation.mutate({
      email: await emailOf(admin),
      role: 'viewer',
      commandKey: uuid(),
    });
    const commandKey = uuid();
    const { result } = await callAction(await app.mcp(admin.token), 'accept_invitation', {
      token: inv.token,
      commandKey,
    });
    expect(result).toMatchObject({
      studio: { id: otherStudioId, name: 'Hartley Contract' },
      member: { role: 'viewer', state: 'active', you: true },
      token: { state: 'active', current: false },
    });
    joinedToken = result.tokenSecret;
    const me = await trpc(app.url, joinedToken).account.getCurrentUser.query({});
    expect(me).toMatchObject({ studio: { id: otherStudioId }, role: 'viewer', memberId: result.member.id });
    // The admin's own token still acts in its own studio, as admin.
    expect((await trpc(app.url, admin.token).account.getCurrentUser.query({})).role).toBe('admin');
    // A retry with the same key answers the same membership without the secret.
    const replay = await trpc(app.url, admin.token).invitations.acceptInvitation.mutate({
      token: inv.token!,
      commandKey,
    });
    expect(replay.tokenSecret).toBeNull();
    expect(replay.member.id).toBe(result.member.id);
    // Used: one refusal, as for any link that does not work.
    const used = await refusal(
      trpc(app.url, admin.token).invitations.acceptInvitation.mutate({ token: inv.token!, commandKey: uuid() }),
    );
    const unknown = await trpc(app.url, admin.token)
      .invitations.acceptInvitation.mutate({ token: 'invite_nothing', commandKey: uuid() })
      .catch((e: { message: string; data: { serviceCode: string } }) => e);
    expect(used).toEqual({ code: 'FORBIDDEN', status: 403 });
    expect((unknown as { data: { serviceCode: string } }).data.serviceCode).toBe('FORBIDDEN');
    // The acceptance is in the joined studio's feed, by the new member; the admin's own studio recorded nothing of it.
    const feed = await other.audit.listStudioAuditEvents.query({ targetKind: 'member', verifyChain: true });
    expect(feed.chain?.intact).toBe(true);
    expect(feed.items[0]).toMatchObject({
      action: 'accept_invitation',
      target: { kind: 'member', id: result.member.id },
      actor: { kind: 'member', id: result.member.id, via: 'api_token' },
    });
    expect((await other.invitations.listInvitations.query({})).items[0]).toMatchObject({
      state: 'accepted',
      acceptedMemberId: result.member.id,
    });
    const home = await owner.audit.listStudioAuditEvents.query({ action: 'accept_invitation', verifyChain: true });
    expect(home.items).toEqual([]);
    expect(home.chain?.intact).toBe(true);
  });

  it('refuses an invitation for another address, and one for a member already', async () => {
    const inv = await other.invitations.createInvitation.mutate({
      email: 'someone.else@example.com',
      role: 'viewer',
      commandKey: uuid(),
    });
    const wrong = await callAction(await app.mcp(viewer.token), 'accept_invitation', {
      token: inv.token,
      commandKey: uuid(),
    });
    expect(wrong.code).toBe('FORBIDDEN');
    expect(wrong.error?.message).toMatch(/another email address/);
    // An address already a member cannot be invited; a member who is invited by a stale invitation is told so.
    expect(
      await codeOf(
        other.invitations.createInvitation.mutate({ email: await emailOf(admin), role: 'admin', commandKey: uuid() }),
      ),
    ).toBe('ALREADY_MEMBER');
  });

  it('brings a removed member back as the same member, with none of their old tokens working', async () => {
    const email = designerEmail;
    const inv = await owner.invitations.createInvitation.mutate({ email, role: 'assistant', commandKey: uuid() });
    // Removed from the demo studio, the designer holds a token only in another studio of theirs.
    const elsewhere = await tokenInStudio(otherStudioId, designer.userId);
    const back = await trpc(app.url, elsewhere).invitations.acceptInvitation.mutate({
      token: inv.token!,
      commandKey: uuid(),
    });
    expect(back.member).toMatchObject({ id: designer.memberId, role: 'assistant', state: 'active', removedAt: null });
    expect((await projectsWith(designer.token)).status).toBe(401);
    expect((await projectsWith(back.tokenSecret!)).status).toBe(200);
  });
});

/** A viewer's membership of `studioId` for a person, made straight in the database, and a token for it. */
const tokenInStudio = async (studioId: string, userId: string) =>
  (await fromOutside(app.database, (db) => addMembership(db, { studioId, userId, role: 'viewer' }))).token;

describe('the sign-in throttle', () => {
  it('checks no more than five guesses sent side by side, then refuses the address even with the right password', async () => {
    const email = await emailOf(viewer);
    const digest = await hashPassword('the right password');
    await fromOutside(app.database, (db) =>
      db.updateTable('users').set({ password_hash: digest }).where('email', '=', email).execute(),
    );
    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => checkSignIn(app.rt.store, email.toUpperCase(), `guess ${i}`)),
    );
    const reasons = guesses.map((g) => (g.ok ? 'ok' : g.reason));
    expect(reasons.filter((r) => r === 'invalid')).toHaveLength(FAILURES_BEFORE_LOCK);
    expect(reasons.filter((r) => r === 'locked')).toHaveLength(12 - FAILURES_BEFORE_LOCK);
    const right = await checkSignIn(app.rt.store, email, 'the right password');
    expect(right).toMatchObject({ ok: false, reason: 'locked' });
    // An unknown address answers as a wrong password does.
    expect(await checkSignIn(app.rt.store, 'nobody@example.com', 'whatever it is')).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });
});
