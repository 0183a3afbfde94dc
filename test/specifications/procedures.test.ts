/**
 * The specifications domain (8 procedures) through the typed tRPC client, and through MCP call_action as an agent
 * reaches it: a studio-level library of product sheets, versioned, archived rather than deleted, and attached to
 * schedule lines in an order per line, each attachment a versioned, audited change to the line.
 */
import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { http, trpc, type Trpc } from '../helpers/clients.js';
import { allPages, callAction, codeOf } from '../helpers/calls.js';
import { floatsIn, memberWithToken, studioOfTheirOwn } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';
import { postItem, projectWithLine } from '../helpers/schedule.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));

type Fields = Omit<Parameters<Trpc['specifications']['createSpecification']['mutate']>[0], 'commandKey'>;
const create = (fields: Partial<Fields> & { name: string }) =>
  owner.specifications.createSpecification.mutate({ category: 'other', ...fields, commandKey: uuid() });

async function newLine(heading: string) {
  const project = await owner.projects.getStudioProject.query({ projectId: app.projectId });
  return postItem(app, app.projectId, { sectionId: project.sections[0]!.id, heading });
}

const readLine = (lineId: string) => owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId });

describe('list_specifications and get_specification', () => {
  it('lists the demo library by name with line counts, the same over MCP', async () => {
    const list = await owner.specifications.listSpecifications.query({});
    const names = list.items.map((s) => s.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : 1)));
    expect(names).toContain('Hartwell Linen Three-Seat Sofa');
    expect(list.items.find((s) => s.name === 'Hartwell Linen Three-Seat Sofa')!.lineCount).toBe(1);
    expect(list.items.find((s) => s.name === 'Zellige Splashback Tile')!.lineCount).toBe(0);
    expect(floatsIn(list)).toEqual([]);
    const viaMcp = await callAction(mcp, 'list_specifications', {});
    expect(viaMcp.result.items.map((s: { name: string }) => s.name)).toEqual(names);
  });

  it('filters by category and manufacturer (any case), finds by q, and pages with sort', async () => {
    const lighting = await owner.specifications.listSpecifications.query({ category: 'lighting' });
    expect(lighting.items.map((s) => s.name)).toEqual(['Aged Brass Floor Lamp', 'Smoked Glass Pendant']);
    const lumen = await owner.specifications.listSpecifications.query({ manufacturer: 'LUMEN' });
    expect(lumen.items.map((s) => s.manufacturer)).toEqual(['Lumen', 'Lumen']);
    const byModel = await owner.specifications.listSpecifications.query({ q: 'bell 25' });
    expect(byModel.items.map((s) => s.name)).toEqual(['Smoked Glass Pendant']);
    const all = await allPages((cursor) =>
      owner.specifications.listSpecifications.query({ limit: 2, sort: '-name', cursor }),
    );
    const names = all.map((s) => s.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? 1 : -1)));
    expect(new Set(names).size).toBe(names.length);
  });

  it('reads one whole; an unknown id is NOT_FOUND', async () => {
    const made = await create({
      name: 'Walnut side table',
      category: 'tables',
      dimensions: { unit: 'cm', width4: '450000', depth4: '450000', height4: '550000' },
      notes: 'Studio only',
    });
    const read = await owner.specifications.getSpecification.query({ specificationId: made.id });
    expect(read).toMatchObject({
      name: 'Walnut side table',
      category: 'tables',
      dimensions: { unit: 'cm', width4: '450000', depth4: '450000', height4: '550000' },
      clientFields: ['description', 'dimensions', 'materials', 'finishes', 'colours', 'careNotes'],
      version: 1,
      lineCount: 0,
      archived_at: null,
    });
    const viaMcp = await callAction(mcp, 'get_specification', { specificationId: made.id });
    expect(viaMcp.result).toEqual(read);
    expect(
      await codeOf(owner.specifications.getSpecification.query({ specificationId: '0000000000000000000000000s' })),
    ).toBe('NOT_FOUND');
  });
});

describe('create_specification and update_specification', () => {
  it('creates once per commandKey, over MCP too, and audits it', async () => {
    const commandKey = uuid();
    const input = { name: 'Travertine plinth', category: 'tables' as const, commandKey };
    const first = await owner.specifications.createSpecification.mutate(input);
    const again = await owner.specifications.createSpecification.mutate(input);
    expect(again.id).toBe(first.id);
    const viaMcp = await callAction(mcp, 'create_specification', { ...input, commandKey: uuid(), name: 'Plinth II' });
    expect(viaMcp.result).toMatchObject({ name: 'Plinth II', version: 1 });
    const events = await owner.audit.listStudioAuditEvents.query({ targetKind: 'specification' });
    expect(events.items.filter((e) => e.target.id === first.id).map((e) => e.action)).toEqual(['create_specification']);
  });

  it('refuses links that are not web addresses, fractional sizes, and unknown client fields', async () => {
    for (const bad of [
      { links: [{ label: 'x', url: 'javascript:alert(1)' }] },
      { links: [{ label: 'x', url: 'https://user:pw@example.com/' }] },
      { dimensions: { unit: 'mm' as const, width4: '2000.5', depth4: null, height4: null } },
      { dimensions: { unit: 'mm' as const, width4: null, depth4: null, height4: null } },
      { clientFields: ['notes'] },
      { clientFields: ['sku', 'sku'] },
    ]) {
      const code = await codeOf(create({ name: 'Bad', ...(bad as Partial<Fields>) }));
      expect(code, JSON.stringify(bad)).toBe('VALIDATION_FAILED');
    }
    const bare = await callAction(mcp, 'create_specification', { name: 'No category', commandKey: uuid() });
    expect(bare.code).toBe('VALIDATION_FAILED');
  });

  it('patches only the fields sent, checks the version, clears with null, and over MCP', async () => {
    const s = await create({ name: 'Linen curtain', category: 'window_treatments', manufacturer: 'Fold', sku: 'F-1' });
    const updated = await owner.specifications.updateSpecification.mutate({
      specificationId: s.id,
      expectedVersion: 1,
      sku: null,
      colours: ['stone'],
    });
    expect(updated).toMatchObject({ sku: null, manufacturer: 'Fold', colours: ['stone'], version: 2 });
    expect(
      await codeOf(
        owner.specifications.updateSpecification.mutate({ specificationId: s.id, expectedVersion: 1, name: 'Late' }),
      ),
    ).toBe('VERSION_CONFLICT');
    expect(
      await codeOf(owner.specifications.updateSpecification.mutate({ specificationId: s.id, name: 'No version' })),
    ).toBe('PRECONDITION_REQUIRED');
    const viaMcp = await callAction(mcp, 'update_specification', {
      specificationId: s.id,
      expectedVersion: 2,
      leadTimeDays: 14,
    });
    expect(viaMcp.result).toMatchObject({ leadTimeDays: 14, version: 3 });
    const history = await owner.audit.listStudioAuditEvents.query({ targetKind: 'specification' });
    const change = history.items.find((e) => e.target.id === s.id && e.action === 'update_specification');
    expect(change).toBeDefined();
  });

  it('needs reference:write: a viewer reads and searches the library but cannot add to it', async () => {
    const viewer = await memberWithToken(app.database, 'viewer', [{ projectId: app.projectId, level: 'view' }]);
    const asViewer = await app.mcp(viewer.token);
    expect((await callAction(asViewer, 'list_specifications', {})).result.items.length).toBeGreaterThan(0);
    expect((await callAction(asViewer, 'search_specifications', { q: 'sofa' })).result.items.length).toBeGreaterThan(0);
    const refused = await callAction(asViewer, 'create_specification', {
      name: 'Nope',
      category: 'other',
      commandKey: uuid(),
    });
    expect(refused.code).toBe('FORBIDDEN');
  });
});

describe('attach_specification_to_line and detach_specification_from_line', () => {
  it('orders a line’s specifications, each change one version and one audit event on the line', async () => {
    const line = await newLine('Dining chairs');
    const [a, b, c] = await Promise.all(
      ['Chair A', 'Chair B', 'Chair C'].map((name) => create({ name, category: 'seating' })),
    );
    const attach = (specificationId: string, expectedVersion: number, position?: number) =>
      owner.specifications.attachSpecificationToLine.mutate({
        projectId: app.projectId,
        lineId: line.id,
        specificationId,
        expectedVersion,
        ...(position ? { position } : {}),
      });
    let shown = await attach(a!.id, 1);
    shown = await attach(b!.id, 2);
    shown = await attach(c!.id, 3, 1);
    expect(shown.specifications).toEqual([
      { id: c!.id, name: 'Chair C', position: 1, archived: false },
      { id: a!.id, name: 'Chair A', position: 2, archived: false },
      { id: b!.id, name: 'Chair B', position: 3, archived: false },
    ]);
    expect(shown.version).toBe(4);
    // The same place again changes nothing: no version, no event.
    const same = await attach(c!.id, 4, 1);
    expect(same.version).toBe(4);
    // Moving one is a change of order.
    const moved = await attach(c!.id, 4, 3);
    expect(moved.specifications.map((s) => s.name)).toEqual(['Chair A', 'Chair B', 'Chair C']);
    expect(moved.version).toBe(5);
    const detached = await owner.specifications.detachSpecificationFromLine.mutate({
      projectId: app.projectId,
      lineId: line.id,
      specificationId: a!.id,
      expectedVersion: 5,
    });
    expect(detached.specifications).toEqual([
      { id: b!.id, name: 'Chair B', position: 1, archived: false },
      { id: c!.id, name: 'Chair C', position: 2, archived: false },
    ]);
    expect(detached.version).toBe(6);
    const history = await owner.schedule.getScheduleLineHistory.query({ projectId: app.projectId, lineId: line.id });
    expect(history.items.slice(0, 5).map((e) => e.action)).toEqual([
      'detach_specification_from_line',
      'attach_specification_to_line',
      'attach_specification_to_line',
      'attach_specification_to_line',
      'attach_specification_to_line',
    ]);
    expect(history.items[0]!.changes).toMatchObject({
      specifications: { from: ['Chair A', 'Chair B', 'Chair C'], to: ['Chair B', 'Chair C'] },
    });
    expect((await owner.specifications.getSpecification.query({ specificationId: b!.id })).lineCount).toBe(1);
    // A duplicate of the line has its specifications, in the same order.
    const copy = await owner.schedule.duplicateScheduleLine.mutate({
      projectId: app.projectId,
      lineId: line.id,
      commandKey: uuid(),
    });
    expect(copy.specifications).toEqual(detached.specifications);
    expect((await owner.specifications.getSpecification.query({ specificationId: b!.id })).lineCount).toBe(2);
  });

  it('shows on the line everywhere it is read: get_schedule_line, list_schedule_lines and GET /v1 items, whose ETag moves', async () => {
    const line = await newLine('Console table');
    const spec = await create({ name: 'Oak console', category: 'tables' });
    const path = `/v1/projects/${app.projectId}/items/${line.id}`;
    const before = await http(app.url, 'GET', path, { token: app.token });
    expect(before.body.specifications).toEqual([]);
    const viaMcp = await callAction(mcp, 'attach_specification_to_line', {
      projectId: app.projectId,
      lineId: line.id,
      specificationId: spec.id,
      expectedVersion: 1,
    });
    expect(viaMcp.result.specifications).toEqual([{ id: spec.id, name: 'Oak console', position: 1, archived: false }]);
    const after = await http(app.url, 'GET', path, { token: app.token });
    expect(after.body.specifications).toEqual(viaMcp.result.specifications);
    expect(after.headers.get('etag')).toMatch(/^"2-/);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    const stale = await http(app.url, 'PATCH', path, {
      token: app.token,
      headers: { 'if-match': before.headers.get('etag')! },
      body: { heading: 'Late' },
    });
    expect(stale.status).toBe(409);
    const listed = await owner.schedule.listScheduleLines.query({ projectId: app.projectId, q: 'Console table' });
    expect(listed.items.find((l) => l.id === line.id)!.specifications).toEqual(viaMcp.result.specifications);
    const detached = await callAction(mcp, 'detach_specification_from_line', {
      projectId: app.projectId,
      lineId: line.id,
      specificationId: spec.id,
      expectedVersion: 2,
    });
    expect(detached.result).toMatchObject({ specifications: [], version: 3 });
  });

  it('refuses a stale version, a specification the line does not have, and an archived line', async () => {
    const line = await newLine('Hall bench');
    const spec = await create({ name: 'Ash bench', category: 'seating' });
    const on = { projectId: app.projectId, lineId: line.id, specificationId: spec.id };
    expect(await codeOf(owner.specifications.attachSpecificationToLine.mutate({ ...on, expectedVersion: 7 }))).toBe(
      'VERSION_CONFLICT',
    );
    expect(await codeOf(owner.specifications.attachSpecificationToLine.mutate(on as never))).toBe(
      'PRECONDITION_REQUIRED',
    );
    expect(await codeOf(owner.specifications.detachSpecificationFromLine.mutate({ ...on, expectedVersion: 1 }))).toBe(
      'NOT_FOUND',
    );
    const archived = await owner.schedule.archiveScheduleLine.mutate({
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: 1,
    });
    expect(
      await codeOf(owner.specifications.attachSpecificationToLine.mutate({ ...on, expectedVersion: archived.version })),
    ).toBe('ARCHIVED');
  });

  it('needs procurement:write: an assistant reads lines with their specifications but cannot attach', async () => {
    const line = await newLine('Bedside lamp');
    const spec = await create({ name: 'Bedside lamp spec', category: 'lighting' });
    const assistant = await memberWithToken(app.database, 'assistant', [{ projectId: app.projectId, level: 'edit' }]);
    const asAssistant = trpc(app.url, assistant.token);
    expect(
      (await asAssistant.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id })).specifications,
    ).toEqual([]);
    expect(
      await codeOf(
        asAssistant.specifications.attachSpecificationToLine.mutate({
          projectId: app.projectId,
          lineId: line.id,
          specificationId: spec.id,
          expectedVersion: 1,
        }),
      ),
    ).toBe('FORBIDDEN');
  });
});

describe('archive_specification', () => {
  it('keeps it on the lines that have it, says so, refuses new lines and changes, and lists it as archived', async () => {
    const spec = await create({ name: 'Retired pendant', category: 'lighting' });
    const line = await newLine('Landing pendant');
    const other = await newLine('Stair pendant');
    await owner.specifications.attachSpecificationToLine.mutate({
      projectId: app.projectId,
      lineId: line.id,
      specificationId: spec.id,
      expectedVersion: 1,
    });
    const archived = await callAction(mcp, 'archive_specification', { specificationId: spec.id, expectedVersion: 1 });
    expect(archived.result.archived_at).not.toBeNull();
    expect(archived.result.note).toMatch(/^1 active line keeps this specification/);
    const kept = await readLine(line.id);
    expect(kept.specifications).toEqual([{ id: spec.id, name: 'Retired pendant', position: 1, archived: true }]);
    expect(kept.version).toBe(2);
    expect(
      await codeOf(
        owner.specifications.attachSpecificationToLine.mutate({
          projectId: app.projectId,
          lineId: other.id,
          specificationId: spec.id,
          expectedVersion: 1,
        }),
      ),
    ).toBe('ARCHIVED');
    expect(
      await codeOf(
        owner.specifications.updateSpecification.mutate({ specificationId: spec.id, expectedVersion: 2, name: 'x' }),
      ),
    ).toBe('ARCHIVED');
    expect(
      await codeOf(owner.specifications.archiveSpecification.mutate({ specificationId: spec.id, expectedVersion: 2 })),
    ).toBe('ALREADY_ARCHIVED');
    const active = await owner.specifications.listSpecifications.query({ q: 'Retired pendant' });
    expect(active.items).toEqual([]);
    const only = await owner.specifications.listSpecifications.query({ archived: 'only', q: 'Retired pendant' });
    expect(only.items.map((s) => s.id)).toEqual([spec.id]);
  });
});

describe('an archived project', () => {
  it('is frozen: its lines take no specification until it is restored', async () => {
    const project = await owner.projects.createStudioProject.mutate({ name: 'Frozen job', commandKey: uuid() });
    const line = await owner.schedule.createScheduleLine.mutate({
      projectId: project.id,
      sectionId: project.sections[0]!.id,
      heading: 'Chair',
      commandKey: uuid(),
    });
    const spec = await create({ name: 'Frozen chair', category: 'seating' });
    await owner.projects.archiveStudioProject.mutate({ projectId: project.id, expectedVersion: project.version });
    const refused = await callAction(mcp, 'attach_specification_to_line', {
      projectId: project.id,
      lineId: line.id,
      specificationId: spec.id,
      expectedVersion: 1,
    });
    expect(refused.code).toBe('ARCHIVED');
  });
});

// Last: it adds a second studio to the database.
describe('another studio', () => {
  it('its specifications and lines are NOT_FOUND wherever an input names them, and never listed or found here', async () => {
    const { them } = await studioOfTheirOwn(app, owner);
    const theirs = await them.specifications.createSpecification.mutate({
      name: 'Their secret sofa',
      category: 'seating',
      commandKey: uuid(),
    });
    const { project: theirProject, line: theirLine } = await projectWithLine(them);
    const mine = await create({ name: 'My chair', category: 'seating' });
    const myLine = await newLine('My line');
    expect(await codeOf(owner.specifications.getSpecification.query({ specificationId: theirs.id }))).toBe('NOT_FOUND');
    expect(
      await codeOf(
        owner.specifications.updateSpecification.mutate({ specificationId: theirs.id, expectedVersion: 1, name: 'x' }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(
        owner.specifications.archiveSpecification.mutate({ specificationId: theirs.id, expectedVersion: 1 }),
      ),
    ).toBe('NOT_FOUND');
    const attach = (projectId: string, lineId: string, specificationId: string) =>
      owner.specifications.attachSpecificationToLine.mutate({ projectId, lineId, specificationId, expectedVersion: 1 });
    expect(await codeOf(attach(app.projectId, myLine.id, theirs.id))).toBe('NOT_FOUND');
    expect(await codeOf(attach(theirProject.id, theirLine.id, mine.id))).toBe('NOT_FOUND');
    expect(await codeOf(attach(app.projectId, theirLine.id, mine.id))).toBe('NOT_FOUND');
    const viaMcp = await callAction(mcp, 'detach_specification_from_line', {
      projectId: app.projectId,
      lineId: myLine.id,
      specificationId: theirs.id,
      expectedVersion: 1,
    });
    expect(viaMcp.code).toBe('NOT_FOUND');
    expect((await owner.specifications.listSpecifications.query({ q: 'Their secret' })).items).toEqual([]);
    expect(
      (await owner.specifications.searchSpecifications.query({ q: 'their secret sofa' })).items.map(
        (h) => h.specification.id,
      ),
    ).not.toContain(theirs.id);
    expect((await them.specifications.listSpecifications.query({})).items.map((s) => s.id)).toEqual([theirs.id]);
  });
});
