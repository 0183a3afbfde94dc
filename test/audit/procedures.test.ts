import type { AuditTargetKind } from '../../src/core/audit-kinds.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { http, trpc, type Trpc } from '../helpers/clients.js';
import { allPages, callAction, codeOf } from '../helpers/calls.js';
import { fromOutside, memberWithToken } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';
import { postProject } from '../helpers/projects.js';
import { verifyAuditChain } from '../../src/core/audit.js';

/** The audit procedures through the typed tRPC client (several also through MCP), and the hash chain beneath them. */
let app: TestApp;
let owner: Trpc;
let mcp: Client;
let sectionId: string;
let other: { id: string; sections: Array<{ id: string }> };
let designer: { token: string; memberId: string; client: Trpc };
/** Lines written in setup: `a` in the demo project (three writes), `b` in the other project. */
let a: { id: string; version: number };
let b: { id: string };

/** The caller's whole studio feed, 5 events a call, so no response nears the 8,000-byte large-result bound. */
async function studioFeed(
  client: Trpc,
  input: { targetKind?: AuditTargetKind; action?: string; memberId?: string } = {},
) {
  return allPages((cursor) => client.audit.listStudioAuditEvents.query({ ...input, limit: 5, cursor }));
}

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  sectionId = (await http(app.url, 'GET', `/v1/projects/${app.projectId}`, { token: app.token })).body.sections[0].id;
  other = await postProject(app, { name: 'Audit elsewhere', sections: ['Hall'] });
  const d = await memberWithToken(app.database, 'designer', [{ projectId: app.projectId, level: 'edit' }]);
  designer = { ...d, client: trpc(app.url, d.token) };
  const created = await owner.schedule.createScheduleLine.mutate({
    commandKey: uuid(),
    projectId: app.projectId,
    sectionId,
    heading: 'Audited sofa',
  });
  await owner.schedule.updateScheduleLine.mutate({
    projectId: app.projectId,
    lineId: created.id,
    expectedVersion: 1,
    patch: { tradePrice: { state: 'set', amount4: '1000000' }, finish: 'Bouclé' },
  });
  a = await designer.client.schedule.setScheduleLineStatus.mutate({
    projectId: app.projectId,
    lineId: created.id,
    expectedVersion: 2,
    status: 'specified',
  });
  b = await owner.schedule.createScheduleLine.mutate({
    commandKey: uuid(),
    projectId: other.id,
    sectionId: other.sections[0]!.id,
    heading: 'Elsewhere chair',
  });
});

describe('list_project_audit_events', () => {
  it("lists the project's events newest first with actor, action, target and changes; MCP gives the same", async () => {
    const feed = await owner.audit.listProjectAuditEvents.query({ projectId: app.projectId, limit: 5 });
    expect(feed.items.slice(0, 3).map((e) => [e.action, e.target])).toEqual([
      ['set_schedule_line_status', { kind: 'line', id: a.id }],
      ['update_schedule_line', { kind: 'line', id: a.id }],
      ['create_schedule_line', { kind: 'line', id: a.id }],
    ]);
    expect(feed.items.every((e) => e.projectId === app.projectId)).toBe(true);
    expect(feed.items.some((e) => e.target.id === b.id)).toBe(false);
    expect(feed.items[0]).toMatchObject({
      actor: { kind: 'member', id: designer.memberId, name: 'Test designer', via: 'api_token' },
      changes: { status: { from: 'draft', to: 'specified' } },
    });
    expect(feed.items[1]!.changes).toMatchObject({
      finish: { from: null, to: 'Bouclé' },
      tradePrice: { to: { state: 'set' } },
    });
    const seqs = feed.items.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => y - x));
    expect((await callAction(mcp, 'list_project_audit_events', { projectId: app.projectId, limit: 5 })).result).toEqual(
      feed,
    );
  });

  it('filters by action, target and member, and pages with a cursor', async () => {
    const byAction = await owner.audit.listProjectAuditEvents.query({
      projectId: app.projectId,
      action: 'update_schedule_line',
    });
    expect(byAction.items.map((e) => e.target.id)).toEqual([a.id]);
    const byTarget = await owner.audit.listProjectAuditEvents.query({ projectId: app.projectId, targetId: a.id });
    expect(byTarget.items).toHaveLength(3);
    const byMember = await owner.audit.listProjectAuditEvents.query({
      projectId: app.projectId,
      memberId: designer.memberId,
    });
    expect(byMember.items.map((e) => e.action)).toEqual(['set_schedule_line_status']);
    const first = await owner.audit.listProjectAuditEvents.query({
      projectId: app.projectId,
      targetId: a.id,
      limit: 2,
    });
    const second = await owner.audit.listProjectAuditEvents.query({
      projectId: app.projectId,
      targetId: a.id,
      limit: 2,
      cursor: first.nextCursor!,
    });
    expect([...first.items, ...second.items]).toEqual(byTarget.items);
    expect(second.nextCursor).toBeNull();
  });

  it('needs audit:read, a grant on the project, and ids of this studio', async () => {
    const assistant = trpc(
      app.url,
      (await memberWithToken(app.database, 'assistant', [{ projectId: app.projectId, level: 'edit' }])).token,
    );
    expect(await codeOf(assistant.audit.listProjectAuditEvents.query({ projectId: app.projectId }))).toBe('FORBIDDEN');
    expect(await codeOf(designer.client.audit.listProjectAuditEvents.query({ projectId: other.id }))).toBe('NOT_FOUND');
    expect(
      await codeOf(owner.audit.listProjectAuditEvents.query({ projectId: app.projectId, memberId: 'z'.repeat(26) })),
    ).toBe('NOT_FOUND');
    expect(await codeOf(owner.audit.listProjectAuditEvents.query({ projectId: app.projectId, limit: 0 }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await codeOf(owner.audit.listProjectAuditEvents.query({ projectId: app.projectId, cursor: 'bogus' }))).toBe(
      'VALIDATION_FAILED',
    );
  });

  it('leaves trade price changes out for a reader without pricing:read', async () => {
    const viewer = trpc(
      app.url,
      (await memberWithToken(app.database, 'viewer', [{ projectId: app.projectId, level: 'view' }])).token,
    );
    const feed = await viewer.audit.listProjectAuditEvents.query({
      projectId: app.projectId,
      action: 'update_schedule_line',
    });
    expect(feed.items[0]!.changes).toHaveProperty('finish');
    expect(feed.items[0]!.changes).not.toHaveProperty('tradePrice');
  });
});

describe('list_studio_audit_events', () => {
  it('shows the owner every project; a member without workspace:manage only granted projects', async () => {
    const all = await studioFeed(owner);
    const projects = new Set(all.map((e) => e.projectId));
    expect(projects).toContain(app.projectId);
    expect(projects).toContain(other.id);
    const page = await owner.audit.listStudioAuditEvents.query({ limit: 5 });
    expect(page.items).toEqual(all.slice(0, 5));
    expect((await callAction(mcp, 'list_studio_audit_events', { limit: 5 })).result).toEqual(page);
    const mine = await studioFeed(designer.client);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.length).toBeLessThan(all.length);
    expect(mine.every((e) => e.projectId === app.projectId)).toBe(true);
  });

  it('filters by target kind, action and member', async () => {
    const lines = await studioFeed(owner, { targetKind: 'line' });
    expect(lines.every((e) => e.target.kind === 'line')).toBe(true);
    expect(lines.map((e) => e.target.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    const creates = await studioFeed(owner, { action: 'create_schedule_line' });
    expect(creates.map((e) => e.target.id)).toEqual([b.id, a.id]);
    const byDesigner = await studioFeed(owner, { memberId: designer.memberId });
    expect(byDesigner.map((e) => e.action)).toEqual(['set_schedule_line_status']);
  });

  it('refuses an action name no event can hold, naming the closest, rather than answering an empty feed', async () => {
    const misspelt = owner.audit.listStudioAuditEvents.query({ action: 'update_line_schedule' });
    expect(await codeOf(misspelt)).toBe('VALIDATION_FAILED');
    const viaMcp = await mcp.callTool({
      name: 'call_action',
      arguments: {
        name: 'list_project_audit_events',
        arguments: { input: { projectId: app.projectId, action: 'archive_lines' } },
      },
    });
    expect(viaMcp.isError).toBe(true);
    expect(JSON.stringify(viaMcp.structuredContent)).toMatch(
      /No action is named archive_lines; the closest are [^.]*archive_line/,
    );
    // An act recorded outside the catalog is a name the filter knows.
    expect(await studioFeed(owner, { action: 'oauth_consent' })).toEqual([]);
  });

  it('needs audit:read', async () => {
    const assistant = trpc(app.url, (await memberWithToken(app.database, 'assistant')).token);
    expect(await codeOf(assistant.audit.listStudioAuditEvents.query({}))).toBe('FORBIDDEN');
    expect(await codeOf(owner.audit.listStudioAuditEvents.query({ projectId: app.projectId } as never))).toBe(
      'VALIDATION_FAILED',
    );
  });
});

describe('get_audit_event', () => {
  it('reads one event as the feeds list it, over tRPC and MCP', async () => {
    const [latest] = (await owner.audit.listProjectAuditEvents.query({ projectId: app.projectId, limit: 1 })).items;
    expect(await owner.audit.getAuditEvent.query({ eventId: latest!.id })).toEqual(latest);
    expect((await callAction(mcp, 'get_audit_event', { eventId: latest!.id })).result).toEqual(latest);
  });

  it('an unknown event, or one of a project the caller cannot reach, is NOT_FOUND', async () => {
    expect(await codeOf(owner.audit.getAuditEvent.query({ eventId: 'y'.repeat(26) }))).toBe('NOT_FOUND');
    expect((await callAction(mcp, 'get_audit_event', { eventId: 'y'.repeat(26) })).code).toBe('NOT_FOUND');
    const [elsewhere] = (await owner.audit.listProjectAuditEvents.query({ projectId: other.id, targetId: b.id })).items;
    expect((await owner.audit.getAuditEvent.query({ eventId: elsewhere!.id })).id).toBe(elsewhere!.id);
    expect(await codeOf(designer.client.audit.getAuditEvent.query({ eventId: elsewhere!.id }))).toBe('NOT_FOUND');
    expect(await codeOf(owner.audit.getAuditEvent.query({ eventId: 'short' }))).toBe('NOT_FOUND');
  });
});

describe('list_line_audit_events', () => {
  it("gives the line's events, the same as the schedule's line history", async () => {
    const events = await owner.audit.listLineAuditEvents.query({ projectId: app.projectId, lineId: a.id });
    expect(events.items.map((e) => e.action)).toEqual([
      'set_schedule_line_status',
      'update_schedule_line',
      'create_schedule_line',
    ]);
    expect(await owner.schedule.getScheduleLineHistory.query({ projectId: app.projectId, lineId: a.id })).toEqual(
      events,
    );
    expect(
      (await callAction(mcp, 'list_line_audit_events', { projectId: app.projectId, lineId: a.id })).result,
    ).toEqual(events);
  });

  it('a line named with another project is NOT_FOUND; audit:read is needed', async () => {
    expect(await codeOf(owner.audit.listLineAuditEvents.query({ projectId: other.id, lineId: a.id }))).toBe(
      'NOT_FOUND',
    );
    expect((await callAction(mcp, 'list_line_audit_events', { projectId: app.projectId, lineId: b.id })).code).toBe(
      'NOT_FOUND',
    );
    const assistant = trpc(
      app.url,
      (await memberWithToken(app.database, 'assistant', [{ projectId: app.projectId, level: 'edit' }])).token,
    );
    expect(await codeOf(assistant.audit.listLineAuditEvents.query({ projectId: app.projectId, lineId: a.id }))).toBe(
      'FORBIDDEN',
    );
  });
});

describe('the hash chain', () => {
  it('holds after many writes, and an edited summary in the SQLite file is detected at that event', async () => {
    const studioId = (await app.rt.store.db.selectFrom('studios').select('id').executeTakeFirstOrThrow()).id;
    let line = await owner.schedule.createScheduleLine.mutate({
      commandKey: uuid(),
      projectId: app.projectId,
      sectionId,
      heading: 'Chained lamp',
    });
    line = await owner.schedule.updateScheduleLine.mutate({
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: line.version,
      patch: { brand: 'Lumen' },
    });
    line = await owner.schedule.archiveScheduleLine.mutate({
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: line.version,
    });
    await owner.schedule.restoreScheduleLine.mutate({
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: line.version,
    });
    await owner.schedule.renumberScheduleLines.mutate({ projectId: other.id });
    expect((await verifyAuditChain(app.rt.store.db, studioId)).brokenAtSeq).toBeNull();

    const feed = await studioFeed(owner);
    const seqs = feed.map((e) => e.seq).reverse();
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    const victim = feed.find((e) => e.action === 'update_schedule_line' && e.target.id === line.id)!;

    // Tamper from outside the server, as someone with access to the database would.
    const changed = await fromOutside(app.database, (db) =>
      db
        .updateTable('audit_events')
        .set({ summary: 'Nothing to see here' })
        .where('id', '=', victim.id)
        .executeTakeFirst(),
    );
    expect(changed.numUpdatedRows).toBe(1n);
    expect((await verifyAuditChain(app.rt.store.db, studioId)).brokenAtSeq).toBe(victim.seq);
  });
});
