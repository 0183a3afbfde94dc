/**
 * The units domain (5 procedures) through the typed tRPC client, and through MCP call_action as an agent reaches it:
 * studio-level reference data that a line's quantity names, versioned, archived rather than deleted (never the
 * studio's default), searchable, and never newly chosen by a line once archived.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { http, trpc, type Trpc } from '../helpers/clients.js';
import { allPages, callAction, codeOf, refusal } from '../helpers/calls.js';
import { anotherStudio, demoMembers, type Member } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';
import { createLine } from '../helpers/schedule.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let designer: Member;
let assistant: Member;
let viewer: Member;
let sectionId: string;
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  ({ designer, assistant, viewer } = await demoMembers(app, ['designer', 'assistant', 'viewer']));
  sectionId = (await owner.projects.getStudioProject.query({ projectId: app.projectId })).sections[0]!.id;
});

const create = (name: string, symbol: string) => owner.units.createUnit.mutate({ name, symbol, commandKey: uuid() });

const lineIn = (unitId: string, heading = `Measured ${uuid().slice(0, 6)}`) =>
  createLine(owner, { projectId: app.projectId, sectionId, heading, quantity: { amount4: '25000', unitId } });

describe('list_units and get_unit', () => {
  it('lists the demo units by name, marking the default and counting the lines measured in each; the same over MCP', async () => {
    const list = await owner.units.listUnits.query({});
    const names = list.items.map((u) => u.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(names).toEqual(expect.arrayContaining(['each', 'metre', 'pair', 'roll', 'set', 'square metre']));
    const each = list.items.find((u) => u.symbol === 'ea')!;
    expect(each).toMatchObject({ name: 'each', isDefault: true, version: 1, archived_at: null });
    expect(each.lineCount).toBeGreaterThan(30);
    expect(list.items.filter((u) => u.isDefault)).toHaveLength(1);
    const settings = await owner.studio.getStudioSettings.query({});
    expect(settings.defaultUnitId).toBe(each.id);
    const viaMcp = await callAction(mcp, 'list_units', {});
    expect(viaMcp.result.items).toEqual(list.items);
  });

  it('finds units by a piece of their name or symbol, case-insensitively, and pages with sort', async () => {
    const found = await owner.units.listUnits.query({ q: 'METRE' });
    expect(found.items.map((u) => u.symbol)).toEqual(['m', 'm²']);
    expect((await owner.units.listUnits.query({ q: '²' })).items.map((u) => u.name)).toEqual(['square metre']);
    const all = await allPages((cursor) => owner.units.listUnits.query({ limit: 2, sort: '-symbol', cursor }));
    const symbols = all.map((u) => u.symbol);
    expect(symbols).toEqual([...symbols].sort().reverse());
    expect(new Set(symbols).size).toBe(symbols.length);
  });

  it('reads one unit; an unknown id, well-formed-looking or not, is the same NOT_FOUND', async () => {
    const u = await create('cubic metre', 'm³');
    expect(await owner.units.getUnit.query({ unitId: u.id })).toEqual(u);
    expect(u).toMatchObject({ name: 'cubic metre', symbol: 'm³', isDefault: false, lineCount: 0, version: 1 });
    expect(await codeOf(owner.units.getUnit.query({ unitId: '0000000000000000000000000u' }))).toBe('NOT_FOUND');
    expect(await codeOf(owner.units.getUnit.query({ unitId: 'm2' }))).toBe('NOT_FOUND');
  });
});

describe('create_unit', () => {
  it('creates once per commandKey, audits it, and offers the unit to lines', async () => {
    const commandKey = uuid();
    const first = await owner.units.createUnit.mutate({ name: 'linear metre', symbol: 'lm', commandKey });
    const again = await owner.units.createUnit.mutate({ name: 'linear metre', symbol: 'lm', commandKey });
    expect(again).toEqual(first);
    const events = await owner.audit.listStudioAuditEvents.query({ targetKind: 'unit' });
    expect(events.items.filter((e) => e.target.id === first.id).map((e) => e.action)).toEqual(['create_unit']);
    const line = await lineIn(first.id);
    expect(line.quantity).toEqual({ amount4: '25000', unitId: first.id });
    expect(line.unitName).toBe('linear metre');
    expect((await owner.units.getUnit.query({ unitId: first.id })).lineCount).toBe(1);
    expect((await owner.studio.getStudioSettings.query({})).units.map((u) => u.id)).toContain(first.id);
  });

  it('refuses a second active unit with the same name (any case) or symbol, saying which one exists', async () => {
    const name = await refusal(
      owner.units.createUnit.mutate({ name: 'Square Metre', symbol: 'sqm', commandKey: uuid() }),
    );
    expect(name.code).toBe('VALIDATION_FAILED');
    const symbol = await owner.units.createUnit
      .mutate({ name: 'metres', symbol: 'm', commandKey: uuid() })
      .catch((e: { data?: { serviceCode?: string }; message: string }) => e);
    expect(symbol).toMatchObject({ data: { serviceCode: 'VALIDATION_FAILED' } });
    expect((symbol as Error).message).toMatch(
      /already has the unit metre \(m, id \w{26}\); use it, or choose another symbol/,
    );
    // The symbol compares exactly: "M" is not "m".
    expect((await create('mega', 'M')).symbol).toBe('M');
    expect(await codeOf(owner.units.createUnit.mutate({ name: '  ', symbol: 'x', commandKey: uuid() }))).toBe(
      'VALIDATION_FAILED',
    );
  });

  it('needs reference:write: a designer adds units, an assistant and a viewer only read them', async () => {
    const made = await trpc(app.url, designer.token).units.createUnit.mutate({
      name: 'hour',
      symbol: 'hr',
      commandKey: uuid(),
    });
    expect(made.name).toBe('hour');
    for (const m of [assistant, viewer]) {
      const t = trpc(app.url, m.token);
      expect((await t.units.listUnits.query({})).items.length).toBeGreaterThan(0);
      expect(await codeOf(t.units.createUnit.mutate({ name: 'nope', symbol: 'np', commandKey: uuid() }))).toBe(
        'FORBIDDEN',
      );
      expect(await codeOf(t.units.archiveUnit.mutate({ unitId: made.id, expectedVersion: 1 }))).toBe('FORBIDDEN');
    }
    const asViewer = await callAction(await app.mcp(viewer.token), 'update_unit', {
      unitId: made.id,
      expectedVersion: 1,
      name: 'hours',
    });
    expect(asViewer.code).toBe('FORBIDDEN');
    expect((await owner.units.getUnit.query({ unitId: made.id })).version).toBe(1);
  });
});

describe('update_unit', () => {
  it('patches only the fields sent, checks the version, and lines show the new name at once', async () => {
    const u = await create('sheet', 'sht');
    const line = await lineIn(u.id);
    const updated = await owner.units.updateUnit.mutate({ unitId: u.id, expectedVersion: 1, name: 'board' });
    expect(updated).toMatchObject({ name: 'board', symbol: 'sht', version: 2, lineCount: 1 });
    const read = await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id });
    expect(read).toMatchObject({ unitName: 'board', version: line.version });
    expect(await codeOf(owner.units.updateUnit.mutate({ unitId: u.id, expectedVersion: 1, symbol: 'bd' }))).toBe(
      'VERSION_CONFLICT',
    );
    expect(await codeOf(owner.units.updateUnit.mutate({ unitId: u.id, symbol: 'bd' }))).toBe('PRECONDITION_REQUIRED');
    expect(await codeOf(owner.units.updateUnit.mutate({ unitId: u.id, expectedVersion: 2 }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(owner.units.updateUnit.mutate({ unitId: u.id, expectedVersion: 2, symbol: 'pr' }))).toBe(
      'VALIDATION_FAILED',
    );
    const events = await owner.audit.listStudioAuditEvents.query({ targetKind: 'unit' });
    const change = events.items.find((e) => e.target.id === u.id && e.action === 'update_unit')!;
    expect(change.changes).toEqual({ name: { from: 'sheet', to: 'board' } });
    // Its own name and symbol are not a clash with itself.
    expect(
      (await owner.units.updateUnit.mutate({ unitId: u.id, expectedVersion: 2, name: 'Board', symbol: 'sht' })).name,
    ).toBe('Board');
  });
});

describe('archive_unit', () => {
  it('keeps the lines measured in it, says so, and refuses it for new lines and edits', async () => {
    const u = await create('bolt', 'blt');
    const line = await lineIn(u.id, 'Curtain fabric');
    const archived = await owner.units.archiveUnit.mutate({ unitId: u.id, expectedVersion: 1 });
    expect(archived.archived_at).not.toBeNull();
    expect(archived).toMatchObject({ version: 2, lineCount: 1 });
    expect(archived.note).toBe(
      '1 active line is still measured in blt and keeps it; new lines and edits cannot choose it.',
    );
    const kept = await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id });
    expect(kept).toMatchObject({ quantity: { unitId: u.id }, unitName: 'bolt', version: line.version });

    // A new line through REST: 409 ARCHIVED, naming the unit and the way out.
    const res = await http(app.url, 'POST', `/v1/projects/${app.projectId}/items`, {
      token: app.token,
      body: { sectionId, heading: 'More fabric', quantity: { amount4: '10000', unitId: u.id } },
      headers: { 'idempotency-key': uuid() },
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'ARCHIVED' });
    expect(res.body.detail).toBe('The unit bolt (blt) is archived; choose an active unit (list_units).');

    // An edit that moves another line onto it is refused; the line is unchanged.
    const other = await lineIn((await owner.units.listUnits.query({ q: 'roll' })).items[0]!.id);
    const moved = await callAction(mcp, 'update_schedule_line', {
      projectId: app.projectId,
      lineId: other.id,
      expectedVersion: other.version,
      patch: { quantity: { amount4: '30000', unitId: u.id } },
    });
    expect(moved.code).toBe('ARCHIVED');
    expect((await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: other.id })).version).toBe(
      other.version,
    );

    // The line that had it keeps it through an edit of its quantity alone (nothing new is chosen).
    const edited = await owner.schedule.updateScheduleLine.mutate({
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: line.version,
      patch: { quantity: { amount4: '40000' } },
    });
    expect(edited.quantity).toEqual({ amount4: '40000', unitId: u.id });

    expect(await codeOf(owner.units.archiveUnit.mutate({ unitId: u.id, expectedVersion: 2 }))).toBe('ALREADY_ARCHIVED');
    expect(await codeOf(owner.units.updateUnit.mutate({ unitId: u.id, expectedVersion: 2, name: 'bolts' }))).toBe(
      'ARCHIVED',
    );
    expect((await owner.units.listUnits.query({})).items.map((x) => x.id)).not.toContain(u.id);
    expect((await owner.units.listUnits.query({ archived: 'only' })).items.map((x) => x.id)).toContain(u.id);
    expect((await owner.studio.getStudioSettings.query({})).units.map((x) => x.id)).not.toContain(u.id);
  });

  it('answers a null note for a unit no line uses', async () => {
    const u = await create('gross', 'gr');
    expect((await owner.units.archiveUnit.mutate({ unitId: u.id, expectedVersion: 1 })).note).toBeNull();
  });

  it("refuses the studio's default unit until another default is chosen", async () => {
    const each = (await owner.units.listUnits.query({ q: 'each' })).items[0]!;
    const refused = await owner.units.archiveUnit
      .mutate({ unitId: each.id, expectedVersion: each.version })
      .catch((e: Error & { data?: { serviceCode?: string } }) => e);
    expect(refused).toMatchObject({ data: { serviceCode: 'VALIDATION_FAILED' } });
    expect((refused as Error).message).toMatch(/default unit.*update_studio_settings with defaultUnitId/);
    expect((await owner.units.getUnit.query({ unitId: each.id })).archived_at).toBeNull();

    const pair = (await owner.units.listUnits.query({ q: 'pair' })).items[0]!;
    const settings = await owner.studio.getStudioSettings.query({});
    await owner.studio.updateStudioSettings.mutate({ defaultUnitId: pair.id, expectedVersion: settings.version });
    expect((await owner.units.getUnit.query({ unitId: pair.id })).isDefault).toBe(true);
    const archived = await owner.units.archiveUnit.mutate({ unitId: each.id, expectedVersion: each.version });
    expect(archived).toMatchObject({ isDefault: false });
    expect(archived.note).toMatch(/^\d+ active lines are still measured in ea/);
    // A line that names no unit now takes the new default.
    const line = await owner.schedule.createScheduleLine.mutate({
      commandKey: uuid(),
      projectId: app.projectId,
      sectionId,
      heading: 'Pair',
    });
    expect(line.quantity.unitId).toBe(pair.id);
  });
});

// Last: it adds a second studio to the database, which the fixtures above do not expect.
describe('another studio', () => {
  it('its units are NOT_FOUND to every unit action and to a line naming them', async () => {
    const { unitIds } = await anotherStudio(app, 'units');
    const theirs = unitIds.ea!;
    expect(await codeOf(owner.units.getUnit.query({ unitId: theirs }))).toBe('NOT_FOUND');
    expect(await codeOf(owner.units.updateUnit.mutate({ unitId: theirs, expectedVersion: 1, name: 'x' }))).toBe(
      'NOT_FOUND',
    );
    expect(await codeOf(owner.units.archiveUnit.mutate({ unitId: theirs, expectedVersion: 1 }))).toBe('NOT_FOUND');
    expect(await codeOf(lineIn(theirs))).toBe('NOT_FOUND');
    expect((await owner.units.listUnits.query({ archived: 'include' })).items.map((u) => u.id)).not.toContain(theirs);
  });
});
