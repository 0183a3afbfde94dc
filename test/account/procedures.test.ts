import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { http, trpc, type Trpc } from '../helpers/clients.js';
import { callAction, refusal } from '../helpers/calls.js';
import { demoMembers, type Member } from '../helpers/fixtures.js';
import { ROLE_PERMISSIONS, STUDIO_PERMISSIONS } from '../../src/core/permissions.js';
import { sha256 } from '../../src/core/ids.js';

let app: TestApp;
let owner: Trpc;
let admin: Member;
let assistant: Member;
let viewer: Member;

openTestApp((opened) => ({ app, owner } = opened));
beforeAll(async () => {
  // Members first: the fixture adds them to the database's first studio, before any test creates another.
  ({ admin, assistant, viewer } = await demoMembers(app, ['admin', 'assistant', 'viewer']));
});

const db = () => app.rt.store.db;
const demoStudioId = async () => (await owner.studio.getStudio.query({})).id;

describe('get_current_user', () => {
  it('says who the token acts for: user, studio, role, permissions and interface state', async () => {
    const me = await owner.account.getCurrentUser.query({});
    expect(me).toMatchObject({
      email: 'alex@hartley-rowe.example',
      name: 'Alex Hartley',
      studio: { id: await demoStudioId(), name: 'Hartley & Rowe Interiors' },
      role: 'owner',
      interfaceState: { firstRunCompletedAt: null },
    });
    expect(me.permissions).toEqual([...STUDIO_PERMISSIONS]);
    const tokens = await owner.account.listApiTokens.query({});
    expect(tokens.items.find((t) => t.current)?.id).toBe(me.currentTokenId);
  });

  it('shows the first-run time once it is recorded, and the sidebar with its version', async () => {
    const { firstRunCompletedAt: at } = await owner.interface.completeFirstRun.mutate({});
    const { interfaceState } = await owner.account.getCurrentUser.query({});
    expect(interfaceState.firstRunCompletedAt).toBe(at);
    expect(interfaceState.sidebar).toMatchObject({ collapsed: false, pinnedProjectIds: [], version: 1 });
  });

  it("lists only the role's permissions, the same over MCP", async () => {
    const me = await trpc(app.url, assistant.token).account.getCurrentUser.query({});
    expect(me.role).toBe('assistant');
    expect(me.memberId).toBe(assistant.memberId);
    expect(me.permissions).toEqual(STUDIO_PERMISSIONS.filter((p) => ROLE_PERMISSIONS.assistant.includes(p)));
    expect(me.permissions).not.toContain('pricing:read');
    const { result } = await callAction(await app.mcp(assistant.token), 'get_current_user', {});
    expect(result).toEqual(me);
  });

  it('answers 401 without a valid token', async () => {
    const r = await http(app.url, 'GET', `/api/trpc/account.getCurrentUser?input=${encodeURIComponent('{}')}`, {
      token: 'studio_not-a-real-token',
    });
    expect(r.status).toBe(401);
    expect(r.body.error.data.serviceCode).toBe('UNAUTHENTICATED');
  });
});

describe('create_studio and list_my_studios', () => {
  let secret: string;
  let newStudioId: string;

  it('lists the one studio at first', async () => {
    const mine = await owner.account.listMyStudios.query({});
    expect(mine.items).toHaveLength(1);
    expect(mine.items[0]).toMatchObject({ studioId: await demoStudioId(), role: 'owner', current: true });
    expect(mine.nextCursor).toBeNull();
  });

  it('creates a tenant with default units, owned by the caller, with a token for it shown once', async () => {
    const me = await owner.account.getCurrentUser.query({});
    const out = await owner.account.createStudio.mutate({
      name: 'Hartley Contract',
      currency: 'EUR',
      codePrefix: 'HC',
      commandKey: 'c0ffee00-0000-4000-8000-000000000001',
    });
    expect(out.studio.name).toBe('Hartley Contract');
    expect(out.studio.owner).toEqual({ memberId: out.membership.memberId, name: 'Alex Hartley' });
    expect(out.membership.role).toBe('owner');
    expect(out.ownerTokenSecret).toMatch(/^studio_/);
    expect(out.ownerToken.hint).toBe(out.ownerTokenSecret!.slice(-4));
    secret = out.ownerTokenSecret!;
    newStudioId = out.studio.id;

    // The secret acts as the same person in the new studio, as its owner.
    const there = trpc(app.url, secret);
    const meThere = await there.account.getCurrentUser.query({});
    expect(meThere).toMatchObject({ id: me.id, studio: { id: newStudioId, name: 'Hartley Contract' }, role: 'owner' });
    const settings = await there.studio.getStudioSettings.query({});
    expect(settings).toMatchObject({ currency: 'EUR', codeFormat: { prefix: 'HC' }, taxRate: { ratio4: '0' } });
    expect(settings.units.length).toBeGreaterThanOrEqual(6);
    expect(settings.units.map((u) => u.id)).toContain(settings.defaultUnitId);

    // The new studio's hash chain starts with its creation; the old one records the act too.
    const chain = await db()
      .selectFrom('audit_events')
      .select(['seq', 'action'])
      .where('studio_id', '=', newStudioId)
      .execute();
    expect(chain).toEqual([{ seq: 1, action: 'create_studio' }]);
    const here = await db()
      .selectFrom('audit_events')
      .select('target_id')
      .where('studio_id', '=', me.studio.id)
      .where('action', '=', 'create_studio')
      .execute();
    expect(here).toEqual([{ target_id: newStudioId }]);
    // Stored as a digest only.
    const stored = await db()
      .selectFrom('api_tokens')
      .select('token_hash')
      .where('id', '=', out.ownerToken.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(sha256(secret));
  });

  it('replays the same studio for the same commandKey, without the secret, and keeps no copy of it', async () => {
    const again = await owner.account.createStudio.mutate({
      name: 'Hartley Contract',
      currency: 'EUR',
      codePrefix: 'HC',
      commandKey: 'c0ffee00-0000-4000-8000-000000000001',
    });
    expect(again.studio.id).toBe(newStudioId);
    expect(again.ownerTokenSecret).toBeNull();
    const count = await db()
      .selectFrom('studios')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(2);
    const records = await db()
      .selectFrom('idempotency_records')
      .select('response')
      .where('action', '=', 'create_studio')
      .execute();
    expect(records.length).toBe(1);
    expect(records[0]!.response).not.toContain(secret);
    const reused = await refusal(
      owner.account.createStudio.mutate({
        name: 'Something else',
        currency: 'EUR',
        commandKey: 'c0ffee00-0000-4000-8000-000000000001',
      }),
    );
    expect(reused.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('lists both studios with the role in each, by name', async () => {
    const mine = await owner.account.listMyStudios.query({});
    expect(mine.items.map((s) => [s.name, s.role, s.current])).toEqual([
      ['Hartley & Rowe Interiors', 'owner', true],
      ['Hartley Contract', 'owner', false],
    ]);
    const firstPage = await owner.account.listMyStudios.query({ limit: 1 });
    expect(firstPage.items).toHaveLength(1);
    const second = await owner.account.listMyStudios.query({ limit: 1, cursor: firstPage.nextCursor! });
    expect(second.items.map((s) => s.studioId)).toEqual([newStudioId]);
    expect(second.nextCursor).toBeNull();
    // From the new studio's token the same user sees the same list, with the other one current.
    const fromThere = await trpc(app.url, secret).account.listMyStudios.query({});
    expect(fromThere.items.find((s) => s.current)?.studioId).toBe(newStudioId);
  });

  it('is open to any member (self), over MCP too; another member sees only their own studios', async () => {
    const { result } = await callAction(await app.mcp(viewer.token), 'create_studio', {
      commandKey: crypto.randomUUID(),
      name: 'Viewer Studio',
      currency: 'GBP',
    });
    expect(result.membership.role).toBe('owner');
    const viewerStudios = await trpc(app.url, viewer.token).account.listMyStudios.query({});
    expect(viewerStudios.items.map((s) => [s.name, s.role])).toEqual([
      ['Hartley & Rowe Interiors', 'viewer'],
      ['Viewer Studio', 'owner'],
    ]);
    expect((await owner.account.listMyStudios.query({})).items.map((s) => s.name)).not.toContain('Viewer Studio');
  });

  it('validates its input', async () => {
    expect(
      (
        await refusal(
          owner.account.createStudio.mutate({ commandKey: crypto.randomUUID(), name: 'X', currency: 'XYZ' as never }),
        )
      ).code,
    ).toBe('VALIDATION_FAILED');
    expect(
      (await refusal(owner.account.createStudio.mutate({ commandKey: crypto.randomUUID(), name: '', currency: 'GBP' })))
        .code,
    ).toBe('VALIDATION_FAILED');
    expect(
      (
        await refusal(
          owner.account.createStudio.mutate({
            commandKey: crypto.randomUUID(),
            name: 'X',
            currency: 'GBP',
            codePrefix: 'hc',
          }),
        )
      ).code,
    ).toBe('VALIDATION_FAILED');
  });
});

describe('API tokens', () => {
  it("lists only the caller's own tokens in this studio, never a secret or digest", async () => {
    const list = await owner.account.listApiTokens.query({});
    const ids = list.items.map((t) => t.id);
    const own = await db()
      .selectFrom('api_tokens')
      .select('id')
      .where('member_id', '=', (await owner.account.getCurrentUser.query({})).memberId)
      .execute();
    expect(ids.sort()).toEqual(own.map((r) => r.id).sort());
    const adminTokens = await db()
      .selectFrom('api_tokens')
      .select('id')
      .where('member_id', '=', admin.memberId)
      .execute();
    for (const t of adminTokens) expect(ids).not.toContain(t.id);
    for (const t of list.items)
      expect(Object.keys(t).sort()).toEqual([
        'createdAt',
        'current',
        'expiresAt',
        'hint',
        'id',
        'name',
        'revokedAt',
        'state',
      ]);
    expect(JSON.stringify(list)).not.toContain(app.token);
  });

  it('creates a working token, shows its secret once, and replays without it', async () => {
    const out = await owner.account.createApiToken.mutate({
      name: 'Claude desktop',
      expiresInDays: 30,
      commandKey: 'c0ffee00-0000-4000-8000-000000000002',
    });
    expect(out.secret).toMatch(/^studio_/);
    expect(out.token).toMatchObject({
      name: 'Claude desktop',
      hint: out.secret!.slice(-4),
      revokedAt: null,
      state: 'active',
      current: false,
    });
    const days = (Date.parse(out.token.expiresAt!) - Date.parse(out.token.createdAt)) / 86_400_000;
    expect(days).toBe(30);
    const me = await trpc(app.url, out.secret!).account.getCurrentUser.query({});
    expect(me.currentTokenId).toBe(out.token.id);

    const replay = await owner.account.createApiToken.mutate({
      name: 'Claude desktop',
      expiresInDays: 30,
      commandKey: 'c0ffee00-0000-4000-8000-000000000002',
    });
    expect(replay.token.id).toBe(out.token.id);
    expect(replay.secret).toBeNull();
    const listed = (await owner.account.listApiTokens.query({})).items.filter((t) => t.name === 'Claude desktop');
    expect(listed).toHaveLength(1);
  });

  it('validates name and expiry', async () => {
    expect(
      (await refusal(owner.account.createApiToken.mutate({ commandKey: crypto.randomUUID(), name: ' ' }))).code,
    ).toBe('VALIDATION_FAILED');
    expect(
      (
        await refusal(
          owner.account.createApiToken.mutate({ commandKey: crypto.randomUUID(), name: 'x', expiresInDays: 0 }),
        )
      ).code,
    ).toBe('VALIDATION_FAILED');
    expect(
      (
        await refusal(
          owner.account.createApiToken.mutate({ commandKey: crypto.randomUUID(), name: 'x', expiresInDays: 1.5 }),
        )
      ).code,
    ).toBe('VALIDATION_FAILED');
  });

  it('revokes a token: the next request with it answers 401 UNAUTHENTICATED', async () => {
    const { token, secret } = await owner.account.createApiToken.mutate({
      commandKey: crypto.randomUUID(),
      name: 'Short-lived',
    });
    const other = trpc(app.url, secret!);
    expect((await other.account.getCurrentUser.query({})).currentTokenId).toBe(token.id);
    const revoked = await owner.account.revokeApiToken.mutate({ tokenId: token.id });
    expect(revoked).toMatchObject({ id: token.id, state: 'revoked' });
    expect(revoked.revokedAt).not.toBeNull();
    expect(await refusal(other.account.getCurrentUser.query({}))).toEqual({ code: 'UNAUTHENTICATED', status: 401 });
    const raw = await http(app.url, 'GET', `/api/trpc/account.getCurrentUser?input=${encodeURIComponent('{}')}`, {
      token: secret!,
    });
    expect(raw.status).toBe(401);

    // A second revocation changes nothing.
    const again = await owner.account.revokeApiToken.mutate({ tokenId: token.id });
    expect(again.revokedAt).toBe(revoked.revokedAt);
  });

  it("answers NOT_FOUND for someone else's token, and leaves it working", async () => {
    const adminToken = await db()
      .selectFrom('api_tokens')
      .select('id')
      .where('member_id', '=', admin.memberId)
      .executeTakeFirstOrThrow();
    expect(await refusal(owner.account.revokeApiToken.mutate({ tokenId: adminToken.id }))).toEqual({
      code: 'NOT_FOUND',
      status: 404,
    });
    expect(await refusal(owner.account.revokeApiToken.mutate({ tokenId: '0000000000000000000000000z' }))).toEqual({
      code: 'NOT_FOUND',
      status: 404,
    });
    expect((await trpc(app.url, admin.token).account.getCurrentUser.query({})).role).toBe('admin');
  });

  it("does not reach the same user's token in another studio", async () => {
    const created = await owner.account.createStudio.mutate({
      commandKey: crypto.randomUUID(),
      name: 'Third Studio',
      currency: 'GBP',
    });
    expect(await refusal(owner.account.revokeApiToken.mutate({ tokenId: created.ownerToken.id }))).toEqual({
      code: 'NOT_FOUND',
      status: 404,
    });
    expect((await owner.account.listApiTokens.query({})).items.map((t) => t.id)).not.toContain(created.ownerToken.id);
  });

  it('over MCP: create, list and revoke the token in use, after which the connection is refused', async () => {
    const created = await trpc(app.url, assistant.token).account.createApiToken.mutate({
      commandKey: crypto.randomUUID(),
      name: 'Agent',
    });
    const client = await app.mcp(created.secret!);
    const listed = await callAction(client, 'list_api_tokens', {});
    expect(listed.result.items.find((t: { current: boolean }) => t.current).id).toBe(created.token.id);
    const revoked = await callAction(client, 'revoke_api_token', { tokenId: created.token.id });
    expect(revoked.result).toMatchObject({ id: created.token.id, state: 'revoked', current: true });
    const next = await callAction(client, 'get_current_user', {});
    expect(next.error?.code).toBe('UNAUTHENTICATED');
    // The member's other token is untouched.
    expect((await trpc(app.url, assistant.token).account.getCurrentUser.query({})).role).toBe('assistant');
  });

  it('lets a member revoke the very token of the request', async () => {
    const { secret } = await trpc(app.url, viewer.token).account.createApiToken.mutate({
      commandKey: crypto.randomUUID(),
      name: 'Self-revoking',
    });
    const self = trpc(app.url, secret!);
    const me = await self.account.getCurrentUser.query({});
    const revoked = await self.account.revokeApiToken.mutate({ tokenId: me.currentTokenId });
    expect(revoked.current).toBe(true);
    expect(await refusal(self.account.listApiTokens.query({}))).toEqual({ code: 'UNAUTHENTICATED', status: 401 });
  });
});
