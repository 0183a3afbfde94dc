/**
 * The projects domain (12 procedures) through the typed tRPC client, several also through MCP call_action, against a
 * real in-process server over the seeded demo studio. Refusals: role scopes, grants, versions, keys, archival.
 */
import { describe, expect, it } from 'vitest';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { currentEtag, http, trpc, type Trpc } from '../helpers/clients.js';
import { callAction, codeOf } from '../helpers/calls.js';
import { floatsIn, memberWithToken } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';
import { createProject } from '../helpers/projects.js';
import { postItem } from '../helpers/schedule.js';
import { gbp } from '../helpers/money.js';

let app: TestApp;
let owner: Trpc;
openTestApp((opened) => ({ app, owner } = opened));

/** A fresh project of the owner's, so tests that change things do not depend on each other. */
const freshProject = (name = 'Scratch', sections = ['Living Room', 'Kitchen']) =>
  createProject(owner, { name, sections });

describe('list_studio_projects', () => {
  it('lists the reachable projects over tRPC and MCP alike, filtered by text and status', async () => {
    const all = await owner.projects.listStudioProjects.query({});
    expect(all.items.map((p) => p.name)).toContain('Harbour House');
    expect(all.nextCursor).toBeNull();
    const found = await owner.projects.listStudioProjects.query({ q: 'Harbour' });
    expect(found.items.map((p) => p.id)).toEqual([app.projectId]);
    expect((await owner.projects.listStudioProjects.query({ status: 'archived', q: 'Harbour' })).items).toEqual([]);

    const client = await app.mcp();
    const viaMcp = await callAction(client, 'list_studio_projects', { q: 'Harbour' });
    expect(viaMcp.result).toEqual(found);
  });

  it('pages with a cursor, newest first, without repeats', async () => {
    await freshProject('Paging A');
    await freshProject('Paging B');
    const first = await owner.projects.listStudioProjects.query({ limit: 1 });
    expect(first.items).toHaveLength(1);
    expect(first.nextCursor).not.toBeNull();
    const second = await owner.projects.listStudioProjects.query({ limit: 1, cursor: first.nextCursor! });
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id);
    expect(second.items[0]!.createdAt <= first.items[0]!.createdAt).toBe(true);
    expect(await codeOf(owner.projects.listStudioProjects.query({ cursor: 'not-a-cursor' }))).toBe('VALIDATION_FAILED');
  });

  it('shows a member without workspace:manage only the projects granted to them', async () => {
    const designer = await memberWithToken(app.database, 'designer');
    expect((await trpc(app.url, designer.token).projects.listStudioProjects.query({})).items).toEqual([]);
    const viewer = await memberWithToken(app.database, 'viewer', [{ projectId: app.projectId, level: 'view' }]);
    expect((await trpc(app.url, viewer.token).projects.listStudioProjects.query({})).items.map((p) => p.id)).toEqual([
      app.projectId,
    ]);
  });
});

describe('get_studio_project', () => {
  it('returns the project with its sections in order, the same over MCP', async () => {
    const p = await owner.projects.getStudioProject.query({ projectId: app.projectId });
    expect(p.name).toBe('Harbour House');
    expect(p.sections.map((s) => s.title).slice(0, 3)).toEqual(['Living Room', 'Kitchen', 'Dining']);
    expect(p.sections.map((s) => s.position)).toEqual(p.sections.map((_, i) => i + 1));
    expect(p.sections[0]!.lineCount).toBeGreaterThan(0);
    const viaMcp = await callAction(await app.mcp(), 'get_studio_project', { projectId: app.projectId });
    expect(viaMcp.result).toEqual(p);
  });

  it('is NOT_FOUND for a designer without a grant, and for an id that does not exist', async () => {
    const designer = await memberWithToken(app.database, 'designer');
    expect(
      await codeOf(trpc(app.url, designer.token).projects.getStudioProject.query({ projectId: app.projectId })),
    ).toBe('NOT_FOUND');
    expect(await codeOf(owner.projects.getStudioProject.query({ projectId: '00000000000000000000000000' }))).toBe(
      'NOT_FOUND',
    );
    expect(await codeOf(owner.projects.getStudioProject.query({ projectId: 'nope' }))).toBe('NOT_FOUND');
  });

  it('hides the default markup from a member without pricing:read', async () => {
    const assistant = await memberWithToken(app.database, 'assistant', [{ projectId: app.projectId, level: 'edit' }]);
    const p = await trpc(app.url, assistant.token).projects.getStudioProject.query({ projectId: app.projectId });
    expect(p).not.toHaveProperty('defaultMarkup');
    expect(p.name).toBe('Harbour House');
  });
});

describe('create_studio_project', () => {
  it('creates the project with its sections and grants the creator edit access', async () => {
    const designer = await memberWithToken(app.database, 'designer');
    const t = trpc(app.url, designer.token);
    const p = await t.projects.createStudioProject.mutate({
      name: 'Mill Cottage',
      clientName: 'Ms Ede',
      sections: ['Snug', 'Scullery'],
      commandKey: uuid(),
    });
    expect(p).toMatchObject({
      name: 'Mill Cottage',
      clientName: 'Ms Ede',
      currency: 'GBP',
      status: 'active',
      version: 1,
      archived_at: null,
    });
    expect(p.sections.map((s) => [s.title, s.position, s.lineCount])).toEqual([
      ['Snug', 1, 0],
      ['Scullery', 2, 0],
    ]);
    // The creator now reaches it, and can change it.
    expect((await t.projects.getStudioProject.query({ projectId: p.id })).id).toBe(p.id);
    const grants = await owner.projects.listProjectGrants.query({ projectId: p.id });
    expect(grants.items.map((g) => [g.memberId, g.level])).toEqual([[designer.memberId, 'edit']]);
  });

  it('answers a repeated commandKey with the first result, and refuses the key for other input', async () => {
    const key = uuid();
    const a = await owner.projects.createStudioProject.mutate({ name: 'Keyed', commandKey: key });
    const b = await owner.projects.createStudioProject.mutate({ name: 'Keyed', commandKey: key });
    expect(b).toEqual(a);
    expect(a.sections.map((s) => s.title)).toEqual(['General']);
    expect((await owner.projects.listStudioProjects.query({ q: 'Keyed' })).items).toHaveLength(1);
    expect(
      await codeOf(owner.projects.createStudioProject.mutate({ name: 'Keyed differently', commandKey: key })),
    ).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('refuses a viewer (FORBIDDEN), a blank name and an unknown field (VALIDATION_FAILED)', async () => {
    const viewer = await memberWithToken(app.database, 'viewer');
    expect(
      await codeOf(
        trpc(app.url, viewer.token).projects.createStudioProject.mutate({
          commandKey: uuid(),
          name: 'Nope',
        }),
      ),
    ).toBe('FORBIDDEN');
    expect(await codeOf(owner.projects.createStudioProject.mutate({ commandKey: uuid(), name: '   ' }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(
      await codeOf(
        owner.projects.createStudioProject.mutate({
          commandKey: uuid(),
          name: 'X',
          colour: 'red',
        } as never),
      ),
    ).toBe('VALIDATION_FAILED');
  });
});

describe('update_project_details', () => {
  it('changes only the fields sent and moves the version by one', async () => {
    const p = await freshProject('Before');
    const u = await owner.projects.updateProjectDetails.mutate({
      projectId: p.id,
      expectedVersion: p.version,
      name: 'After',
      reference: 'AF-1',
    });
    expect(u).toMatchObject({ name: 'After', reference: 'AF-1', clientName: null, version: p.version + 1 });
    const again = await owner.projects.updateProjectDetails.mutate({
      projectId: p.id,
      expectedVersion: u.version,
      reference: null,
      defaultMarkup: { ratio4: '2500' },
    });
    expect(again).toMatchObject({
      name: 'After',
      reference: null,
      defaultMarkup: { ratio4: '2500' },
      version: u.version + 1,
    });
  });

  it('refuses a stale version (VERSION_CONFLICT), a missing one (PRECONDITION_REQUIRED) and an empty patch', async () => {
    const p = await freshProject();
    await owner.projects.updateProjectDetails.mutate({ projectId: p.id, expectedVersion: p.version, name: 'Moved on' });
    expect(
      await codeOf(
        owner.projects.updateProjectDetails.mutate({ projectId: p.id, expectedVersion: p.version, name: 'Stale' }),
      ),
    ).toBe('VERSION_CONFLICT');
    expect(await codeOf(owner.projects.updateProjectDetails.mutate({ projectId: p.id, name: 'No version' }))).toBe(
      'PRECONDITION_REQUIRED',
    );
    expect(
      await codeOf(owner.projects.updateProjectDetails.mutate({ projectId: p.id, expectedVersion: p.version + 1 })),
    ).toBe('VALIDATION_FAILED');
    expect((await owner.projects.getStudioProject.query({ projectId: p.id })).name).toBe('Moved on');
  });

  it('refuses a viewer (FORBIDDEN), a designer without a grant (NOT_FOUND), and an assistant setting the markup', async () => {
    const current = await owner.projects.getStudioProject.query({ projectId: app.projectId });
    const viewer = await memberWithToken(app.database, 'viewer', [{ projectId: app.projectId, level: 'view' }]);
    expect(
      await codeOf(
        trpc(app.url, viewer.token).projects.updateProjectDetails.mutate({
          projectId: app.projectId,
          expectedVersion: current.version,
          name: 'X',
        }),
      ),
    ).toBe('FORBIDDEN');
    const designer = await memberWithToken(app.database, 'designer');
    expect(
      await codeOf(
        trpc(app.url, designer.token).projects.updateProjectDetails.mutate({
          projectId: app.projectId,
          expectedVersion: current.version,
          name: 'X',
        }),
      ),
    ).toBe('NOT_FOUND');
    const assistant = await memberWithToken(app.database, 'assistant', [{ projectId: app.projectId, level: 'edit' }]);
    expect(
      await codeOf(
        trpc(app.url, assistant.token).projects.updateProjectDetails.mutate({
          projectId: app.projectId,
          expectedVersion: current.version,
          defaultMarkup: { ratio4: '1' },
        }),
      ),
    ).toBe('FORBIDDEN');
    expect((await owner.projects.getStudioProject.query({ projectId: app.projectId })).version).toBe(current.version);
  });

  it('changes the currency only while no line carries a set price', async () => {
    const empty = await freshProject();
    const eur = await owner.projects.updateProjectDetails.mutate({
      projectId: empty.id,
      expectedVersion: empty.version,
      currency: 'EUR',
    });
    expect(eur.currency).toBe('EUR');
    const harbour = await owner.projects.getStudioProject.query({ projectId: app.projectId });
    expect(
      await codeOf(
        owner.projects.updateProjectDetails.mutate({
          projectId: app.projectId,
          expectedVersion: harbour.version,
          currency: 'EUR',
        }),
      ),
    ).toBe('VALIDATION_FAILED');
  });
});

describe('archive_studio_project and restore_project', () => {
  it('archives, refuses changes and a second archival, then restores', async () => {
    const p = await freshProject('To archive');
    const archived = await owner.projects.archiveStudioProject.mutate({ projectId: p.id, expectedVersion: p.version });
    expect(archived).toMatchObject({ status: 'archived', version: p.version + 1 });
    expect(archived.archived_at).toEqual(expect.any(String));
    expect(
      (await owner.projects.listStudioProjects.query({ status: 'archived', q: 'To archive' })).items.map((x) => x.id),
    ).toEqual([p.id]);

    expect(
      await codeOf(owner.projects.archiveStudioProject.mutate({ projectId: p.id, expectedVersion: archived.version })),
    ).toBe('ALREADY_ARCHIVED');
    expect(
      await codeOf(
        owner.projects.updateProjectDetails.mutate({ projectId: p.id, expectedVersion: archived.version, name: 'X' }),
      ),
    ).toBe('ARCHIVED');
    expect(await codeOf(owner.projects.restoreProject.mutate({ projectId: p.id, expectedVersion: p.version }))).toBe(
      'VERSION_CONFLICT',
    );
    expect(await codeOf(owner.projects.restoreProject.mutate({ projectId: p.id }))).toBe('PRECONDITION_REQUIRED');

    const restored = await owner.projects.restoreProject.mutate({ projectId: p.id, expectedVersion: archived.version });
    expect(restored).toMatchObject({ status: 'active', archived_at: null, version: archived.version + 1 });
    expect(
      await codeOf(owner.projects.restoreProject.mutate({ projectId: p.id, expectedVersion: restored.version })),
    ).toBe('NOT_ARCHIVED');
  });

  it('refuses a viewer, and archives over MCP with the same result shape', async () => {
    const p = await freshProject('MCP archive');
    const viewer = await memberWithToken(app.database, 'viewer', [{ projectId: p.id, level: 'view' }]);
    expect(
      await codeOf(
        trpc(app.url, viewer.token).projects.archiveStudioProject.mutate({
          projectId: p.id,
          expectedVersion: p.version,
        }),
      ),
    ).toBe('FORBIDDEN');
    const client = await app.mcp();
    const stale = await callAction(client, 'archive_studio_project', {
      projectId: p.id,
      expectedVersion: p.version + 5,
    });
    expect(stale.code).toBe('VERSION_CONFLICT');
    const done = await callAction(client, 'archive_studio_project', { projectId: p.id, expectedVersion: p.version });
    expect(done.result).toMatchObject({ id: p.id, status: 'archived', version: p.version + 1 });
    expect(done.result).toEqual(
      await owner.projects.getStudioProject.query({ projectId: p.id }).then(({ sections: _s, ...rest }) => rest),
    );
  });
});

describe('duplicate_project', () => {
  it('copies active sections and active lines with new ids at version 1, leaving archived ones behind', async () => {
    const src = await freshProject('Source', ['Hall', 'Study', 'Attic']);
    const [hall, study, attic] = src.sections;
    const a = await postItem(app, src.id, {
      sectionId: hall!.id,
      heading: 'Console table',
      tradePrice: { state: 'set', amount4: '1000000' },
    });
    await postItem(app, src.id, { sectionId: hall!.id, heading: 'Mirror' });
    const gone = await postItem(app, src.id, { sectionId: study!.id, heading: 'Desk lamp' });
    await http(app.url, 'POST', `/v1/projects/${src.id}/items/${gone.id}/archival`, {
      token: app.token,
      headers: { 'if-match': await currentEtag(app.url, app.token, `/v1/projects/${src.id}/items/${gone.id}`) },
    });
    const current = await owner.projects.getStudioProject.query({ projectId: src.id });
    await owner.sections.archiveScheduleSection.mutate({
      projectId: src.id,
      sectionId: attic!.id,
      expectedVersion: attic!.version,
    });

    const key = uuid();
    const copy = await owner.projects.duplicateProject.mutate({
      projectId: src.id,
      name: 'Source, phase 2',
      commandKey: key,
    });
    expect(copy).toMatchObject({
      name: 'Source, phase 2',
      reference: null,
      status: 'active',
      version: 1,
      currency: current.currency,
    });
    expect(copy.id).not.toBe(src.id);
    expect(copy.sections.map((s) => [s.title, s.position, s.lineCount, s.version])).toEqual([
      ['Hall', 1, 2, 1],
      ['Study', 2, 0, 1],
    ]);
    expect(copy.sections.map((s) => s.id)).not.toContain(hall!.id);

    const lines = await http(app.url, 'GET', `/v1/projects/${copy.id}/items?archived=include`, { token: app.token });
    expect(lines.body.items.map((l: any) => [l.heading, l.version, l.archived_at])).toEqual([
      ['Console table', 1, null],
      ['Mirror', 1, null],
    ]);
    expect(lines.body.items[0].id).not.toBe(a.id);
    expect(lines.body.items[0].tradePrice).toEqual({ price: { amount4: '1000000', currency: 'GBP' }, state: 'set' });

    // Same key: the same copy, not a second one.
    expect(
      await owner.projects.duplicateProject.mutate({ projectId: src.id, name: 'Source, phase 2', commandKey: key }),
    ).toEqual(copy);
    expect((await owner.projects.listStudioProjects.query({ q: 'phase 2' })).items).toHaveLength(1);
  });

  it('refuses a viewer (FORBIDDEN) and a designer without a grant (NOT_FOUND)', async () => {
    const viewer = await memberWithToken(app.database, 'viewer', [{ projectId: app.projectId, level: 'view' }]);
    expect(
      await codeOf(
        trpc(app.url, viewer.token).projects.duplicateProject.mutate({
          commandKey: uuid(),
          projectId: app.projectId,
        }),
      ),
    ).toBe('FORBIDDEN');
    const designer = await memberWithToken(app.database, 'designer');
    expect(
      await codeOf(
        trpc(app.url, designer.token).projects.duplicateProject.mutate({
          commandKey: uuid(),
          projectId: app.projectId,
        }),
      ),
    ).toBe('NOT_FOUND');
  });
});

describe('get_project_totals', () => {
  it('rounds once: two half-unit totals sum exactly, unlike their rounded line totals', async () => {
    const p = await freshProject('Totals', ['Room A', 'Room B']);
    const [roomA, roomB] = p.sections;
    // 0.5 × 1.0001 = 0.50005 each: each line's own total rounds to 0.5001, the exact sum is 1.0001.
    const line = {
      quantity: { amount4: '5000' },
      tradePrice: { state: 'set', amount4: '5000' },
      clientPrice: { state: 'set', amount4: '10001' },
    };
    const l1 = await postItem(app, p.id, { sectionId: roomA!.id, heading: 'Half one', ...line });
    await postItem(app, p.id, { sectionId: roomA!.id, heading: 'Half two', ...line });
    expect(l1.clientTotal!.amount4).toBe('5001');
    const poa = await postItem(app, p.id, {
      sectionId: roomB!.id,
      heading: 'Priced on application',
      tradePrice: { state: 'poa' },
      deliveryPrice: { state: 'set', amount4: '250000' },
    });
    const tbc = await postItem(app, p.id, { sectionId: roomB!.id, heading: 'To be confirmed' });
    // Derived: 3 × 10.0001 × 1.35 (studio markup) = 40.500405 → 40.5004; margin 3 × 10.0001 × 0.35 = 10.500105 → 10.5001.
    await postItem(app, p.id, {
      sectionId: roomB!.id,
      heading: 'Derived',
      quantity: { amount4: '30000' },
      tradePrice: { state: 'set', amount4: '100001' },
    });

    const t = await owner.projects.getProjectTotals.query({ projectId: p.id });
    expect(t.sections.map((s) => s.title)).toEqual(['Room A', 'Room B']);
    expect(t.sections[0]).toMatchObject({
      clientTotal: gbp('10001'),
      tradeTotal: gbp('5000'),
      marginTotal: gbp('5001'),
      lineCount: 2,
    });
    expect(t.sections[1]).toMatchObject({
      clientTotal: gbp('405004'),
      tradeTotal: gbp('300003'),
      marginTotal: gbp('105001'),
      lineCount: 3,
    });
    expect(t.sections[1]!.linesByState.clientPrice).toEqual({ set: 1, tbc: 1, poa: 1, included: 0, by_others: 0 });
    expect(t.sections[1]!.linesByState.tradePrice).toEqual({ set: 1, tbc: 1, poa: 1, included: 0, by_others: 0 });
    // Project: 1.0001 + 40.500405 = 41.500505 → 41.5005 (half away from zero), once.
    expect(t).toMatchObject({
      projectId: p.id,
      currency: 'GBP',
      clientTotal: gbp('415005'),
      tradeTotal: gbp('305003'),
      lineCount: 5,
    });
    expect(t.marginTotal).toEqual(gbp('110002'));
    expect(t.linesByState.clientPrice).toEqual({ set: 3, tbc: 1, poa: 1, included: 0, by_others: 0 });
    // Delivery stands apart from the client total; the two unpriced lines are named, in schedule order.
    expect(t.deliveryTotal).toEqual(gbp('250000'));
    expect(t.sections[1]!.deliveryTotal).toEqual(gbp('250000'));
    expect(t.sections[0]!.deliveryTotal).toEqual(gbp('0'));
    expect(t.linesLeftOutCount).toBe(2);
    expect(t.linesLeftOut).toEqual([
      {
        lineId: poa.id,
        sectionId: roomB!.id,
        code: poa.code,
        heading: 'Priced on application',
        clientPriceState: 'poa',
        tradePriceState: 'poa',
      },
      {
        lineId: tbc.id,
        sectionId: roomB!.id,
        code: tbc.code,
        heading: 'To be confirmed',
        clientPriceState: 'tbc',
        tradePriceState: 'tbc',
      },
    ]);
    expect(floatsIn(t)).toEqual([]);
  });

  it('agrees with an exact recomputation over the demo schedule, and with MCP', async () => {
    const t = await owner.projects.getProjectTotals.query({ projectId: app.projectId });
    const lines = (await http(app.url, 'GET', `/v1/projects/${app.projectId}/items?limit=1000`, { token: app.token }))
      .body.items as any[];
    const project = await owner.projects.getStudioProject.query({ projectId: app.projectId });
    const markupDefault = BigInt(project.defaultMarkup?.ratio4 ?? '3500');
    let client12 = 0n;
    let trade12 = 0n;
    for (const l of lines) {
      const q = BigInt(l.quantity.amount4);
      const trade = l.tradePrice.state === 'set' ? BigInt(l.tradePrice.price.amount4) : null;
      if (trade !== null) trade12 += q * trade * 10_000n;
      if (l.clientPrice.source === 'manual') {
        if (l.clientPrice.price) client12 += q * BigInt(l.clientPrice.price.amount4) * 10_000n;
      } else if (trade !== null)
        client12 += q * trade * (10_000n + (l.markup ? BigInt(l.markup.ratio4) : markupDefault));
    }
    const round = (n12: bigint) => ((n12 + 50_000_000n) / 100_000_000n).toString(); // all positive here
    expect(t.clientTotal.amount4).toBe(round(client12));
    expect(t.tradeTotal.amount4).toBe(round(trade12));
    expect(t.lineCount).toBe(lines.length);
    const states = Object.values(t.linesByState.clientPrice).reduce((a, b) => a + b, 0);
    expect(states).toBe(lines.length);
    expect(t.sections.reduce((n, s) => n + s.lineCount, 0)).toBe(lines.length);
    const unknown = (state: string) => state === 'tbc' || state === 'poa';
    const leftOut = lines.filter((l) => unknown(l.clientPrice.state) || unknown(l.tradePrice.state));
    expect(t.linesLeftOutCount).toBe(leftOut.length);
    expect(new Set(t.linesLeftOut.map((l) => l.lineId))).toEqual(new Set(leftOut.slice(0, 100).map((l) => l.id)));

    const viaMcp = await callAction(await app.mcp(), 'get_project_totals', { projectId: app.projectId });
    expect(viaMcp.result).toEqual(t);
  });

  it('needs pricing:read: an assistant with an edit grant is FORBIDDEN, over tRPC and MCP', async () => {
    const assistant = await memberWithToken(app.database, 'assistant', [{ projectId: app.projectId, level: 'edit' }]);
    expect(
      await codeOf(trpc(app.url, assistant.token).projects.getProjectTotals.query({ projectId: app.projectId })),
    ).toBe('FORBIDDEN');
    expect(
      (await callAction(await app.mcp(assistant.token), 'get_project_totals', { projectId: app.projectId })).code,
    ).toBe('FORBIDDEN');
    const designer = await memberWithToken(app.database, 'designer');
    expect(
      await codeOf(trpc(app.url, designer.token).projects.getProjectTotals.query({ projectId: app.projectId })),
    ).toBe('NOT_FOUND');
  });
});

describe('project grants', () => {
  it("grants, changes and revokes a member's access, which decides what they reach", async () => {
    const p = await freshProject('Granted');
    const designer = await memberWithToken(app.database, 'designer');
    const asDesigner = trpc(app.url, designer.token);
    expect(await codeOf(asDesigner.projects.getStudioProject.query({ projectId: p.id }))).toBe('NOT_FOUND');

    const granted = await owner.projects.grantProjectAccess.mutate({
      projectId: p.id,
      memberId: designer.memberId,
      level: 'view',
      commandKey: uuid(),
    });
    expect(granted).toMatchObject({
      projectId: p.id,
      memberId: designer.memberId,
      level: 'view',
      memberRole: 'designer',
      memberName: 'Test designer',
    });
    const read = await asDesigner.projects.getStudioProject.query({ projectId: p.id });
    expect(
      await codeOf(
        asDesigner.projects.updateProjectDetails.mutate({
          projectId: p.id,
          expectedVersion: read.version,
          name: 'Nope',
        }),
      ),
    ).toBe('FORBIDDEN');

    const list = await owner.projects.listProjectGrants.query({ projectId: p.id });
    expect(list.items.map((g) => g.level).sort()).toEqual(['edit', 'view']);
    expect(list.items.find((g) => g.memberId === designer.memberId)?.level).toBe('view');

    expect(
      await codeOf(
        owner.projects.grantProjectAccess.mutate({
          commandKey: uuid(),
          projectId: p.id,
          memberId: designer.memberId,
          level: 'edit',
        }),
      ),
    ).toBe('GRANT_EXISTS');
    const edit = await owner.projects.updateProjectGrant.mutate({
      projectId: p.id,
      memberId: designer.memberId,
      level: 'edit',
    });
    expect(edit.level).toBe('edit');
    const renamed = await asDesigner.projects.updateProjectDetails.mutate({
      projectId: p.id,
      expectedVersion: read.version,
      name: 'Renamed by designer',
    });
    expect(renamed.name).toBe('Renamed by designer');

    const revoked = await owner.projects.revokeProjectAccess.mutate({ projectId: p.id, memberId: designer.memberId });
    expect(revoked).toMatchObject({ memberId: designer.memberId, level: 'edit', revokedAt: expect.any(String) });
    expect(await codeOf(asDesigner.projects.getStudioProject.query({ projectId: p.id }))).toBe('NOT_FOUND');
    expect(
      await codeOf(owner.projects.revokeProjectAccess.mutate({ projectId: p.id, memberId: designer.memberId })),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(
        owner.projects.updateProjectGrant.mutate({ projectId: p.id, memberId: designer.memberId, level: 'view' }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      (await owner.projects.listProjectGrants.query({ projectId: p.id })).items.map((g) => g.memberId),
    ).not.toContain(designer.memberId);
  });

  it('works over MCP with the same results, and records audit events', async () => {
    const p = await freshProject('Granted over MCP');
    const viewer = await memberWithToken(app.database, 'viewer');
    const client = await app.mcp();
    const g = await callAction(client, 'grant_project_access', {
      commandKey: uuid(),
      projectId: p.id,
      memberId: viewer.memberId,
      level: 'view',
    });
    expect(g.result).toMatchObject({ memberId: viewer.memberId, level: 'view' });
    const listed = await callAction(client, 'list_project_grants', { projectId: p.id });
    expect(listed.result).toEqual(await owner.projects.listProjectGrants.query({ projectId: p.id }));
    expect(
      (
        await callAction(client, 'grant_project_access', {
          commandKey: uuid(),
          projectId: p.id,
          memberId: viewer.memberId,
          level: 'view',
        })
      ).code,
    ).toBe('GRANT_EXISTS');
    const audit = await http(app.url, 'GET', `/v1/projects/${p.id}/audit`, { token: app.token });
    expect(audit.body.items.map((e: any) => e.action)).toContain('grant_project_access');
  });

  it('needs workspace:manage, and a member of this studio', async () => {
    const designer = await memberWithToken(app.database, 'designer', [{ projectId: app.projectId, level: 'edit' }]);
    const asDesigner = trpc(app.url, designer.token);
    expect(await codeOf(asDesigner.projects.listProjectGrants.query({ projectId: app.projectId }))).toBe('FORBIDDEN');
    expect(
      await codeOf(
        asDesigner.projects.grantProjectAccess.mutate({
          commandKey: uuid(),
          projectId: app.projectId,
          memberId: designer.memberId,
          level: 'edit',
        }),
      ),
    ).toBe('FORBIDDEN');
    expect(
      await codeOf(
        asDesigner.projects.revokeProjectAccess.mutate({ projectId: app.projectId, memberId: designer.memberId }),
      ),
    ).toBe('FORBIDDEN');
    expect(
      await codeOf(
        owner.projects.grantProjectAccess.mutate({
          commandKey: uuid(),
          projectId: app.projectId,
          memberId: '00000000000000000000000000',
          level: 'view',
        }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(
        owner.projects.grantProjectAccess.mutate({
          commandKey: uuid(),
          projectId: app.projectId,
          memberId: designer.memberId,
          level: 'admin' as never,
        }),
      ),
    ).toBe('VALIDATION_FAILED');
  });
});
