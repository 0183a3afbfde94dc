import { SUPPLIER_RECORD } from '../../src/domain/suppliers/record.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { http, trpc, type Trpc } from '../helpers/clients.js';
import { allPages, callAction, codeOf, errorOf } from '../helpers/calls.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';
import { postProject } from '../helpers/projects.js';
import { createLine } from '../helpers/schedule.js';
import { ACTIONS } from '../../actions/index.js';
import { createStudioWithOwner } from '../../src/domain/studio/onboarding.js';
import { newId } from '../../src/core/ids.js';

/**
 * The schedule procedures through the typed tRPC client, several also through MCP `call_action` (same result, same
 * error code). Every call runs the real server in-process over a real SQLite file.
 */
let app: TestApp;
let owner: Trpc;
let mcp: Client;
let sections: Array<{ id: string; title: string }>;

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  sections = (await http(app.url, 'GET', `/v1/projects/${app.projectId}`, { token: app.token })).body.sections;
});

type ListInput = Parameters<Trpc['schedule']['listScheduleLines']['query']>[0];

/**
 * Every line a list gives, read 5 at a time: each response stays well under the 8,000-byte large-result bound, so what
 * is compared is always the plain result, never a result_page.
 */
async function allLines(client: Trpc, input: ListInput) {
  return allPages((cursor) => client.schedule.listScheduleLines.query({ ...input, limit: 5, cursor }));
}

async function newLine(
  heading = `Line ${uuid().slice(0, 8)}`,
  sectionId = sections[0]!.id,
  extra: Record<string, unknown> = {},
) {
  return createLine(owner, { projectId: app.projectId, sectionId, heading, ...extra });
}

/** A second project in the studio, made through the resource API. */
const newProject = (name: string, currency?: string) =>
  postProject(app, { name, sections: ['Hall', 'Study'], ...(currency ? { currency } : {}) });

describe('list_schedule_lines and get_schedule_line', () => {
  it('shows the supplier and unit names beside their ids', async () => {
    const items = await allLines(owner, { projectId: app.projectId });
    const suppliers = await owner.suppliers.listSuppliers.query({});
    const named = new Map(suppliers.items.map((s) => [s.id, s.name]));
    for (const l of items) {
      expect(l.supplierName).toBe(l.supplierId === null ? null : named.get(l.supplierId));
      expect(l.unitName).toEqual(expect.any(String));
    }
  });

  it('filters by price state, by supplier, and finds lines by finish or supplier name', async () => {
    const all = await allLines(owner, { projectId: app.projectId });
    const tbc = await allLines(owner, { projectId: app.projectId, priceState: 'tbc' });
    expect(tbc.length).toBeGreaterThan(0);
    expect(tbc.length).toBeLessThan(all.length);
    for (const l of tbc) expect([l.clientPrice.state, l.tradePrice?.state]).toContain('tbc');
    const supplierId = all.find((l) => l.supplierId)!.supplierId!;
    const bySupplier = await allLines(owner, { projectId: app.projectId, supplierId });
    expect(bySupplier.map((l) => l.id).sort()).toEqual(
      all
        .filter((l) => l.supplierId === supplierId)
        .map((l) => l.id)
        .sort(),
    );
    const supplierName = all.find((l) => l.supplierId === supplierId)!.supplierName!;
    const byName = await allLines(owner, { projectId: app.projectId, q: supplierName.slice(0, 6).toUpperCase() });
    expect(byName.some((l) => l.supplierId === supplierId)).toBe(true);
    const withFinish = all.find((l) => l.finish)!;
    const byFinish = await allLines(owner, { projectId: app.projectId, q: withFinish.finish! });
    expect(byFinish.map((l) => l.id)).toContain(withFinish.id);
  });

  it('lists in document order, the same lines REST and MCP give', async () => {
    const items = await allLines(owner, { projectId: app.projectId });
    expect(items.length).toBeGreaterThan(20);
    const order = sections.map((s) => s.id);
    const keys = items.map((l) => [order.indexOf(l.sectionId), l.position]);
    const sorted = [...keys].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
    expect(keys).toEqual(sorted);
    const rest = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items`, { token: app.token });
    expect(items).toEqual(rest.body.items);
    const page = await owner.schedule.listScheduleLines.query({ projectId: app.projectId, limit: 5 });
    expect(page.items).toEqual(items.slice(0, 5));
    const m = await callAction(mcp, 'list_schedule_lines', { projectId: app.projectId, limit: 5 });
    expect(m.result).toEqual(page);
    const m2 = await callAction(mcp, 'list_schedule_lines', {
      projectId: app.projectId,
      limit: 5,
      cursor: page.nextCursor,
    });
    expect(m2.result.items).toEqual(items.slice(5, 10));
  });

  it('filters by section and pages with a cursor', async () => {
    const section = sections[1]!.id;
    const all = { items: await allLines(owner, { projectId: app.projectId, sectionId: section }) };
    expect(all.items.length).toBeGreaterThan(4);
    expect(all.items.every((l) => l.sectionId === section)).toBe(true);
    const first = await owner.schedule.listScheduleLines.query({
      projectId: app.projectId,
      sectionId: section,
      limit: 2,
    });
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await owner.schedule.listScheduleLines.query({
      projectId: app.projectId,
      sectionId: section,
      limit: 2,
      cursor: first.nextCursor!,
    });
    expect(second.items.map((l) => l.id)).toEqual(all.items.slice(2, 4).map((l) => l.id));
    expect(
      await codeOf(owner.schedule.listScheduleLines.query({ projectId: app.projectId, cursor: 'not-a-cursor' })),
    ).toBe('VALIDATION_FAILED');
  });

  it('reads one line as the list shows it, over tRPC and MCP', async () => {
    const [line] = (await owner.schedule.listScheduleLines.query({ projectId: app.projectId, limit: 1 })).items;
    const got = await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line!.id });
    expect(got).toEqual(line);
    expect((await callAction(mcp, 'get_schedule_line', { projectId: app.projectId, lineId: line!.id })).result).toEqual(
      got,
    );
  });

  it('a line is not addressable outside its project: another project id answers NOT_FOUND', async () => {
    const other = await newProject('Other house');
    const [line] = (await owner.schedule.listScheduleLines.query({ projectId: app.projectId, limit: 1 })).items;
    expect(await codeOf(owner.schedule.getScheduleLine.query({ projectId: other.id, lineId: line!.id }))).toBe(
      'NOT_FOUND',
    );
    expect((await callAction(mcp, 'get_schedule_line', { projectId: other.id, lineId: line!.id })).code).toBe(
      'NOT_FOUND',
    );
    expect(
      await codeOf(
        owner.schedule.updateScheduleLine.mutate({
          projectId: other.id,
          lineId: line!.id,
          expectedVersion: line!.version,
          patch: { finish: 'x' },
        }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(
        owner.schedule.archiveScheduleLine.mutate({
          projectId: other.id,
          lineId: line!.id,
          expectedVersion: line!.version,
        }),
      ),
    ).toBe('NOT_FOUND');
    expect(await codeOf(owner.schedule.getScheduleLineHistory.query({ projectId: other.id, lineId: line!.id }))).toBe(
      'NOT_FOUND',
    );
    // Unchanged by the refused write.
    expect((await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line!.id })).version).toBe(
      line!.version,
    );
  });

  it('ids are opaque: a malformed id that names nothing is the same NOT_FOUND; unknown fields are refused', async () => {
    expect(await codeOf(owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: 'nope' }))).toBe(
      'NOT_FOUND',
    );
    expect(
      await codeOf(
        owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: 'a'.repeat(26), extra: 1 } as never),
      ),
    ).toBe('VALIDATION_FAILED');
    expect(
      await codeOf(owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: 'a'.repeat(26) })),
    ).toBe('NOT_FOUND');
  });
});

describe('create_schedule_line', () => {
  it('adds a draft line at the end of the section with the next code and version 1', async () => {
    const section = sections[2]!.id;
    const before = { items: await allLines(owner, { projectId: app.projectId, sectionId: section }) };
    const codes = (await allLines(owner, { projectId: app.projectId, archived: 'include' })).map((l) =>
      Number(l.code!.slice(3)),
    );
    const line = await newLine('Pendant light', section, { retailPrice: { state: 'set', amount4: '1250000' } });
    expect(line).toMatchObject({
      heading: 'Pendant light',
      status: 'draft',
      version: 1,
      archived_at: null,
      sectionId: section,
      position: before.items.length + 1,
    });
    expect(line.code).toBe(`FF-${String(Math.max(...codes) + 1).padStart(3, '0')}`);
    expect(line.retailPrice).toEqual({ price: { amount4: '1250000', currency: 'GBP' }, state: 'set' });
  });

  it('numbers after the highest numbered code, past 999 too; hand-set codes that are not prefix + number do not count', async () => {
    const project = await owner.projects.createStudioProject.mutate({ name: 'Codes', commandKey: uuid() });
    const sectionId = project.sections[0]!.id;
    const add = (heading: string, code?: string) =>
      owner.schedule.createScheduleLine.mutate({
        projectId: project.id,
        sectionId,
        heading,
        code,
        commandKey: uuid(),
      });
    expect((await add('First')).code).toBe('FF-001');
    for (const code of ['FF-12a', 'FF-0999', 'LT-500', 'FF-']) await add(`Odd ${code}`, code);
    expect((await add('After odd ones')).code).toBe('FF-002');
    await add('Jump', 'FF-999');
    expect((await add('Past 999')).code).toBe('FF-1000');
    expect((await add('And on')).code).toBe('FF-1001');
  });

  it('a repeated commandKey with the same input returns the first line; with other input it is refused', async () => {
    const commandKey = uuid();
    const input = { projectId: app.projectId, sectionId: sections[0]!.id, heading: 'Side table', commandKey };
    const a = await owner.schedule.createScheduleLine.mutate(input);
    const b = await owner.schedule.createScheduleLine.mutate(input);
    expect(b).toEqual(a);
    const again = await callAction(mcp, 'create_schedule_line', input);
    expect(again.result).toEqual(a);
    expect(
      await codeOf(
        owner.schedule.createScheduleLine.mutate({
          ...input,
          heading: 'Another table',
        }),
      ),
    ).toBe('IDEMPOTENCY_KEY_REUSED');
    const all = await owner.schedule.listScheduleLines.query({ projectId: app.projectId, q: 'Side table' });
    expect(all.items.filter((l) => l.heading === 'Side table')).toHaveLength(1);
  });

  it('validates its input', async () => {
    const base = { projectId: app.projectId, sectionId: sections[0]!.id };
    expect(await codeOf(owner.schedule.createScheduleLine.mutate({ commandKey: uuid(), ...base } as never))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await codeOf(owner.schedule.createScheduleLine.mutate({ commandKey: uuid(), ...base, heading: '' }))).toBe(
      'VALIDATION_FAILED',
    );
    const floaty = await errorOf(
      owner.schedule.createScheduleLine.mutate({
        commandKey: uuid(),
        ...base,
        heading: 'x',
        retailPrice: { state: 'set', amount4: 12.5 as never },
      }),
    );
    expect(floaty.data.serviceCode).toBe('VALIDATION_FAILED');
    expect(floaty.data.errors[0].path).toBe('retailPrice.amount4');
    expect(
      await codeOf(
        owner.schedule.createScheduleLine.mutate({
          commandKey: uuid(),
          ...base,
          heading: 'x',
          // @ts-expect-error the published type already refuses an amount on "tbc"; the server must too
          retailPrice: { state: 'tbc', amount4: '100' },
        }),
      ),
    ).toBe('VALIDATION_FAILED');
    expect(
      await codeOf(
        owner.schedule.createScheduleLine.mutate({
          commandKey: uuid(),
          ...base,
          sectionId: 'b'.repeat(26),
          heading: 'x',
        }),
      ),
    ).toBe('NOT_FOUND');
  });
});

describe('update_schedule_line', () => {
  it('a patch that changes nothing leaves the version, updatedAt and the audit feed as they were', async () => {
    const line = await owner.schedule.updateScheduleLine.mutate({
      ...(await newLine().then((l) => ({ projectId: app.projectId, lineId: l.id }))),
      expectedVersion: 1,
      patch: { finish: 'Smoked oak' },
    });
    const history = async () =>
      (await owner.schedule.getScheduleLineHistory.query({ projectId: app.projectId, lineId: line.id })).items.length;
    const events = await history();
    const same = await owner.schedule.updateScheduleLine.mutate({
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: line.version,
      patch: { finish: 'Smoked oak', heading: line.heading },
    });
    expect(same).toMatchObject({ version: line.version, updatedAt: line.updatedAt, finish: 'Smoked oak' });
    expect(await history()).toBe(events);
  });

  it('a view grant with ids that do not belong together answers 404, revealing nothing, before the grant’s 403', async () => {
    const viewer = trpc(
      app.url,
      (await memberWithToken(app.database, 'designer', [{ projectId: app.projectId, level: 'view' }])).token,
    );
    const other = await newProject('Not yours');
    const line = await newLine();
    const patch = { patch: { finish: 'x' }, expectedVersion: 1 };
    expect(
      await codeOf(viewer.schedule.updateScheduleLine.mutate({ projectId: app.projectId, lineId: newId(), ...patch })),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(viewer.schedule.updateScheduleLine.mutate({ projectId: other.id, lineId: line.id, ...patch })),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(viewer.schedule.updateScheduleLine.mutate({ projectId: app.projectId, lineId: line.id, ...patch })),
    ).toBe('FORBIDDEN');
  });

  it('applies the patch, bumps the version, and matches MCP', async () => {
    const line = await newLine();
    const updated = await owner.schedule.updateScheduleLine.mutate({
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: 1,
      patch: { finish: 'Smoked oak', leadTimeDays: 30 },
    });
    expect(updated).toMatchObject({ finish: 'Smoked oak', leadTimeDays: 30, version: 2, heading: line.heading });
    const viaM = await callAction(mcp, 'update_schedule_line', {
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: 2,
      patch: { finish: null },
    });
    expect(viaM.result).toMatchObject({ finish: null, leadTimeDays: 30, version: 3 });
    expect(await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id })).toEqual(
      viaM.result,
    );
  });

  it('refuses a stale version (VERSION_CONFLICT) and a missing one (PRECONDITION_REQUIRED), over both surfaces', async () => {
    const line = await newLine();
    await owner.schedule.updateScheduleLine.mutate({
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: 1,
      patch: { brand: 'A' },
    });
    const stale = { projectId: app.projectId, lineId: line.id, expectedVersion: 1, patch: { brand: 'B' } };
    const err = await errorOf(owner.schedule.updateScheduleLine.mutate(stale));
    expect(err.data.serviceCode).toBe('VERSION_CONFLICT');
    expect(err.data.currentVersion).toBe(2);
    expect((await callAction(mcp, 'update_schedule_line', stale)).code).toBe('VERSION_CONFLICT');
    const { expectedVersion: _v, ...missing } = stale;
    expect(await codeOf(owner.schedule.updateScheduleLine.mutate(missing))).toBe('PRECONDITION_REQUIRED');
    expect((await callAction(mcp, 'update_schedule_line', missing)).code).toBe('PRECONDITION_REQUIRED');
    expect((await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id })).brand).toBe('A');
  });

  it('refuses an empty patch, unknown patch fields and foreign reference ids', async () => {
    const line = await newLine();
    const at = { projectId: app.projectId, lineId: line.id, expectedVersion: 1 };
    expect(await codeOf(owner.schedule.updateScheduleLine.mutate({ ...at, patch: {} }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(owner.schedule.updateScheduleLine.mutate({ ...at, patch: { colour: 'red' } as never }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(
      await codeOf(owner.schedule.updateScheduleLine.mutate({ ...at, patch: { supplierId: 'c'.repeat(26) } })),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(
        owner.schedule.updateScheduleLine.mutate({
          ...at,
          patch: { quantity: { amount4: '20000', unitId: 'c'.repeat(26) } },
        }),
      ),
    ).toBe('NOT_FOUND');
    expect((await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id })).version).toBe(1);
  });
});

describe('pricing visibility and pricing writes (assistant: projects r/w, no pricing)', () => {
  let assistant: Trpc;
  let assistantMcp: Client;
  beforeAll(async () => {
    const { token } = await memberWithToken(app.database, 'assistant', [{ projectId: app.projectId, level: 'edit' }]);
    assistant = trpc(app.url, token);
    assistantMcp = await app.mcp(token);
  });

  it('trade price, markup and margin are absent (not null) for the assistant, present for the owner', async () => {
    const line = await newLine('Priced chair', sections[0]!.id, {
      tradePrice: { state: 'set', amount4: '1000000' },
      markup: { ratio4: '5000' },
    });
    const mine = await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id });
    expect(mine.tradePrice).toEqual({ price: { amount4: '1000000', currency: 'GBP' }, state: 'set' });
    expect(mine.markup).toEqual({ ratio4: '5000' });
    expect(mine.margin).toEqual({ amount4: '500000', currency: 'GBP' });
    const theirs = await assistant.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id });
    for (const field of ['tradePrice', 'markup', 'margin']) expect(theirs).not.toHaveProperty(field);
    expect(theirs.clientPrice).toEqual(mine.clientPrice);
    const listed = { items: await allLines(assistant, { projectId: app.projectId }) };
    expect(listed.items.length).toBeGreaterThan(20);
    expect(listed.items.some((l) => 'tradePrice' in l || 'markup' in l || 'margin' in l)).toBe(false);
    const m = await callAction(assistantMcp, 'get_schedule_line', { projectId: app.projectId, lineId: line.id });
    expect(m.result).toEqual(theirs);
  });

  it('a priceState filter answers the assistant by the client price it sees, never by the hidden trade price', async () => {
    // The trade price is still to confirm, the client price set by hand: to the assistant this line is priced.
    const line = await newLine('Chair priced by hand', sections[0]!.id, {
      tradePrice: { state: 'tbc' },
      clientPrice: { state: 'set', amount4: '2500000' },
    });
    const ids = async (client: Trpc, priceState: 'tbc' | 'set') =>
      (await allLines(client, { projectId: app.projectId, priceState })).map((l) => l.id);
    expect(await ids(owner, 'tbc')).toContain(line.id);
    expect(await ids(assistant, 'tbc')).not.toContain(line.id);
    expect(await ids(assistant, 'set')).toContain(line.id);
    const tbc = (await allLines(assistant, { projectId: app.projectId, priceState: 'tbc' })).map((l) => l.clientPrice);
    expect(tbc.length).toBeGreaterThan(0);
    for (const price of tbc) expect(price.state).toBe('tbc');
  });

  it('writing tradePrice or markup without pricing:write is FORBIDDEN; other fields are fine', async () => {
    const line = await newLine();
    const at = { projectId: app.projectId, lineId: line.id, expectedVersion: 1 };
    expect(
      await codeOf(
        assistant.schedule.updateScheduleLine.mutate({ ...at, patch: { tradePrice: { state: 'set', amount4: '10' } } }),
      ),
    ).toBe('FORBIDDEN');
    expect(await codeOf(assistant.schedule.updateScheduleLine.mutate({ ...at, patch: { markup: null } }))).toBe(
      'FORBIDDEN',
    );
    expect(
      (await callAction(assistantMcp, 'update_schedule_line', { ...at, patch: { markup: { ratio4: '1' } } })).code,
    ).toBe('FORBIDDEN');
    expect(
      await codeOf(
        assistant.schedule.createScheduleLine.mutate({
          commandKey: uuid(),
          projectId: app.projectId,
          sectionId: sections[0]!.id,
          heading: 'x',
          tradePrice: { state: 'tbc' },
        }),
      ),
    ).toBe('FORBIDDEN');
    expect(
      await codeOf(
        assistant.schedule.bulkUpdateScheduleLines.mutate({
          projectId: app.projectId,
          lines: [{ lineId: line.id, expectedVersion: 1, patch: { tradePrice: { state: 'poa' } } }],
        }),
      ),
    ).toBe('FORBIDDEN');
    const ok = await assistant.schedule.updateScheduleLine.mutate({
      ...at,
      patch: { retailPrice: { state: 'set', amount4: '990000' }, finish: 'Walnut' },
    });
    expect(ok).toMatchObject({ version: 2, finish: 'Walnut' });
    expect(ok).not.toHaveProperty('tradePrice');
  });

  it('a viewer cannot write at all, and members without a grant do not see the project', async () => {
    const { token } = await memberWithToken(app.database, 'viewer', [{ projectId: app.projectId, level: 'view' }]);
    const viewer = trpc(app.url, token);
    const line = await newLine();
    expect((await viewer.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id })).id).toBe(
      line.id,
    );
    expect(
      await codeOf(
        viewer.schedule.setScheduleLineStatus.mutate({
          projectId: app.projectId,
          lineId: line.id,
          expectedVersion: 1,
          status: 'approved',
        }),
      ),
    ).toBe('FORBIDDEN');
    const stranger = trpc(app.url, (await memberWithToken(app.database, 'designer')).token);
    expect(await codeOf(stranger.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id }))).toBe(
      'NOT_FOUND',
    );
    const view = trpc(
      app.url,
      (await memberWithToken(app.database, 'designer', [{ projectId: app.projectId, level: 'view' }])).token,
    );
    expect(
      await codeOf(
        view.schedule.archiveScheduleLine.mutate({ projectId: app.projectId, lineId: line.id, expectedVersion: 1 }),
      ),
    ).toBe('FORBIDDEN');
    expect(
      await codeOf(trpc(app.url, 'studio_not-a-token').schedule.listScheduleLines.query({ projectId: app.projectId })),
    ).toBe('UNAUTHENTICATED');
  });
});

describe('bulk_update_schedule_lines', () => {
  it('applies every patch, each line one version up', async () => {
    const [a, b, c] = [await newLine(), await newLine(), await newLine()];
    const res = await owner.schedule.bulkUpdateScheduleLines.mutate({
      projectId: app.projectId,
      lines: [
        { lineId: a.id, expectedVersion: 1, patch: { status: 'specified' } },
        { lineId: b.id, expectedVersion: 1, patch: { finish: 'Brass' } },
        { lineId: c.id, expectedVersion: 1, patch: { quantity: { amount4: '30000' } } },
      ],
    });
    expect(res.lines.map((l) => [l.id, l.version])).toEqual([
      [a.id, 2],
      [b.id, 2],
      [c.id, 2],
    ]);
    expect(res.lines[0]!.status).toBe('specified');
    expect(res.lines[1]!.finish).toBe('Brass');
    expect(res.lines[2]!.quantity).toEqual({ amount4: '30000', unitId: c.quantity.unitId });
  });

  it('one stale version: VERSION_CONFLICT naming the line, and nothing at all is applied', async () => {
    const [a, b, c] = [await newLine(), await newLine(), await newLine()];
    await owner.schedule.updateScheduleLine.mutate({
      projectId: app.projectId,
      lineId: b.id,
      expectedVersion: 1,
      patch: { brand: 'Changed elsewhere' },
    });
    const input = {
      projectId: app.projectId,
      lines: [
        { lineId: a.id, expectedVersion: 1, patch: { finish: 'Should not land' } },
        { lineId: b.id, expectedVersion: 1, patch: { finish: 'Should not land' } },
        { lineId: c.id, expectedVersion: 1, patch: { finish: 'Should not land' } },
      ],
    };
    const err = await errorOf(owner.schedule.bulkUpdateScheduleLines.mutate(input));
    expect(err.data.serviceCode).toBe('VERSION_CONFLICT');
    expect(err.data.lineId).toBe(b.id);
    expect(err.data.currentVersion).toBe(2);
    expect(err.message).toContain(b.id);
    expect(err.data.errors).toEqual([{ path: 'lines.1.expectedVersion', message: expect.stringContaining(b.id) }]);
    expect((await callAction(mcp, 'bulk_update_schedule_lines', input)).code).toBe('VERSION_CONFLICT');
    for (const line of [a, c]) {
      const now = await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id });
      expect(now).toMatchObject({ version: 1, finish: null });
      const history = await owner.schedule.getScheduleLineHistory.query({ projectId: app.projectId, lineId: line.id });
      expect(history.items.map((e) => e.action)).toEqual(['create_schedule_line']);
    }
    expect((await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: b.id })).finish).toBeNull();
  });

  it('refuses duplicates, foreign lines, archived lines and oversize batches, applying nothing', async () => {
    const [a, b] = [await newLine(), await newLine()];
    const other = await newProject('Bulk elsewhere');
    const foreign = await owner.schedule.createScheduleLine.mutate({
      commandKey: uuid(),
      projectId: other.id,
      sectionId: other.sections[0]!.id,
      heading: 'Elsewhere',
    });
    const patch = { finish: 'Nope' };
    expect(
      await codeOf(
        owner.schedule.bulkUpdateScheduleLines.mutate({
          projectId: app.projectId,
          lines: [
            { lineId: a.id, expectedVersion: 1, patch },
            { lineId: a.id, expectedVersion: 1, patch },
          ],
        }),
      ),
    ).toBe('VALIDATION_FAILED');
    expect(
      await codeOf(
        owner.schedule.bulkUpdateScheduleLines.mutate({
          projectId: app.projectId,
          lines: [
            { lineId: a.id, expectedVersion: 1, patch },
            { lineId: foreign.id, expectedVersion: 1, patch },
          ],
        }),
      ),
    ).toBe('NOT_FOUND');
    await owner.schedule.archiveScheduleLine.mutate({ projectId: app.projectId, lineId: b.id, expectedVersion: 1 });
    expect(
      await codeOf(
        owner.schedule.bulkUpdateScheduleLines.mutate({
          projectId: app.projectId,
          lines: [
            { lineId: a.id, expectedVersion: 1, patch },
            { lineId: b.id, expectedVersion: 2, patch },
          ],
        }),
      ),
    ).toBe('ARCHIVED');
    const tooMany = Array.from({ length: 501 }, () => ({ lineId: a.id, expectedVersion: 1, patch }));
    expect(
      await codeOf(owner.schedule.bulkUpdateScheduleLines.mutate({ projectId: app.projectId, lines: tooMany })),
    ).toBe('VALIDATION_FAILED');
    expect(await codeOf(owner.schedule.bulkUpdateScheduleLines.mutate({ projectId: app.projectId, lines: [] }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: a.id })).toMatchObject({
      version: 1,
      finish: null,
    });
  });
});

describe('duplicate_schedule_line', () => {
  it('places a copy right after its source with a new id, the next code and version 1; a replay returns it again', async () => {
    const section = sections[3]!.id;
    const lines = await allLines(owner, { projectId: app.projectId, sectionId: section });
    const source = lines[0]!;
    const next = lines[1]!;
    const commandKey = uuid();
    const copy = await owner.schedule.duplicateScheduleLine.mutate({
      projectId: app.projectId,
      lineId: source.id,
      commandKey,
    });
    expect(copy.status).toBe('draft');
    expect(copy).toMatchObject({
      heading: source.heading,
      sectionId: section,
      position: source.position + 1,
      version: 1,
    });
    expect(copy.id).not.toBe(source.id);
    expect(copy.code).not.toBe(source.code);
    expect(
      await owner.schedule.duplicateScheduleLine.mutate({ projectId: app.projectId, lineId: source.id, commandKey }),
    ).toEqual(copy);
    const after = await allLines(owner, { projectId: app.projectId, sectionId: section });
    expect(after).toHaveLength(lines.length + 1);
    expect(after.find((l) => l.id === next.id)!.position).toBe(next.position + 1);
    expect(after.find((l) => l.id === source.id)).toMatchObject({ position: source.position, version: source.version });
  });
});

describe('archive_schedule_line and restore_schedule_line', () => {
  it('archival sets archived_at and version+1; the line stays readable; a second archival is ALREADY_ARCHIVED', async () => {
    const line = await newLine();
    const archived = await owner.schedule.archiveScheduleLine.mutate({
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: 1,
    });
    expect(archived.version).toBe(2);
    expect(archived.archived_at).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
    expect(
      await codeOf(
        owner.schedule.archiveScheduleLine.mutate({ projectId: app.projectId, lineId: line.id, expectedVersion: 2 }),
      ),
    ).toBe('ALREADY_ARCHIVED');
    expect(
      (
        await callAction(mcp, 'archive_schedule_line', {
          projectId: app.projectId,
          lineId: line.id,
          expectedVersion: 2,
        })
      ).code,
    ).toBe('ALREADY_ARCHIVED');
    expect(await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id })).toEqual(archived);
    const active = await allLines(owner, { projectId: app.projectId });
    expect(active.length).toBeGreaterThan(20);
    expect(active.some((l) => l.id === line.id)).toBe(false);
    const only = await allLines(owner, { projectId: app.projectId, archived: 'only' });
    expect(only.map((l) => l.id)).toContain(line.id);
    expect(only.every((l) => l.archived_at !== null)).toBe(true);
    expect(
      await codeOf(
        owner.schedule.updateScheduleLine.mutate({
          projectId: app.projectId,
          lineId: line.id,
          expectedVersion: 2,
          patch: { brand: 'x' },
        }),
      ),
    ).toBe('ARCHIVED');
    expect(
      await codeOf(
        owner.schedule.setScheduleLineStatus.mutate({
          projectId: app.projectId,
          lineId: line.id,
          expectedVersion: 2,
          status: 'ordered',
        }),
      ),
    ).toBe('ARCHIVED');
  });

  it('archival needs the current version', async () => {
    const line = await newLine();
    expect(await codeOf(owner.schedule.archiveScheduleLine.mutate({ projectId: app.projectId, lineId: line.id }))).toBe(
      'PRECONDITION_REQUIRED',
    );
    expect(
      await codeOf(
        owner.schedule.archiveScheduleLine.mutate({ projectId: app.projectId, lineId: line.id, expectedVersion: 7 }),
      ),
    ).toBe('VERSION_CONFLICT');
    expect(
      (await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id })).archived_at,
    ).toBeNull();
  });

  it('restore clears archived_at with version+1; restoring an active line is NOT_ARCHIVED', async () => {
    const line = await newLine();
    expect(
      await codeOf(
        owner.schedule.restoreScheduleLine.mutate({ projectId: app.projectId, lineId: line.id, expectedVersion: 1 }),
      ),
    ).toBe('NOT_ARCHIVED');
    await owner.schedule.archiveScheduleLine.mutate({ projectId: app.projectId, lineId: line.id, expectedVersion: 1 });
    const restored = await callAction(mcp, 'restore_schedule_line', {
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: 2,
    });
    expect(restored.result).toMatchObject({ archived_at: null, version: 3 });
    expect(await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id })).toEqual(
      restored.result,
    );
    expect(
      await codeOf(
        owner.schedule.restoreScheduleLine.mutate({ projectId: app.projectId, lineId: line.id, expectedVersion: 3 }),
      ),
    ).toBe('NOT_ARCHIVED');
  });

  it('lines are never deleted: no procedure or operation deletes or removes a line', () => {
    const names = ACTIONS.map((a) => a.name);
    expect(names).toContain('archive_schedule_line');
    // remove_estimate_lines and remove_purchase_order_lines take lines off a draft offer or order (archived there,
    // never deleted); nothing deletes a schedule line.
    expect(names.filter((n) => /^(delete|remove|destroy|purge)_(schedule_)?(line|item)s?$/.test(n))).toEqual([]);
    expect(names.filter((n) => /^(delete|destroy|purge)_/.test(n))).toEqual(['delete_saved_view']);
  });
});

describe('move_schedule_line', () => {
  it('moves a line to another section at a position; both sections stay gapless', async () => {
    const from = sections[4]!.id;
    const to = sections[5]!.id;
    const line = await newLine('Mover', from);
    const moved = await owner.schedule.moveScheduleLine.mutate({
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: 1,
      sectionId: to,
      position: 1,
    });
    expect(moved).toMatchObject({ sectionId: to, position: 1, version: 2 });
    for (const s of [from, to]) {
      const positions = (await allLines(owner, { projectId: app.projectId, sectionId: s })).map((l) => l.position);
      expect(positions).toEqual(positions.map((_, i) => i + 1));
    }
    const back = await callAction(mcp, 'move_schedule_line', {
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: 2,
      sectionId: from,
    });
    expect(back.result).toMatchObject({ sectionId: from, version: 3 });
    expect(
      await codeOf(
        owner.schedule.moveScheduleLine.mutate({
          projectId: app.projectId,
          lineId: line.id,
          expectedVersion: 2,
          sectionId: to,
        }),
      ),
    ).toBe('VERSION_CONFLICT');
  });

  it('a section of another project is NOT_FOUND', async () => {
    const other = await newProject('Move elsewhere');
    const line = await newLine();
    expect(
      await codeOf(
        owner.schedule.moveScheduleLine.mutate({
          projectId: app.projectId,
          lineId: line.id,
          expectedVersion: 1,
          sectionId: other.sections[0]!.id,
        }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(
        owner.schedule.moveScheduleLine.mutate({
          projectId: app.projectId,
          lineId: line.id,
          expectedVersion: 1,
          sectionId: sections[0]!.id,
          position: 0,
        }),
      ),
    ).toBe('VALIDATION_FAILED');
  });
});

describe('set_schedule_line_status', () => {
  it('sets the status with version+1; the same status again changes nothing', async () => {
    const line = await newLine();
    const approved = await owner.schedule.setScheduleLineStatus.mutate({
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: 1,
      status: 'approved',
    });
    expect(approved).toMatchObject({ status: 'approved', version: 2 });
    const same = await callAction(mcp, 'set_schedule_line_status', {
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: 2,
      status: 'approved',
    });
    expect(same.result).toEqual(approved);
    expect(
      await codeOf(
        owner.schedule.setScheduleLineStatus.mutate({
          projectId: app.projectId,
          lineId: line.id,
          expectedVersion: 2,
          status: 'lost' as never,
        }),
      ),
    ).toBe('VALIDATION_FAILED');
    expect(
      await codeOf(
        owner.schedule.setScheduleLineStatus.mutate({
          projectId: app.projectId,
          lineId: line.id,
          expectedVersion: 1,
          status: 'ordered',
        }),
      ),
    ).toBe('VERSION_CONFLICT');
  });
});

describe('get_schedule_line_history', () => {
  it("lists the line's events newest first, paged, with changed fields", async () => {
    const line = await newLine('Storied lamp');
    await owner.schedule.updateScheduleLine.mutate({
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: 1,
      patch: { finish: 'Opal' },
    });
    await owner.schedule.setScheduleLineStatus.mutate({
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: 2,
      status: 'specified',
    });
    await owner.schedule.archiveScheduleLine.mutate({ projectId: app.projectId, lineId: line.id, expectedVersion: 3 });
    const history = await owner.schedule.getScheduleLineHistory.query({ projectId: app.projectId, lineId: line.id });
    expect(history.items.map((e) => e.action)).toEqual([
      'archive_schedule_line',
      'set_schedule_line_status',
      'update_schedule_line',
      'create_schedule_line',
    ]);
    expect(history.items.every((e) => e.target.id === line.id && e.projectId === app.projectId)).toBe(true);
    expect(history.items[2]!.changes).toMatchObject({ finish: { from: null, to: 'Opal' } });
    expect(history.items[1]!.changes).toMatchObject({ status: { from: 'draft', to: 'specified' } });
    const seqs = history.items.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    const first = await owner.schedule.getScheduleLineHistory.query({
      projectId: app.projectId,
      lineId: line.id,
      limit: 3,
    });
    const rest = await owner.schedule.getScheduleLineHistory.query({
      projectId: app.projectId,
      lineId: line.id,
      limit: 3,
      cursor: first.nextCursor!,
    });
    expect([...first.items, ...rest.items]).toEqual(history.items);
    expect(rest.nextCursor).toBeNull();
    expect(
      (await callAction(mcp, 'get_schedule_line_history', { projectId: app.projectId, lineId: line.id })).result,
    ).toEqual(history);
  });

  it('leaves trade price changes out for callers without pricing:read', async () => {
    const line = await newLine('Costed rug');
    await owner.schedule.updateScheduleLine.mutate({
      projectId: app.projectId,
      lineId: line.id,
      expectedVersion: 1,
      patch: { tradePrice: { state: 'set', amount4: '2000000' }, brand: 'Weave' },
    });
    const mine = await owner.schedule.getScheduleLineHistory.query({ projectId: app.projectId, lineId: line.id });
    expect(mine.items[0]!.changes).toHaveProperty('tradePrice');
    const assistant = trpc(
      app.url,
      (await memberWithToken(app.database, 'assistant', [{ projectId: app.projectId, level: 'edit' }])).token,
    );
    const theirs = await assistant.schedule.getScheduleLineHistory.query({ projectId: app.projectId, lineId: line.id });
    expect(theirs.items[0]!.changes).not.toHaveProperty('tradePrice');
    expect(theirs.items[0]!.changes).not.toHaveProperty('margin');
    expect(theirs.items[0]!.changes).toHaveProperty('brand');
  });
});

describe('renumber_schedule_lines', () => {
  it('gives active lines consecutive codes in document order, skipping archived codes, in one audit event', async () => {
    const project = await newProject('Renumber house');
    const [hall, study] = project.sections.map((s) => s.id) as [string, string];
    const make = (heading: string, sectionId: string) =>
      owner.schedule.createScheduleLine.mutate({
        commandKey: uuid(),
        projectId: project.id,
        sectionId,
        heading,
      });
    const s1 = await make('S1', study); // FF-001, but document order puts it after the hall
    const h1 = await make('H1', hall); // FF-002
    const gone = await make('Gone', hall); // FF-003, archived below: its code stays reserved
    const h2 = await make('H2', hall); // FF-004
    const s2 = await make('S2', study); // FF-005
    await owner.schedule.archiveScheduleLine.mutate({ projectId: project.id, lineId: gone.id, expectedVersion: 1 });
    const res = await owner.schedule.renumberScheduleLines.mutate({ projectId: project.id });
    expect(res.lineCount).toBe(4);
    // Document order: H1, H2 (hall), S1, S2 (study); FF-003 belongs to the archived line.
    expect(res.changes).toEqual([
      { lineId: h1.id, from: 'FF-002', to: 'FF-001' },
      { lineId: h2.id, from: 'FF-004', to: 'FF-002' },
      { lineId: s1.id, from: 'FF-001', to: 'FF-004' },
    ]);
    const lines = await allLines(owner, { projectId: project.id, archived: 'include' });
    const byId = new Map(lines.map((l) => [l.id, l]));
    expect(byId.get(s2.id)).toMatchObject({ code: 'FF-005', version: 1 });
    expect(byId.get(h1.id)).toMatchObject({ code: 'FF-001', version: 2 });
    expect(byId.get(gone.id)).toMatchObject({ code: 'FF-003', version: 2 });
    const events = await owner.audit.listProjectAuditEvents.query({
      projectId: project.id,
      action: 'renumber_schedule_lines',
    });
    expect(events.items).toHaveLength(1);
    expect(events.items[0]!.changes).toEqual({ codes: res.changes });
    const again = await callAction(mcp, 'renumber_schedule_lines', { projectId: project.id });
    expect(again.result).toEqual({ changes: [], lineCount: 4 });
    // A renumbered line moved on a version: a write with the old one is a conflict.
    expect(
      await codeOf(
        owner.schedule.updateScheduleLine.mutate({
          projectId: project.id,
          lineId: h1.id,
          expectedVersion: 1,
          patch: { brand: 'x' },
        }),
      ),
    ).toBe('VERSION_CONFLICT');
  });

  it('needs projects:write', async () => {
    const viewer = trpc(
      app.url,
      (await memberWithToken(app.database, 'viewer', [{ projectId: app.projectId, level: 'view' }])).token,
    );
    expect(await codeOf(viewer.schedule.renumberScheduleLines.mutate({ projectId: app.projectId }))).toBe('FORBIDDEN');
  });
});

describe('copy_schedule_lines_to_project', () => {
  it('copies lines in order to the end of a section of another project: new ids, its codes, version 1', async () => {
    const target = await newProject('Copy target');
    const section = target.sections[1]!.id;
    const sources = (
      await owner.schedule.listScheduleLines.query({ projectId: app.projectId, sectionId: sections[0]!.id, limit: 2 })
    ).items;
    const lineIds = [sources[1]!.id, sources[0]!.id];
    const commandKey = uuid();
    const input = {
      projectId: app.projectId,
      lineIds,
      targetProjectId: target.id,
      targetSectionId: section,
      commandKey,
    };
    const res = await owner.schedule.copyScheduleLinesToProject.mutate(input);
    expect(res.lines.map((l) => [l.heading, l.code, l.position, l.version, l.projectId, l.sectionId])).toEqual([
      [sources[1]!.heading, 'FF-001', 1, 1, target.id, section],
      [sources[0]!.heading, 'FF-002', 2, 1, target.id, section],
    ]);
    expect(res.lines.every((l) => !lineIds.includes(l.id))).toBe(true);
    expect(res.lines[0]!.tradePrice).toEqual(sources[1]!.tradePrice);
    expect(await owner.schedule.copyScheduleLinesToProject.mutate(input)).toEqual(res);
    expect((await callAction(mcp, 'copy_schedule_lines_to_project', input)).result).toEqual(res);
    expect((await owner.schedule.listScheduleLines.query({ projectId: target.id })).items).toHaveLength(2);
    for (const s of sources)
      expect(await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: s.id })).toEqual(s);
    const history = await owner.schedule.getScheduleLineHistory.query({
      projectId: target.id,
      lineId: res.lines[0]!.id,
    });
    expect(history.items[0]!.changes).toEqual({
      copiedFrom: { from: null, to: { projectId: app.projectId, lineId: sources[1]!.id } },
    });
  });

  it('refuses ids that do not belong where the input says, and archived or duplicate lines', async () => {
    const target = await newProject('Copy refusals');
    const line = await newLine();
    const base = {
      projectId: app.projectId,
      lineIds: [line.id],
      targetProjectId: target.id,
      targetSectionId: target.sections[0]!.id,
      // A fresh key for every call made with it (each is a new act).
      get commandKey() {
        return uuid();
      },
    };
    expect(
      await codeOf(
        owner.schedule.copyScheduleLinesToProject.mutate({
          ...base,
          targetSectionId: sections[0]!.id,
        }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      (
        await callAction(mcp, 'copy_schedule_lines_to_project', {
          ...base,
          targetSectionId: sections[0]!.id,
        })
      ).code,
    ).toBe('NOT_FOUND');
    const foreign = await owner.schedule.createScheduleLine.mutate({
      commandKey: uuid(),
      projectId: target.id,
      sectionId: target.sections[0]!.id,
      heading: 'Theirs',
    });
    expect(
      await codeOf(
        owner.schedule.copyScheduleLinesToProject.mutate({
          ...base,
          lineIds: [line.id, foreign.id],
        }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(
        owner.schedule.copyScheduleLinesToProject.mutate({
          ...base,
          lineIds: [line.id, line.id],
        }),
      ),
    ).toBe('VALIDATION_FAILED');
    expect(await codeOf(owner.schedule.copyScheduleLinesToProject.mutate({ ...base, lineIds: [] }))).toBe(
      'VALIDATION_FAILED',
    );
    await owner.schedule.archiveScheduleLine.mutate({ projectId: app.projectId, lineId: line.id, expectedVersion: 1 });
    expect(await codeOf(owner.schedule.copyScheduleLinesToProject.mutate(base))).toBe('ARCHIVED');
    expect((await owner.schedule.listScheduleLines.query({ projectId: target.id })).items.map((l) => l.id)).toEqual([
      foreign.id,
    ]);
  });

  it('needs an edit grant on the target project: none is NOT_FOUND, view is FORBIDDEN', async () => {
    const target = await newProject('Copy grants');
    const line = await newLine();
    const base = {
      projectId: app.projectId,
      lineIds: [line.id],
      targetProjectId: target.id,
      targetSectionId: target.sections[0]!.id,
      // A fresh key for every call made with it (each is a new act).
      get commandKey() {
        return uuid();
      },
    };
    const noGrant = trpc(
      app.url,
      (await memberWithToken(app.database, 'designer', [{ projectId: app.projectId, level: 'edit' }])).token,
    );
    expect(await codeOf(noGrant.schedule.copyScheduleLinesToProject.mutate(base))).toBe('NOT_FOUND');
    const viewGrant = trpc(
      app.url,
      (
        await memberWithToken(app.database, 'designer', [
          { projectId: app.projectId, level: 'edit' },
          { projectId: target.id, level: 'view' },
        ])
      ).token,
    );
    expect(await codeOf(viewGrant.schedule.copyScheduleLinesToProject.mutate(base))).toBe('FORBIDDEN');
    const editGrant = trpc(
      app.url,
      (
        await memberWithToken(app.database, 'designer', [
          { projectId: app.projectId, level: 'edit' },
          { projectId: target.id, level: 'edit' },
        ])
      ).token,
    );
    expect((await editGrant.schedule.copyScheduleLinesToProject.mutate(base)).lines).toHaveLength(1);
  });

  it('across currencies, priced lines need clearPrices (prices become tbc)', async () => {
    const target = await newProject('Euro house', 'EUR');
    const line = await newLine('Priced lamp', sections[0]!.id, {
      tradePrice: { state: 'set', amount4: '500000' },
      retailPrice: { state: 'set', amount4: '900000' },
    });
    const base = {
      projectId: app.projectId,
      lineIds: [line.id],
      targetProjectId: target.id,
      targetSectionId: target.sections[0]!.id,
      // A fresh key for every call made with it (each is a new act).
      get commandKey() {
        return uuid();
      },
    };
    const err = await errorOf(owner.schedule.copyScheduleLinesToProject.mutate(base));
    expect(err.data.serviceCode).toBe('VALIDATION_FAILED');
    expect(err.data.errors[0].path).toBe('clearPrices');
    const res = await owner.schedule.copyScheduleLinesToProject.mutate({
      ...base,
      clearPrices: true,
    });
    expect(res.lines[0]).toMatchObject({
      heading: 'Priced lamp',
      tradePrice: { price: null, state: 'tbc' },
      retailPrice: { price: null, state: 'tbc' },
      clientPrice: { price: null, state: 'tbc', source: 'derived' },
    });
  });
});

// Last: it adds a second studio to the database, which the fixtures above do not expect.
describe('another studio', () => {
  it('its records are NOT_FOUND wherever an input names them, at any depth', async () => {
    const now = new Date().toISOString();
    const { studioId } = await createStudioWithOwner(
      app.rt.store.db,
      { name: 'Elsewhere Studio', currency: 'GBP', codePrefix: 'EL' },
      { email: 'el@example.test', name: 'El' },
      now,
    );
    const supplierId = newId();
    await app.rt.store.db
      .insertInto('suppliers')
      .values(SUPPLIER_RECORD.newRow({ name: 'Their supplier' }, { id: supplierId, ownerId: studioId, now }))
      .execute();
    const line = await newLine();
    const at = { projectId: app.projectId, lineId: line.id, expectedVersion: 1 };
    expect(await codeOf(owner.schedule.updateScheduleLine.mutate({ ...at, patch: { supplierId } }))).toBe('NOT_FOUND');
    expect(
      await codeOf(
        owner.schedule.bulkUpdateScheduleLines.mutate({
          projectId: app.projectId,
          lines: [{ lineId: line.id, expectedVersion: 1, patch: { supplierId } }],
        }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(
        owner.schedule.createScheduleLine.mutate({
          commandKey: uuid(),
          projectId: app.projectId,
          sectionId: sections[0]!.id,
          heading: 'x',
          supplierId,
        }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      (await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id })).supplierId,
    ).toBeNull();
  });
});
