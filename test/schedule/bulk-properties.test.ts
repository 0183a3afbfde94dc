/**
 * Custom property values in a line's patch (issue 26, item 6: one custom property on many lines in one call), through
 * bulk_update_schedule_lines over tRPC and MCP call_action: all or nothing, every version
 * checked before anything is written, each changed line exactly one version further with one audit event naming its
 * changed fields and values, refusals naming where the value was sent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import type { Trpc } from '../helpers/clients.js';
import { callAction, codeOf, errorOf } from '../helpers/calls.js';
import { uuid } from '../helpers/ids.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let projectId: string;
let lines: Array<{ id: string; version: number }>;
let rating: { id: string; name: string };

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  projectId = app.projectId;
  const sectionId = (await owner.projects.getStudioProject.query({ projectId })).sections[0]!.id;
  lines = [];
  for (const heading of ['Rated sofa', 'Rated chair', 'Rated ottoman', 'Rated stool'])
    lines.push(await owner.schedule.createScheduleLine.mutate({ commandKey: uuid(), projectId, sectionId, heading }));
  rating = await property('Fire rating (many)', 'text');
});

const property = (name: string, kind: string, pid = projectId) =>
  owner.properties.createCustomProperty.mutate({ projectId: pid, commandKey: uuid(), name, kind: kind as never });
const now = (id: string) => owner.schedule.getScheduleLine.query({ projectId, lineId: id });
const valueOn = (line: { properties: Array<{ propertyId: string; value: unknown }> }, propertyId = rating.id) =>
  line.properties.find((p) => p.propertyId === propertyId)?.value ?? null;
const events = async (lineId: string) =>
  (await owner.audit.listLineAuditEvents.query({ projectId, lineId, limit: 50 })).items;
/** Each line with the same patch and the version it was last read at. */
const patched = (ls: Array<{ id: string; version: number }>, patch: Record<string, unknown>) =>
  ls.map((l) => ({ lineId: l.id, expectedVersion: l.version, patch }));
const bulk = (entries: Array<{ lineId: string; expectedVersion: number; patch: Record<string, unknown> }>) =>
  owner.schedule.bulkUpdateScheduleLines.mutate({ projectId, lines: entries as never });

describe('custom property values in line patches', () => {
  it('sets one value on three lines in one call, each a version further with one audit event of its own', async () => {
    const three = lines.slice(0, 3);
    const before = await Promise.all(three.map((l) => events(l.id)));
    const res = await bulk(patched(three, { properties: { [rating.id]: 'Crib 5' } }));
    expect(res.lines.map((l) => l.id)).toEqual(three.map((l) => l.id));
    for (const [i, l] of res.lines.entries()) {
      expect(l.version).toBe(three[i]!.version + 1);
      expect(valueOn(l)).toBe('Crib 5');
      expect(valueOn(await now(l.id))).toBe('Crib 5');
      const after = await events(l.id);
      expect(after).toHaveLength(before[i]!.length + 1);
      expect(after[0]!.action).toBe('bulk_update_schedule_lines');
      expect(after[0]!.changes).toEqual({ 'property:Fire rating (many)': { from: null, to: 'Crib 5' } });
    }
    expect(valueOn(await now(lines[3]!.id))).toBeNull();
    lines.splice(0, 3, ...res.lines);
  });

  it('fields and values changed by one patch move the line exactly one version, with one event naming both', async () => {
    const [a, b] = lines as [(typeof lines)[0], (typeof lines)[0]];
    const seen = (await events(a.id)).length;
    const [one] = (
      await bulk([{ ...patched([a], { finish: 'Oiled oak', properties: { [rating.id]: 'Crib 7' } })[0]! }])
    ).lines;
    expect(one!.version).toBe(a.version + 1);
    expect(one!.finish).toBe('Oiled oak');
    expect(valueOn(one!)).toBe('Crib 7');
    const trail = await events(a.id);
    expect(trail).toHaveLength(seen + 1);
    expect(trail[0]!.changes).toEqual({
      finish: { from: null, to: 'Oiled oak' },
      'property:Fire rating (many)': { from: 'Crib 5', to: 'Crib 7' },
    });
    // update_schedule_line takes fields only (tools/list has no room for values): properties there is refused.
    const single = owner.schedule.updateScheduleLine.mutate({
      projectId,
      lineId: b.id,
      expectedVersion: b.version,
      patch: { brand: 'Ercol', properties: { [rating.id]: 'Crib 7' } } as never,
    });
    expect(await codeOf(single)).toBe('VALIDATION_FAILED');
    expect(await now(b.id)).toMatchObject({ version: b.version, brand: null });
    lines.splice(0, 1, one!);
  });

  it('refuses a stale version on any line, naming it, and writes nothing on the others', async () => {
    const [a, b, , d] = lines as [(typeof lines)[0], (typeof lines)[0], (typeof lines)[0], (typeof lines)[0]];
    const stale = { ...a, version: a.version - 1 };
    const err = await errorOf(bulk(patched([d, stale, b], { properties: { [rating.id]: 'Crib 9' } })));
    expect(err.data.serviceCode).toBe('VERSION_CONFLICT');
    expect(err.data.errors).toEqual([{ path: 'lines.1.expectedVersion', message: expect.stringContaining(a.id) }]);
    expect([valueOn(await now(a.id)), valueOn(await now(b.id))]).toEqual(['Crib 7', 'Crib 5']);
    expect(await now(d.id)).toMatchObject({ version: d.version, properties: [] });
  });

  it('a value that does not fit its property, on the last line, leaves every line as it was, naming the path', async () => {
    const width = await property('Width mm (many)', 'number');
    const [a, b, c] = lines as [(typeof lines)[0], (typeof lines)[0], (typeof lines)[0]];
    const err = await errorOf(
      bulk([
        ...patched([a, b], { finish: 'Should not land', properties: { [width.id]: { amount4: '12000' } } }),
        ...patched([c], { properties: { [width.id]: '12 mm' } }),
      ]),
    );
    expect(err.data.serviceCode).toBe('VALIDATION_FAILED');
    expect(err.message).toContain('amount4');
    expect(err.data.errors).toEqual([{ path: `lines.2.patch.properties.${width.id}`, message: expect.any(String) }]);
    for (const l of [a, b, c]) {
      const line = await now(l.id);
      expect(line.version).toBe(l.version);
      expect(valueOn(line, width.id)).toBeNull();
      expect(line.finish).not.toBe('Should not land');
    }
  });

  it('a choice takes only active options of its property: an archived one is refused, naming the path', async () => {
    const [a, , c] = lines as [(typeof lines)[0], (typeof lines)[0], (typeof lines)[0]];
    const leg = await owner.properties.createCustomProperty.mutate({
      projectId,
      commandKey: uuid(),
      name: 'Leg finish (many)',
      kind: 'single_choice',
      options: ['Oak', 'Walnut'],
    });
    const [oak, walnut] = [leg.options[0]!, leg.options[1]!];
    await owner.properties.archiveCustomPropertyOption.mutate({
      projectId,
      propertyId: leg.id,
      optionId: walnut.id,
      expectedVersion: 1,
    });
    const err = await errorOf(
      bulk([
        ...patched([a], { properties: { [leg.id]: oak.id } }),
        ...patched([c], { properties: { [leg.id]: walnut.id } }),
      ]),
    );
    expect(err.data.serviceCode).toBe('VALIDATION_FAILED');
    expect(err.message).toContain('not an active option');
    expect(err.data.errors).toEqual([{ path: `lines.1.patch.properties.${leg.id}`, message: expect.any(String) }]);
    expect(await now(a.id)).toMatchObject({ version: a.version });
    const both = await bulk(patched([a, c], { properties: { [leg.id]: oak.id } }));
    expect(both.lines.map((l) => [valueOn(l, leg.id), l.version])).toEqual([
      [oak.id, a.version + 1],
      [oak.id, c.version + 1],
    ]);
    lines.splice(0, 1, both.lines[0]!);
    lines.splice(2, 1, both.lines[1]!);
  });

  it("refuses another project's property (NOT_FOUND) and an archived one (ARCHIVED), writing nothing", async () => {
    const [a, b] = lines as [(typeof lines)[0], (typeof lines)[0]];
    const elsewhere = await owner.projects.createStudioProject.mutate({ name: 'Another job', commandKey: uuid() });
    const foreign = await property('Fire rating', 'text', elsewhere.id);
    const err = await errorOf(
      bulk([
        ...patched([a], { properties: { [rating.id]: 'Crib 9' } }),
        ...patched([b], { properties: { [foreign.id]: 'Crib 9' } }),
      ]),
    );
    expect(err.data.serviceCode).toBe('NOT_FOUND');
    expect(err.data.errors).toEqual([{ path: `lines.1.patch.properties.${foreign.id}`, message: expect.any(String) }]);
    const old = await property('Old rating', 'text');
    await owner.properties.archiveCustomProperty.mutate({ projectId, propertyId: old.id, expectedVersion: 1 });
    const archived = bulk(patched([a], { properties: { [old.id]: 'Crib 9' } }));
    expect(await codeOf(archived)).toBe('ARCHIVED');
    for (const l of [a, b]) expect(await now(l.id)).toMatchObject({ version: l.version });
    expect(valueOn(await now(a.id))).toBe('Crib 7');
  });

  it('refuses a line named twice, an archived line and an empty properties object, writing nothing', async () => {
    const [a, , , d] = lines;
    const twice = bulk(patched([a!, a!], { properties: { [rating.id]: 'x' } }));
    expect(await codeOf(twice)).toBe('VALIDATION_FAILED');
    expect(await codeOf(bulk(patched([a!], { properties: {} })))).toBe('VALIDATION_FAILED');
    const archived = await owner.schedule.archiveScheduleLine.mutate({
      projectId,
      lineId: d!.id,
      expectedVersion: d!.version,
    });
    expect(await codeOf(bulk(patched([a!, archived], { properties: { [rating.id]: 'Crib 9' } })))).toBe('ARCHIVED');
    expect(await now(a!.id)).toMatchObject({ version: a!.version });
    expect(valueOn(await now(a!.id))).toBe('Crib 7');
  });

  it('clears with null through MCP call_action; a line that already holds the value stays at its version', async () => {
    const [a, b] = lines as [(typeof lines)[0], (typeof lines)[0]];
    const seen = (await events(b.id)).length;
    const cleared = await callAction(mcp, 'bulk_update_schedule_lines', {
      projectId,
      lines: [
        ...patched([a], { properties: { [rating.id]: null } }),
        ...patched([b], { properties: { [rating.id]: 'Crib 5' } }),
      ],
    });
    expect(cleared.error).toBeUndefined();
    const [ca, cb] = cleared.result.lines;
    expect([valueOn(ca), ca.version]).toEqual([null, a.version + 1]);
    expect((await events(a.id))[0]!.changes).toEqual({
      'property:Fire rating (many)': { from: 'Crib 7', to: null },
    });
    expect([valueOn(cb), cb.version]).toEqual(['Crib 5', b.version]);
    expect(await events(b.id)).toHaveLength(seen);
  });
});
