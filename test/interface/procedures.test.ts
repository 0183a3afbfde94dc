/**
 * The interface domain (10 procedures) through the typed tRPC client and MCP call_action: a member's own saved views,
 * table and inspector layouts, sidebar and first-run flag, per membership (two members of a studio, and one person in
 * two studios, each have their own), validated against closed vocabularies, versioned like every updatable record,
 * and naming custom properties by id only where they are the caller's to name.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { trpc, type Trpc } from '../helpers/clients.js';
import { callAction, codeOf, refusal, trpcFailure } from '../helpers/calls.js';
import { demoMembers, type Member, studioOfTheirOwn } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let designer: Trpc;
let viewer: Trpc;
let viewerMember: Member;
/** The owner, as the same person, in a second studio of theirs. */
let elsewhere: Trpc;
let projectId: string;
/** A custom property of the demo project, and one of another project of the same studio. */
let fireRating: string;
let otherProjectProperty: string;
/** A project and a property of the second studio. */
let foreignProject: string;
let foreignProperty: string;

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  // Members first: the fixture adds them to the database's first studio, before another studio exists.
  const members = await demoMembers(app, ['designer', 'viewer']);
  designer = trpc(app.url, members.designer.token);
  viewerMember = members.viewer;
  viewer = trpc(app.url, viewerMember.token);
  projectId = app.projectId;
  fireRating = (
    await owner.properties.createCustomProperty.mutate({
      projectId,
      name: 'Fire certificate',
      kind: 'text',
      commandKey: uuid(),
    })
  ).id;
  const other = await owner.projects.createStudioProject.mutate({ name: 'Mill Cottage', commandKey: uuid() });
  otherProjectProperty = (
    await owner.properties.createCustomProperty.mutate({
      projectId: other.id,
      name: 'Finish code',
      kind: 'text',
      commandKey: uuid(),
    })
  ).id;
  ({ them: elsewhere } = await studioOfTheirOwn(app, owner, { name: 'Hartley Contract', currency: 'EUR' }));
  foreignProject = (await elsewhere.projects.createStudioProject.mutate({ name: 'Offices', commandKey: uuid() })).id;
  foreignProperty = (
    await elsewhere.properties.createCustomProperty.mutate({
      projectId: foreignProject,
      name: 'Fire rating',
      kind: 'text',
      commandKey: uuid(),
    })
  ).id;
});

describe('saved views', () => {
  it('round trip: create, list, read back over MCP, update with the version, delete', async () => {
    const created = await owner.interface.createSavedView.mutate({
      name: 'Prices to confirm',
      table: 'schedule_lines',
      filters: { priceState: 'tbc', q: ' sofa ' },
      sort: '-code',
      columns: ['code', 'heading', 'clientPrice'],
      commandKey: uuid(),
    });
    expect(created).toMatchObject({
      name: 'Prices to confirm',
      table: 'schedule_lines',
      filters: { priceState: 'tbc', q: 'sofa' },
      sort: '-code',
      columns: ['code', 'heading', 'clientPrice'],
      version: 1,
    });
    const list = await owner.interface.listSavedViews.query({ table: 'schedule_lines' });
    expect(list.items).toEqual([created]);
    expect((await callAction(mcp, 'list_saved_views', { table: 'schedule_lines' })).result).toEqual(list);
    // The filters and sort are the list action's own: passing them on answers.
    const lines = await owner.schedule.listScheduleLines.query({
      projectId,
      ...created.filters,
      sort: created.sort!,
    } as never);
    expect(Array.isArray(lines.items)).toBe(true);

    const updated = await owner.interface.updateSavedView.mutate({
      viewId: created.id,
      expectedVersion: 1,
      name: 'TBC prices',
      filters: { priceState: 'tbc' },
      columns: null,
    });
    expect(updated).toMatchObject({ name: 'TBC prices', filters: { priceState: 'tbc' }, columns: null, version: 2 });
    const stale = await refusal(
      owner.interface.updateSavedView.mutate({ viewId: created.id, expectedVersion: 1, name: 'Other' }),
    );
    expect(stale).toEqual({ code: 'VERSION_CONFLICT', status: 409 });
    expect(await codeOf(owner.interface.updateSavedView.mutate({ viewId: created.id, name: 'No version' }))).toBe(
      'PRECONDITION_REQUIRED',
    );
    // The same values again change nothing: no new version.
    const same = await owner.interface.updateSavedView.mutate({
      viewId: created.id,
      expectedVersion: 2,
      sort: '-code',
    });
    expect(same.version).toBe(2);

    expect(await codeOf(owner.interface.deleteSavedView.mutate({ viewId: created.id, expectedVersion: 1 }))).toBe(
      'VERSION_CONFLICT',
    );
    const deleted = await owner.interface.deleteSavedView.mutate({ viewId: created.id, expectedVersion: 2 });
    expect(deleted).toMatchObject({ id: created.id, name: 'TBC prices', table: 'schedule_lines' });
    expect((await owner.interface.listSavedViews.query({ table: 'schedule_lines' })).items).toEqual([]);
    expect(await codeOf(owner.interface.deleteSavedView.mutate({ viewId: created.id, expectedVersion: 2 }))).toBe(
      'NOT_FOUND',
    );
  });

  it('creates once per commandKey: a retry answers the same view; another input with that key is refused', async () => {
    const input = { name: 'Active jobs', table: 'projects' as const, filters: { status: 'active' as const } };
    const commandKey = uuid();
    const first = await owner.interface.createSavedView.mutate({ ...input, commandKey });
    const again = (await callAction(mcp, 'create_saved_view', { ...input, commandKey })).result;
    expect(again).toEqual(first);
    expect(await codeOf(owner.interface.createSavedView.mutate({ ...input, name: 'Other', commandKey }))).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
    expect(await codeOf(owner.interface.createSavedView.mutate(input as never))).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect((await owner.interface.listSavedViews.query({ table: 'projects' })).items).toHaveLength(1);
  });

  it("refuses what the table's list action would not take, naming the field", async () => {
    const marsden = (await owner.clients.listClients.query({ q: 'Marsden' })).items[0]!.id;
    const make = (over: Record<string, unknown>) =>
      trpcFailure(
        owner.interface.createSavedView.mutate({
          name: 'Bad',
          table: 'schedule_lines',
          commandKey: uuid(),
          ...over,
        } as never),
      );
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ filters: { clientId: marsden } }, 'filters.clientId'],
      [{ table: 'projects', filters: { priceState: 'tbc' } }, 'filters.priceState'],
      [{ filters: { status: 'active' } }, 'filters.status'],
      [{ table: 'projects', filters: { status: 'draft' } }, 'filters.status'],
      [{ filters: { sectionId: '0000000000000000000000000c' } }, 'filters'],
      [{ table: 'suppliers', sort: 'updatedAt' }, 'sort'],
      [{ sort: 'price' }, 'sort'],
      [{ table: 'projects', columns: ['margin'] }, 'columns.0'],
      [{ columns: ['code', 'code'] }, 'columns.1'],
      [{ table: 'rooms' }, 'table'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ columns: Array.from({ length: 101 }, () => 'code') }, 'columns'],
    ];
    for (const [over, path] of cases) {
      const err = await make(over);
      expect(err.data?.serviceCode, JSON.stringify(over)).toBe('VALIDATION_FAILED');
      expect((err.data as unknown as { errors: Array<{ path: string }> }).errors[0]!.path, JSON.stringify(over)).toBe(
        path,
      );
    }
    expect((await owner.interface.listSavedViews.query({})).items.map((v) => v.name)).not.toContain('Bad');
  });

  it('keeps names unique per table whatever their case, and at most 50 views per table', async () => {
    await owner.interface.createSavedView.mutate({ name: 'Everyone', table: 'clients', commandKey: uuid() });
    expect(
      await codeOf(owner.interface.createSavedView.mutate({ name: 'EVERYONE', table: 'clients', commandKey: uuid() })),
    ).toBe('VALIDATION_FAILED');
    // The same name on another table is another view.
    await owner.interface.createSavedView.mutate({ name: 'Everyone', table: 'suppliers', commandKey: uuid() });
    await Promise.all(
      Array.from({ length: 49 }, (_, i) =>
        owner.interface.createSavedView.mutate({ name: `Clients ${i}`, table: 'clients', commandKey: uuid() }),
      ),
    );
    const over = await trpcFailure(
      owner.interface.createSavedView.mutate({ name: 'One too many', table: 'clients', commandKey: uuid() }),
    );
    expect(over.data?.serviceCode).toBe('VALIDATION_FAILED');
    expect(over.message).toMatch(/50 saved views/);
    const page = await owner.interface.listSavedViews.query({ table: 'clients', limit: 20, sort: '-createdAt' });
    expect(page.items).toHaveLength(20);
    expect(page.nextCursor).not.toBeNull();
  });

  it("names a supplier of the caller's studio only: another studio's is 404", async () => {
    const supplierThere = await elsewhere.suppliers.createSupplier.mutate({ name: 'Atelier Nord', commandKey: uuid() });
    const r = await refusal(
      owner.interface.createSavedView.mutate({
        name: 'Nord',
        table: 'schedule_lines',
        filters: { supplierId: supplierThere.id },
        commandKey: uuid(),
      }),
    );
    expect(r).toEqual({ code: 'NOT_FOUND', status: 404 });
  });

  it('is personal: another member neither lists, changes nor deletes it, and may use the same name', async () => {
    const mine = await owner.interface.createSavedView.mutate({ name: 'Mine', table: 'projects', commandKey: uuid() });
    expect((await designer.interface.listSavedViews.query({})).items).toEqual([]);
    expect(
      await codeOf(designer.interface.updateSavedView.mutate({ viewId: mine.id, expectedVersion: 1, name: 'Taken' })),
    ).toBe('NOT_FOUND');
    expect(await codeOf(designer.interface.deleteSavedView.mutate({ viewId: mine.id, expectedVersion: 1 }))).toBe(
      'NOT_FOUND',
    );
    const theirs = await designer.interface.createSavedView.mutate({
      name: 'Mine',
      table: 'projects',
      commandKey: uuid(),
    });
    expect(theirs.id).not.toBe(mine.id);
    expect((await owner.interface.listSavedViews.query({ table: 'projects' })).items.map((v) => v.id)).toContain(
      mine.id,
    );
    // The same person in their other studio has a set of their own.
    expect((await elsewhere.interface.listSavedViews.query({})).items).toEqual([]);
    expect(
      await codeOf(elsewhere.interface.updateSavedView.mutate({ viewId: mine.id, expectedVersion: 1, name: 'X' })),
    ).toBe('NOT_FOUND');
  });
});

describe('table layouts', () => {
  it('reads the built-in layout at version 1, saves at 2, refuses a stale or missing version', async () => {
    const built = await owner.interface.getTableLayout.query({ table: 'projects' });
    expect(built).toMatchObject({
      table: 'projects',
      projectId: null,
      source: 'built_in',
      version: 1,
      updatedAt: null,
    });
    expect(built.columns[0]).toEqual({ field: 'name', width: 280 });
    const saved = await owner.interface.updateTableLayout.mutate({
      table: 'projects',
      expectedVersion: 1,
      columns: [
        { field: 'reference', width: 100 },
        { field: 'name', width: 300 },
      ],
      density: 'compact',
    });
    expect(saved).toMatchObject({ source: 'saved', version: 2, density: 'compact', frozenColumns: 1 });
    expect(await owner.interface.getTableLayout.query({ table: 'projects' })).toEqual(saved);
    expect(
      await codeOf(
        owner.interface.updateTableLayout.mutate({ table: 'projects', expectedVersion: 1, density: 'comfortable' }),
      ),
    ).toBe('VERSION_CONFLICT');
    expect(
      await codeOf(owner.interface.updateTableLayout.mutate({ table: 'projects', density: 'comfortable' } as never)),
    ).toBe('PRECONDITION_REQUIRED');
    // The same values again: nothing changes, the version stays.
    const same = await owner.interface.updateTableLayout.mutate({
      table: 'projects',
      expectedVersion: 2,
      density: 'compact',
    });
    expect(same.version).toBe(2);
    // Over MCP, the same layout; a stale version there is the same refusal, with the current version.
    expect((await callAction(mcp, 'get_table_layout', { table: 'projects' })).result).toEqual(saved);
    const overMcp = await callAction(mcp, 'update_table_layout', {
      table: 'projects',
      expectedVersion: 1,
      frozenColumns: 0,
    });
    expect(overMcp.code).toBe('VERSION_CONFLICT');
    expect(overMcp.error?.currentVersion).toBe(2);
  });

  it("keeps a layout for every project and one per project, with the project's custom properties by id", async () => {
    const everywhere = await owner.interface.updateTableLayout.mutate({
      table: 'schedule_lines',
      expectedVersion: 1,
      columns: [
        { field: 'code', width: 90 },
        { field: 'heading', width: 300 },
      ],
    });
    expect(everywhere).toMatchObject({ projectId: null, source: 'saved', version: 2 });
    // A project with no layout of its own shows that one, at its own version 1.
    const inherited = await owner.interface.getTableLayout.query({ table: 'schedule_lines', projectId });
    expect(inherited).toMatchObject({ projectId, source: 'all_projects', version: 1, columns: everywhere.columns });
    const own = await owner.interface.updateTableLayout.mutate({
      table: 'schedule_lines',
      projectId,
      expectedVersion: 1,
      columns: [...everywhere.columns, { propertyId: fireRating, width: 140 }],
      frozenColumns: 2,
    });
    expect(own).toMatchObject({ projectId, source: 'saved', version: 2, frozenColumns: 2 });
    expect(own.columns.at(-1)).toEqual({ propertyId: fireRating, width: 140 });
    // The layout for every project is unchanged.
    expect((await owner.interface.getTableLayout.query({ table: 'schedule_lines' })).version).toBe(2);
  });

  it("refuses another project's or another studio's property or project as 404, and a property without a project", async () => {
    const attempt = (columns: unknown, pid: string | undefined = projectId) =>
      refusal(
        owner.interface.updateTableLayout.mutate({
          table: 'schedule_lines',
          projectId: pid,
          expectedVersion: 2,
          columns,
        } as never),
      );
    const notFound = { code: 'NOT_FOUND', status: 404 };
    expect(await attempt([{ propertyId: otherProjectProperty, width: 100 }])).toEqual(notFound);
    expect(await attempt([{ propertyId: foreignProperty, width: 100 }])).toEqual(notFound);
    expect(await attempt([{ field: 'code', width: 100 }], foreignProject)).toEqual(notFound);
    expect(await attempt([{ propertyId: foreignProperty, width: 100 }], foreignProject)).toEqual(notFound);
    const withoutProject = await refusal(
      owner.interface.updateTableLayout.mutate({
        table: 'schedule_lines',
        expectedVersion: 2,
        columns: [{ propertyId: fireRating, width: 100 }],
      }),
    );
    expect(withoutProject).toEqual(notFound);
    // A column is a built-in one or a property, never both.
    const both = await trpcFailure(
      owner.interface.updateTableLayout.mutate({
        table: 'schedule_lines',
        projectId,
        expectedVersion: 2,
        columns: [{ field: 'code', propertyId: fireRating, width: 100 }],
      }),
    );
    expect(both.data?.serviceCode).toBe('VALIDATION_FAILED');
    // Nothing changed.
    const layout = await owner.interface.getTableLayout.query({ table: 'schedule_lines', projectId });
    expect(layout.version).toBe(2);
  });

  it('bounds widths, lengths and frozen columns, and checks every column against the table', async () => {
    const bad = async (over: Record<string, unknown>, path: string) => {
      const err = await trpcFailure(
        owner.interface.updateTableLayout.mutate({ table: 'projects', expectedVersion: 2, ...over } as never),
      );
      expect(err.data?.serviceCode, JSON.stringify(over)).toBe('VALIDATION_FAILED');
      expect((err.data as unknown as { errors: Array<{ path: string }> }).errors[0]!.path, JSON.stringify(over)).toBe(
        path,
      );
    };
    await bad({ columns: [{ field: 'name', width: 39 }] }, 'columns.0.width');
    await bad({ columns: [{ field: 'name', width: 1201 }] }, 'columns.0.width');
    await bad({ columns: [{ field: 'name', width: 100.5 }] }, 'columns.0.width');
    await bad({ columns: [{ field: 'margin', width: 100 }] }, 'columns.0.field');
    await bad({ columns: [{ field: 'colour', width: 100 }] }, 'columns.0.field');
    await bad({ columns: [{ width: 100 }] }, 'columns.0');
    await bad({ columns: [] }, 'columns');
    await bad({ columns: Array.from({ length: 101 }, () => ({ field: 'name', width: 100 })) }, 'columns');
    await bad(
      {
        columns: [
          { field: 'name', width: 100 },
          { field: 'name', width: 120 },
        ],
      },
      'columns.1',
    );
    await bad({ columns: [{ field: 'name', width: 100 }], frozenColumns: 2 }, 'frozenColumns');
    await bad({ frozenColumns: 6 }, 'frozenColumns');
    await bad({ density: 'cosy' }, 'density');
    await bad({}, '(input)');
    await bad({ projectId, density: 'compact' }, 'projectId');
    expect((await owner.interface.getTableLayout.query({ table: 'projects' })).version).toBe(2);
  });

  it('refuses an archived property, and leaves one archived since out of what it reads', async () => {
    const extra = await owner.properties.createCustomProperty.mutate({
      projectId,
      name: 'Samples sent',
      kind: 'yes_no',
      commandKey: uuid(),
    });
    const current = await owner.interface.getTableLayout.query({ table: 'schedule_lines', projectId });
    const withExtra = await owner.interface.updateTableLayout.mutate({
      table: 'schedule_lines',
      projectId,
      expectedVersion: current.version,
      columns: [...current.columns, { propertyId: extra.id, width: 120 }],
    });
    expect(withExtra.columns.map((c) => c.propertyId).filter(Boolean)).toEqual([fireRating, extra.id]);
    await owner.properties.archiveCustomProperty.mutate({ projectId, propertyId: extra.id, expectedVersion: 1 });
    const read = await owner.interface.getTableLayout.query({ table: 'schedule_lines', projectId });
    expect(read.columns.map((c) => c.propertyId).filter(Boolean)).toEqual([fireRating]);
    expect(read.version).toBe(withExtra.version);
    const r = await refusal(
      owner.interface.updateTableLayout.mutate({
        table: 'schedule_lines',
        projectId,
        expectedVersion: read.version,
        columns: [...read.columns, { propertyId: extra.id, width: 120 }],
      }),
    );
    expect(r).toEqual({ code: 'ARCHIVED', status: 409 });
  });

  it('is per member: a viewer arranges a project they may only view, and an archived one; not one they cannot reach', async () => {
    const theirs = await viewer.interface.getTableLayout.query({ table: 'schedule_lines', projectId });
    expect(theirs).toMatchObject({ source: 'built_in', version: 1 });
    const saved = await viewer.interface.updateTableLayout.mutate({
      table: 'schedule_lines',
      projectId,
      expectedVersion: 1,
      columns: [
        { field: 'heading', width: 400 },
        { propertyId: fireRating, width: 120 },
      ],
    });
    expect(saved.version).toBe(2);
    // The owner's layout of the same project is their own.
    const owners = await owner.interface.getTableLayout.query({ table: 'schedule_lines', projectId });
    expect(owners.columns).not.toEqual(saved.columns);
    // A project the viewer has no grant for does not exist for them.
    const ungranted = await owner.projects.createStudioProject.mutate({ name: 'Private job', commandKey: uuid() });
    expect(
      await codeOf(viewer.interface.getTableLayout.query({ table: 'schedule_lines', projectId: ungranted.id })),
    ).toBe('NOT_FOUND');
    // An archived project can still be arranged: nothing in it changes.
    const archived = await owner.projects.archiveStudioProject.mutate({
      projectId: ungranted.id,
      expectedVersion: ungranted.version,
    });
    expect(archived.archived_at).not.toBeNull();
    const onArchived = await owner.interface.updateTableLayout.mutate({
      table: 'schedule_lines',
      projectId: ungranted.id,
      expectedVersion: 1,
      density: 'compact',
    });
    expect(onArchived).toMatchObject({ source: 'saved', version: 2 });
  });
});

describe('inspector layouts', () => {
  it('reads the built-in panels, saves a project’s order of properties, and checks panels against the record', async () => {
    const built = await owner.interface.getInspectorLayout.query({ record: 'supplier' });
    expect(built).toMatchObject({ record: 'supplier', source: 'built_in', version: 1, width: 400, propertyOrder: [] });
    expect(built.panels.map((p) => p.panel)).toEqual(['details', 'contact', 'lines', 'history']);
    const saved = await owner.interface.updateInspectorLayout.mutate({
      record: 'schedule_line',
      projectId,
      expectedVersion: 1,
      panels: [
        { panel: 'properties', collapsed: false },
        { panel: 'details', collapsed: true },
      ],
      propertyOrder: [fireRating],
      width: 480,
    });
    expect(saved).toMatchObject({ source: 'saved', version: 2, width: 480, propertyOrder: [fireRating] });
    expect((await callAction(mcp, 'get_inspector_layout', { record: 'schedule_line', projectId })).result).toEqual(
      saved,
    );

    const bad = async (over: Record<string, unknown>, code: string, path?: string) => {
      const err = await trpcFailure(
        owner.interface.updateInspectorLayout.mutate({ record: 'supplier', expectedVersion: 1, ...over } as never),
      );
      expect(err.data?.serviceCode, JSON.stringify(over)).toBe(code);
      if (path)
        expect((err.data as unknown as { errors: Array<{ path: string }> }).errors[0]!.path, JSON.stringify(over)).toBe(
          path,
        );
    };
    await bad({ panels: [{ panel: 'pricing', collapsed: false }] }, 'VALIDATION_FAILED', 'panels.0.panel');
    await bad(
      {
        panels: [
          { panel: 'details', collapsed: false },
          { panel: 'details', collapsed: true },
        ],
      },
      'VALIDATION_FAILED',
      'panels.1',
    );
    await bad({ width: 279 }, 'VALIDATION_FAILED', 'width');
    await bad({ width: 961 }, 'VALIDATION_FAILED', 'width');
    await bad({ projectId, width: 300 }, 'VALIDATION_FAILED', 'projectId');
    await bad({ record: 'schedule_line', projectId, propertyOrder: [otherProjectProperty] }, 'NOT_FOUND');
    await bad({ record: 'schedule_line', projectId: foreignProject, width: 300 }, 'NOT_FOUND');
    await bad({ record: 'schedule_line', projectId, expectedVersion: 1, width: 300 }, 'VERSION_CONFLICT');
  });
});

describe('sidebar and first run', () => {
  it('starts at the default, version 1, in get_current_user; saves with the version; refuses a stale one', async () => {
    const start = (await designer.account.getCurrentUser.query({})).interfaceState;
    expect(start).toEqual({
      firstRunCompletedAt: null,
      sidebar: {
        collapsed: false,
        width: 256,
        collapsedGroups: [],
        pinnedProjectIds: [],
        version: 1,
        updatedAt: null,
      },
    });
    const saved = await designer.interface.updateSidebarState.mutate({
      expectedVersion: 1,
      collapsedGroups: ['reference_data'],
      pinnedProjectIds: [projectId],
      width: 300,
    });
    expect(saved).toMatchObject({
      width: 300,
      collapsedGroups: ['reference_data'],
      pinnedProjectIds: [projectId],
      version: 2,
    });
    expect((await designer.account.getCurrentUser.query({})).interfaceState.sidebar).toEqual(saved);
    expect(await codeOf(designer.interface.updateSidebarState.mutate({ expectedVersion: 1, collapsed: true }))).toBe(
      'VERSION_CONFLICT',
    );
    for (const [over, path] of [
      [{ width: 179 }, 'width'],
      [{ width: 481 }, 'width'],
      [{ collapsedGroups: ['projects'] }, 'collapsedGroups.0'],
      [{ collapsedGroups: ['all_projects', 'all_projects'] }, 'collapsedGroups.1'],
      [{ pinnedProjectIds: [projectId, projectId] }, 'pinnedProjectIds.1'],
      [{ pinnedProjectIds: Array.from({ length: 21 }, () => projectId) }, 'pinnedProjectIds'],
    ] as const) {
      const err = await trpcFailure(
        designer.interface.updateSidebarState.mutate({ expectedVersion: 2, ...over } as never),
      );
      expect(err.data?.serviceCode, JSON.stringify(over)).toBe('VALIDATION_FAILED');
      expect((err.data as unknown as { errors: Array<{ path: string }> }).errors[0]!.path).toBe(path);
    }
    // Pinning a project of another studio, or one not granted, is 404.
    expect(
      await codeOf(
        designer.interface.updateSidebarState.mutate({ expectedVersion: 2, pinnedProjectIds: [foreignProject] }),
      ),
    ).toBe('NOT_FOUND');
    // The owner's sidebar is their own.
    expect((await owner.account.getCurrentUser.query({})).interfaceState.sidebar.version).toBe(1);
  });

  it('drops a pinned project the member can no longer reach from what it shows', async () => {
    const pinned = await viewer.interface.updateSidebarState.mutate({
      expectedVersion: 1,
      pinnedProjectIds: [projectId],
    });
    expect(pinned.pinnedProjectIds).toEqual([projectId]);
    await owner.projects.revokeProjectAccess.mutate({ projectId, memberId: viewerMember.memberId });
    const after = (await viewer.account.getCurrentUser.query({})).interfaceState.sidebar;
    expect(after).toMatchObject({ pinnedProjectIds: [], version: 2 });
    await owner.projects.grantProjectAccess.mutate({
      projectId,
      memberId: viewerMember.memberId,
      level: 'view',
      commandKey: uuid(),
    });
    expect((await viewer.account.getCurrentUser.query({})).interfaceState.sidebar.pinnedProjectIds).toEqual([
      projectId,
    ]);
  });

  it('records the first run once per membership; a repeat answers the first time and changes nothing', async () => {
    const first = await owner.interface.completeFirstRun.mutate({});
    expect(first.alreadyCompleted).toBe(false);
    const again = (await callAction(mcp, 'complete_first_run', {})).result;
    expect(again).toEqual({ firstRunCompletedAt: first.firstRunCompletedAt, alreadyCompleted: true });
    const here = (await owner.account.getCurrentUser.query({})).interfaceState;
    expect(here.firstRunCompletedAt).toBe(first.firstRunCompletedAt);
    // The sidebar's version does not move with it.
    expect(here.sidebar.version).toBe(1);
    // The same person in their other studio, and another member of this one, have not finished it there.
    expect((await elsewhere.account.getCurrentUser.query({})).interfaceState.firstRunCompletedAt).toBeNull();
    expect((await designer.account.getCurrentUser.query({})).interfaceState.firstRunCompletedAt).toBeNull();
    // And the sidebar of one studio is not the other's.
    const there = await elsewhere.interface.updateSidebarState.mutate({ expectedVersion: 1, collapsed: true });
    expect(there.collapsed).toBe(true);
    expect((await owner.account.getCurrentUser.query({})).interfaceState.sidebar.collapsed).toBe(false);
  });

  it('writes leave an audit trail, and a write that changes nothing leaves none', async () => {
    const events = async (action: string) =>
      (await owner.audit.listStudioAuditEvents.query({ action, limit: 1000 })).items;
    const [firstRun] = await events('complete_first_run');
    expect(firstRun).toMatchObject({ target: { kind: 'member' }, summary: 'Completed the first-run flow' });
    expect((await events('delete_saved_view'))[0]?.summary).toMatch(/Deleted the view TBC prices/);
    const before = (await events('complete_first_run')).length + (await events('update_table_layout')).length;
    await owner.interface.completeFirstRun.mutate({});
    await owner.interface.updateTableLayout.mutate({ table: 'projects', expectedVersion: 2, density: 'compact' });
    expect((await events('complete_first_run')).length + (await events('update_table_layout')).length).toBe(before);
  });
});
