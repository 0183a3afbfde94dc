import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { currentEtag, http, trpc, type Trpc } from '../helpers/clients.js';
import { callAction, refusal } from '../helpers/calls.js';
import { demoMembers, memberWithToken, type Member } from '../helpers/fixtures.js';
import { STUDIO_PERMISSIONS } from '../../src/core/permissions.js';

let app: TestApp;
let owner: Trpc;
let admin: Member;
let designer: Member;
let assistant: Member;
let viewer: Member;

openTestApp((opened) => ({ app, owner } = opened));
beforeAll(async () => {
  ({ admin, designer, assistant, viewer } = await demoMembers(app, ['admin', 'designer', 'assistant', 'viewer']));
});

const db = () => app.rt.store.db;
const studioRow = () => db().selectFrom('studios').selectAll().executeTakeFirstOrThrow();

describe('get_studio', () => {
  it("returns the caller's studio with its owner and version, to any member", async () => {
    const studio = await owner.studio.getStudio.query({});
    const row = await studioRow();
    expect(studio).toMatchObject({ id: row.id, name: 'Hartley & Rowe Interiors', version: row.version });
    expect(studio.owner?.name).toBe('Alex Hartley');
    const asViewer = await trpc(app.url, viewer.token).studio.getStudio.query({});
    expect(asViewer).toEqual(studio);
  });

  it('answers the same over MCP call_action', async () => {
    const { result } = await callAction(await app.mcp(viewer.token), 'get_studio', {});
    expect(result).toEqual(await owner.studio.getStudio.query({}));
  });

  it('refuses input it does not know', async () => {
    expect(await refusal(owner.studio.getStudio.query({ studioId: 'x' } as never))).toEqual({
      code: 'VALIDATION_FAILED',
      status: 400,
    });
  });
});

describe('get_studio_settings', () => {
  it('returns markup, currency, tax, units, code format and branding', async () => {
    const s = await owner.studio.getStudioSettings.query({});
    expect(s.defaultMarkup).toEqual({ ratio4: '3500' });
    expect(s.currency).toBe('GBP');
    expect(s.taxRate).toEqual({ ratio4: '0' });
    expect(s.codeFormat).toEqual({ prefix: 'FF', example: 'FF-001' });
    expect(s.branding).toEqual({ displayName: null, accentColour: '#1f2937', logoText: null });
    expect(s.units.map((u) => u.symbol).sort()).toEqual(['ea', 'm', 'm²', 'pr', 'roll', 'set']);
    expect(s.units.map((u) => u.id)).toContain(s.defaultUnitId);
    expect(s.version).toBe((await studioRow()).version);
  });

  it('leaves the default markup out (absent, not null) for a member without pricing:read', async () => {
    const s = await trpc(app.url, assistant.token).studio.getStudioSettings.query({});
    expect(s).not.toHaveProperty('defaultMarkup');
    expect(s.currency).toBe('GBP');
    const { result } = await callAction(await app.mcp(assistant.token), 'get_studio_settings', {});
    expect(result).not.toHaveProperty('defaultMarkup');
    expect(result.codeFormat.prefix).toBe('FF');
    const asDesigner = await trpc(app.url, designer.token).studio.getStudioSettings.query({});
    expect(asDesigner.defaultMarkup).toEqual({ ratio4: '3500' });
  });
});

describe('update_studio', () => {
  it('renames the studio with the current version and moves the version on', async () => {
    const before = await owner.studio.getStudio.query({});
    const after = await owner.studio.updateStudio.mutate({
      name: 'Hartley & Rowe Studio',
      expectedVersion: before.version,
    });
    expect(after.name).toBe('Hartley & Rowe Studio');
    expect(after.version).toBe(before.version + 1);
    expect((await studioRow()).name).toBe('Hartley & Rowe Studio');
    const event = await db()
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'update_studio')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.changes!)).toEqual({
      name: { from: 'Hartley & Rowe Interiors', to: 'Hartley & Rowe Studio' },
    });
  });

  it('refuses a stale version and changes nothing', async () => {
    const current = await owner.studio.getStudio.query({});
    const r = await refusal(owner.studio.updateStudio.mutate({ name: 'Stale', expectedVersion: current.version - 1 }));
    expect(r).toEqual({ code: 'VERSION_CONFLICT', status: 409 });
    expect((await owner.studio.getStudio.query({})).name).toBe(current.name);
  });

  it('needs expectedVersion', async () => {
    expect((await refusal(owner.studio.updateStudio.mutate({ name: 'No version' }))).code).toBe(
      'PRECONDITION_REQUIRED',
    );
  });

  it('is refused to members without workspace:manage', async () => {
    const { version } = await owner.studio.getStudio.query({});
    for (const m of [viewer, designer, assistant]) {
      const r = await refusal(
        trpc(app.url, m.token).studio.updateStudio.mutate({ name: 'Mine now', expectedVersion: version }),
      );
      expect(r).toEqual({ code: 'FORBIDDEN', status: 403 });
    }
    expect((await owner.studio.getStudio.query({})).version).toBe(version);
  });

  it('validates the name', async () => {
    const { version } = await owner.studio.getStudio.query({});
    expect((await refusal(owner.studio.updateStudio.mutate({ name: '   ', expectedVersion: version }))).code).toBe(
      'VALIDATION_FAILED',
    );
  });
});

describe('update_studio_settings', () => {
  it("changes only the settings given, shares the studio's version, and applies to new line codes", async () => {
    const adminApi = trpc(app.url, admin.token);
    const before = await adminApi.studio.getStudioSettings.query({});
    const metre = before.units.find((u) => u.symbol === 'm')!;
    const after = await adminApi.studio.updateStudioSettings.mutate({
      taxRate: { ratio4: '2000' },
      defaultMarkup: { ratio4: '4000' },
      defaultUnitId: metre.id,
      codeFormat: { prefix: 'HR' },
      branding: { accentColour: '#7A4B2A', displayName: 'Hartley & Rowe' },
      expectedVersion: before.version,
    });
    expect(after).toMatchObject({
      taxRate: { ratio4: '2000' },
      defaultMarkup: { ratio4: '4000' },
      currency: 'GBP',
      defaultUnitId: metre.id,
      codeFormat: { prefix: 'HR', example: 'HR-001' },
      branding: { accentColour: '#7a4b2a', displayName: 'Hartley & Rowe', logoText: null },
      version: before.version + 1,
    });
    expect((await owner.studio.getStudio.query({})).version).toBe(after.version);

    // Branding is patched field by field: clearing the display name leaves the colour alone.
    const cleared = await adminApi.studio.updateStudioSettings.mutate({
      branding: { displayName: null, logoText: 'H&R' },
      expectedVersion: after.version,
    });
    expect(cleared.branding).toEqual({ displayName: null, accentColour: '#7a4b2a', logoText: 'H&R' });

    const created = await http(app.url, 'POST', `/v1/projects/${app.projectId}/items`, {
      token: app.token,
      headers: { 'idempotency-key': 'c0ffee00-0000-4000-8000-000000000003' },
      body: { sectionId: await firstSectionId(), heading: 'Prefix check' },
    });
    expect(created.status).toBe(201);
    expect(created.body.code).toMatch(/^HR-\d{3}$/);
    expect(created.body.quantity.unitId).toBe(metre.id);
  });

  it('records the change in the audit feed, without the markup for those who cannot see pricing', async () => {
    const event = await db()
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'update_studio_settings')
      .orderBy('seq')
      .executeTakeFirstOrThrow();
    const changes = JSON.parse(event.changes!);
    expect(changes.taxRate).toEqual({ from: { ratio4: '0' }, to: { ratio4: '2000' } });
    expect(changes.defaultMarkup).toEqual({ from: { ratio4: '3500' }, to: { ratio4: '4000' } });
    expect(event.summary).not.toMatch(/markup/i);
  });

  it('works over MCP call_action and refuses a stale version there too', async () => {
    const client = await app.mcp();
    const s = await owner.studio.getStudioSettings.query({});
    const ok = await callAction(client, 'update_studio_settings', { currency: 'EUR', expectedVersion: s.version });
    expect(ok.result).toMatchObject({ currency: 'EUR', version: s.version + 1 });
    const stale = await callAction(client, 'update_studio_settings', { currency: 'USD', expectedVersion: s.version });
    expect(stale.error).toMatchObject({ code: 'VERSION_CONFLICT', currentVersion: s.version + 1 });
    expect((await owner.studio.getStudioSettings.query({})).currency).toBe('EUR');
  });

  it('refuses bad values, an empty patch and a foreign unit', async () => {
    const api = owner.studio.updateStudioSettings;
    const { version } = await owner.studio.getStudioSettings.query({});
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ taxRate: { ratio4: '-100' } }, 'VALIDATION_FAILED'],
      [{ taxRate: { ratio4: '10001' } }, 'VALIDATION_FAILED'],
      [{ taxRate: { ratio4: 0.2 } }, 'VALIDATION_FAILED'],
      [{ branding: { accentColour: 'red' } }, 'VALIDATION_FAILED'],
      [{ codeFormat: { prefix: 'ff-' } }, 'VALIDATION_FAILED'],
      [{ currency: 'XYZ' }, 'VALIDATION_FAILED'],
      [{}, 'VALIDATION_FAILED'],
      [{ branding: {} }, 'VALIDATION_FAILED'],
      [{ defaultUnitId: '0000000000000000000000000z' }, 'NOT_FOUND'],
    ];
    for (const [patch, code] of cases) {
      const r = await refusal(api.mutate({ ...patch, expectedVersion: version } as never));
      expect(r.code, JSON.stringify(patch)).toBe(code);
    }
    expect((await owner.studio.getStudioSettings.query({})).version).toBe(version);
  });

  it('refuses an archived unit as the default', async () => {
    const s = await owner.studio.getStudioSettings.query({});
    const roll = s.units.find((u) => u.symbol === 'roll')!;
    await db().updateTable('units').set({ archived_at: new Date().toISOString() }).where('id', '=', roll.id).execute();
    const r = await refusal(
      owner.studio.updateStudioSettings.mutate({ defaultUnitId: roll.id, expectedVersion: s.version }),
    );
    expect(r.code).toBe('VALIDATION_FAILED');
    const after = await owner.studio.getStudioSettings.query({});
    expect(after.units.map((u) => u.id)).not.toContain(roll.id);
    expect(after.version).toBe(s.version);
  });

  it('is refused to those without workspace:manage', async () => {
    const { version } = await owner.studio.getStudioSettings.query({});
    for (const m of [designer, viewer]) {
      const r = await refusal(
        trpc(app.url, m.token).studio.updateStudioSettings.mutate({
          taxRate: { ratio4: '0' },
          expectedVersion: version,
        }),
      );
      expect(r.code).toBe('FORBIDDEN');
    }
  });
});

async function firstSectionId(): Promise<string> {
  const row = await db()
    .selectFrom('sections')
    .select('id')
    .where('project_id', '=', app.projectId)
    .orderBy('position')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('list_studio_permissions', () => {
  it('lists the closed union with a sentence each, and the roles from the one definition', async () => {
    const cat = await trpc(app.url, viewer.token).studio.listStudioPermissions.query({});
    expect(cat.permissions.map((p) => p.name)).toEqual([...STUDIO_PERMISSIONS]);
    for (const p of cat.permissions) expect(p.description).toMatch(/^[A-Z].*\.$/);
    const roles = Object.fromEntries(cat.roles.map((r) => [r.role, r.permissions]));
    expect(Object.keys(roles)).toEqual(['owner', 'admin', 'designer', 'assistant', 'viewer']);
    expect(roles.owner).toContain('studio:own');
    expect(roles.admin).not.toContain('studio:own');
    expect(roles.admin).toContain('workspace:manage');
    expect(roles.assistant).not.toContain('pricing:read');
    expect(cat.grantLevels.map((g) => g.level)).toEqual(['view', 'edit']);
    const { result } = await callAction(await app.mcp(), 'list_studio_permissions', {});
    expect(result).toEqual(cat);
  });
});

describe('get_studio_usage', () => {
  it('counts projects, lines, members and tokens as integers, matching the database', async () => {
    const usage = await trpc(app.url, viewer.token).studio.getStudioUsage.query({});
    const count = async (q: Promise<{ n: unknown }>) => Number((await q).n);
    const activeLines = await count(
      db()
        .selectFrom('lines')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('archived_at', 'is', null)
        .executeTakeFirstOrThrow(),
    );
    expect(usage.projects).toEqual({ active: 1, archived: 0 });
    expect(usage.lines.active).toBe(activeLines);
    expect(usage.lines.archived).toBe(0);
    expect(usage.members.active).toBe(5);
    expect(usage.members.byRole).toEqual({ owner: 1, admin: 1, designer: 1, assistant: 1, viewer: 1 });
    expect(usage.apiTokens.active).toBe(5);
    for (const n of [usage.lines.active, usage.members.active, usage.apiTokens.active])
      expect(Number.isInteger(n)).toBe(true);
  });

  it('moves with archival and revocation', async () => {
    const before = await owner.studio.getStudioUsage.query({});
    const line = await db()
      .selectFrom('lines')
      .select(['id', 'version'])
      .where('project_id', '=', app.projectId)
      .where('archived_at', 'is', null)
      .executeTakeFirstOrThrow();
    const archived = await http(app.url, 'POST', `/v1/projects/${app.projectId}/items/${line.id}/archival`, {
      token: app.token,
      headers: { 'if-match': await currentEtag(app.url, app.token, `/v1/projects/${app.projectId}/items/${line.id}`) },
    });
    expect(archived.status).toBe(200);
    await db()
      .updateTable('api_tokens')
      .set({ revoked_at: new Date().toISOString() })
      .where('member_id', '=', viewer.memberId)
      .execute();
    const after = await owner.studio.getStudioUsage.query({});
    expect(after.lines).toEqual({ active: before.lines.active - 1, archived: before.lines.archived + 1 });
    expect(after.apiTokens.active).toBe(before.apiTokens.active - 1);
    const { result } = await callAction(await app.mcp(), 'get_studio_usage', {});
    expect(result.lines).toEqual(after.lines);
  });
});

describe('transfer_studio_ownership', () => {
  const roles = async () =>
    Object.fromEntries((await db().selectFrom('members').select(['id', 'role']).execute()).map((m) => [m.id, m.role]));

  it('is refused to an admin (no studio:own)', async () => {
    const r = await refusal(
      trpc(app.url, admin.token).studio.transferStudioOwnership.mutate({ memberId: admin.memberId, confirm: true }),
    );
    expect(r).toEqual({ code: 'FORBIDDEN', status: 403 });
  });

  it('without confirm: true answers CONFIRMATION_REQUIRED and changes nothing', async () => {
    const before = await roles();
    const version = (await studioRow()).version;
    for (const confirm of [undefined, false]) {
      const r = await refusal(
        owner.studio.transferStudioOwnership.mutate({
          memberId: admin.memberId,
          ...(confirm === undefined ? {} : { confirm }),
        }),
      );
      expect(r).toEqual({ code: 'CONFIRMATION_REQUIRED', status: 428 });
    }
    const viaMcp = await callAction(await app.mcp(), 'transfer_studio_ownership', { memberId: admin.memberId });
    expect(viaMcp.error?.code).toBe('CONFIRMATION_REQUIRED');
    expect(await roles()).toEqual(before);
    expect((await studioRow()).version).toBe(version);
  });

  it('refuses unknown, removed and own member ids', async () => {
    const gone = await memberWithToken(app.database, 'designer');
    await db()
      .updateTable('members')
      .set({ removed_at: new Date().toISOString() })
      .where('id', '=', gone.memberId)
      .execute();
    const ownerId = (await owner.studio.getStudio.query({})).owner!.memberId;
    expect(
      (
        await refusal(
          owner.studio.transferStudioOwnership.mutate({ memberId: '0000000000000000000000000z', confirm: true }),
        )
      ).code,
    ).toBe('NOT_FOUND');
    expect(
      (await refusal(owner.studio.transferStudioOwnership.mutate({ memberId: gone.memberId, confirm: true }))).code,
    ).toBe('NOT_FOUND');
    expect(
      (await refusal(owner.studio.transferStudioOwnership.mutate({ memberId: ownerId, confirm: true }))).code,
    ).toBe('VALIDATION_FAILED');
    // Confirmation is asked only for a transfer that would succeed.
    expect((await refusal(owner.studio.transferStudioOwnership.mutate({ memberId: gone.memberId }))).code).toBe(
      'NOT_FOUND',
    );
    expect((await owner.studio.getStudio.query({})).owner!.memberId).toBe(ownerId);
  });

  it('hands the studio over: the target owns it, the old owner is an admin, exactly one owner remains', async () => {
    const before = await owner.studio.getStudio.query({});
    const oldOwnerId = before.owner!.memberId;
    const out = await owner.studio.transferStudioOwnership.mutate({ memberId: designer.memberId, confirm: true });
    expect(out.owner).toEqual({ memberId: designer.memberId, role: 'owner' });
    expect(out.previousOwner).toEqual({ memberId: oldOwnerId, role: 'admin' });
    expect(out.studio.owner!.memberId).toBe(designer.memberId);
    expect(out.studio.version).toBe(before.version + 1);
    const r = await roles();
    expect(r[designer.memberId]).toBe('owner');
    expect(r[oldOwnerId]).toBe('admin');
    expect(Object.values(r).filter((role) => role === 'owner')).toHaveLength(1);

    // The same tokens now carry the new roles: the old owner can no longer transfer, the new one can.
    expect(
      (await refusal(owner.studio.transferStudioOwnership.mutate({ memberId: oldOwnerId, confirm: true }))).code,
    ).toBe('FORBIDDEN');
    const back = await callAction(await app.mcp(designer.token), 'transfer_studio_ownership', {
      memberId: oldOwnerId,
      confirm: true,
    });
    expect(back.result.owner).toEqual({ memberId: oldOwnerId, role: 'owner' });
    expect((await roles())[designer.memberId]).toBe('admin');
    const events = await db()
      .selectFrom('audit_events')
      .select(['action', 'target_id'])
      .where('action', '=', 'transfer_studio_ownership')
      .execute();
    expect(events.length).toBe(4);
  });
});
