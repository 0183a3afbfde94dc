/**
 * Spreadsheet imports through their surfaces: the file tool upload_import_file over MCP (call_action, fields at the
 * top level), the imports procedures through the typed tRPC client and MCP, and paste_schedule_lines. The sample a
 * newcomer imports (samples/harbour-house-lighting.*) goes in end to end; then the rules around it: exact prices and
 * value states, sections and suppliers matched or made, per-cell problems that refuse a commit (and leave nothing),
 * the version a commit names, cancel, saved mappings, limits, permissions and ownership.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAction, codeOf, type McpOutcome, refusal, settledOperation, trpcFailure } from '../helpers/calls.js';
import { type Trpc, trpc } from '../helpers/clients.js';
import { countRows, demoMembers, fromOutside, type Member } from '../helpers/fixtures.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { ROOT } from '../helpers/server.js';
import { uploadImportFile } from './fixture.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let projectId: string;
let viewer: Member;
let assistant: Member;

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  projectId = app.projectId;
  ({ viewer, assistant } = await demoMembers(app, ['viewer', 'assistant']));
});

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const sample = (ext: 'csv' | 'xlsx') => readFileSync(join(ROOT, `samples/harbour-house-lighting.${ext}`));

/** upload_import_file over MCP, as an agent sends it: a file tool takes its fields at the top level of arguments. */
function upload(
  bytes: Buffer | string,
  opts: { filename?: string; mediaType?: string; sheet?: string; client?: Client; project?: string } = {},
): Promise<McpOutcome> {
  return uploadImportFile(opts.client ?? mcp, opts.project ?? projectId, bytes, opts);
}

async function uploaded(bytes: Buffer | string, opts: Parameters<typeof upload>[1] = {}) {
  const out = await upload(bytes, opts);
  expect(out.error, JSON.stringify(out.error)).toBeUndefined();
  return out.result as { id: string; version: number; status: string; [k: string]: any };
}

const preview = (importId: string, extra: Record<string, unknown> = {}, client: Trpc = owner) =>
  client.imports.previewScheduleImport.mutate({ projectId, importId, ...extra } as never);
/**
 * commit_schedule_import as a client runs it: accepted at once as an operation (a refusal throws, as any tRPC call),
 * the import then `committing` and naming it, then polled to its end. Answers the import as the commit left it.
 */
async function commit(importId: string, expectedVersion: number, extra: Record<string, unknown> = {}) {
  const op = await owner.imports.commitScheduleImport.mutate({ projectId, importId, expectedVersion, ...extra });
  expect(op).toMatchObject({ kind: 'import_commit', action: 'commit_schedule_import', projectId });
  const done = await settledOperation(owner, op.id);
  expect(done.status, JSON.stringify(done.problem)).toBe('succeeded');
  const after = await owner.imports.getScheduleImport.query({ projectId, importId });
  expect(after.operationId).toBe(op.id);
  expect(done.result).toEqual({ importId, ...after.result });
  return after;
}

describe('the sample spreadsheet, end to end', () => {
  it('uploads the XLSX sample over MCP, previews it with a mapping proposed from its own headings, and commits it', async () => {
    const file = await uploaded(sample('xlsx'), { filename: 'harbour-house-lighting.xlsx', mediaType: XLSX });
    expect(file).toMatchObject({
      status: 'uploaded',
      format: 'xlsx',
      sheet: 'Lighting',
      filename: 'harbour-house-lighting.xlsx',
      version: 1,
      mapping: null,
    });
    expect(file.sheets.map((s: { name: string }) => s.name)).toEqual(['Lighting', 'Notes']);

    const p = await preview(file.id, { lines: 100 });
    expect(p.import).toMatchObject({ status: 'previewed', version: 2, rowCount: 9 });
    expect(p.import.mappingSource).toBe('proposed');
    expect(p.import.mapping?.headerRow).toBe(4);
    const field = (heading: string) => p.import.mapping?.columns.find((c) => c.heading === heading)?.field;
    expect([field('Ref'), field('Item'), field('Room'), field('Net (£)'), field('Client price')]).toEqual([
      'code',
      'heading',
      'section',
      'tradePrice',
      'clientPrice',
    ]);
    expect(field('Total')).toBeNull();
    expect(field('Notes')).toBe('description');
    expect(p.counts).toMatchObject({ lines: 7, headingRows: 1, skippedRows: 1, errors: 0 });
    // Kitchen and Living Room are the demo project's; Garden Lighting is new.
    expect(p.sections.map((s) => [s.title, s.new])).toEqual([
      ['Kitchen', false],
      ['Living Room', false],
      ['Garden Lighting', true],
    ]);
    expect(p.suppliers.map((s) => [s.name, s.new])).toEqual([
      ['Lumen House', false],
      ['Pooky', true],
      ['Urban Cottage Industries', true],
    ]);
    const line = (heading: string) => p.lines.find((l) => l.heading === heading)!;
    // "£1,250.00" text, 1250.5 numeric, "1,250.5" text, a formula's cached 1688.175, =0.1+0.2 stored as 0.30000000000000004.
    expect(line('Rise and fall pendant').tradePrice).toEqual({
      state: 'set',
      price: { amount4: '12500000', currency: 'GBP' },
    });
    expect(line('Under-cabinet LED strip').tradePrice?.price?.amount4).toBe('12505000');
    expect(line('Picture light').tradePrice?.price?.amount4).toBe('12505000');
    expect(line('Picture light').clientPrice?.price?.amount4).toBe('16881750');
    expect(line('Festoon clips').tradePrice?.price?.amount4).toBe('3000');
    // Value states; an empty client price stays derived (null), an empty RRP is to be confirmed.
    expect(line('Rise and fall pendant').deliveryPrice).toEqual({ state: 'included', price: null });
    expect(line('Rise and fall pendant').clientPrice).toBeNull();
    expect(line('Under-cabinet LED strip').retailPrice.state).toBe('tbc');
    expect(line('Under-cabinet LED strip').clientPrice?.state).toBe('poa');
    expect(line('Picture light').deliveryPrice.state).toBe('by_others');
    expect(line('Garden sockets').tradePrice?.state).toBe('by_others');
    // Quantities, units by alias, lead times, statuses; the room written once covers the row below it.
    expect(line('Under-cabinet LED strip')).toMatchObject({
      section: 'Kitchen',
      quantity: { amount4: '45000' },
      unitName: 'metre',
      leadTimeDays: 10,
      status: 'draft',
    });
    expect(line('Rise and fall pendant')).toMatchObject({ leadTimeDays: 56, unitName: 'each', status: 'specified' });
    expect(line('Spike spotlight')).toMatchObject({ section: 'Garden Lighting', leadTimeDays: 0, code: null });
    expect(p.problems).toEqual([
      expect.objectContaining({ row: 15, severity: 'warning', message: expect.stringContaining('totals row') }),
    ]);
    // MCP's preview of the same import with the same mapping is the same preview, and changes nothing.
    const again = (await callAction(mcp, 'preview_schedule_import', { projectId, importId: file.id, lines: 100 }))
      .result;
    expect(again).toEqual(p);

    const linesBefore = await countRows(app.database, 'lines');
    const events = await countRows(app.database, 'audit_events');
    const done = await commit(file.id, p.import.version);
    // Accepting the commit moved the import to version 3 (committing); applying it, to 4.
    expect(done).toMatchObject({
      status: 'committed',
      version: 4,
      result: { lines: 7, sectionsCreated: 1, suppliersCreated: 2, skippedRows: 0 },
    });
    expect(await countRows(app.database, 'lines')).toBe(linesBefore + 7);
    // The accepted commit, one event for its lines in all (plus the new section and the two new suppliers): not one
    // per line.
    expect((await countRows(app.database, 'audit_events')) - events).toBe(5);

    const sections = await owner.sections.listScheduleSections.query({ projectId });
    const garden = sections.items.find((s) => s.title === 'Garden Lighting')!;
    expect(garden.lineCount).toBe(4);
    const gardenLines = await owner.schedule.listScheduleLines.query({ projectId, sectionId: garden.id });
    // A section titled "… Lighting" takes the studio's LT code scheme.
    expect(gardenLines.items.map((l) => [l.heading, l.code])).toEqual([
      ['Bulkhead wall light', 'LT-001'],
      ['Spike spotlight', 'LT-002'],
      ['Festoon clips', 'LT-003'],
      ['Garden sockets', 'LT-004'],
    ]);
    const bulkhead = gardenLines.items[0]!;
    expect(bulkhead).toMatchObject({
      supplierName: 'Urban Cottage Industries',
      tradePrice: { state: 'set', price: { amount4: '725000' } },
      clientPrice: { state: 'set', source: 'manual', price: { amount4: '978750' } },
      status: 'draft',
      version: 1,
    });
    const kitchen = await owner.schedule.listScheduleLines.query({ projectId, q: 'Rise and fall' });
    expect(kitchen.items[0]).toMatchObject({ code: 'L01', quantity: { amount4: '30000' }, brand: 'Original BTC' });
    expect(kitchen.items[0]!.description).toBe(
      'Opal glass shade on a brass rise-and-fall fitting.\n\nThree over the island, 750 mm apart.',
    );

    // A committed import is done: it cannot be committed, previewed or canceled again.
    expect(await codeOf(commit(file.id, done.version))).toBe('IMPORT_WRONG_STATE');
    expect(await codeOf(preview(file.id))).toBe('IMPORT_WRONG_STATE');
    expect(await codeOf(owner.imports.cancelScheduleImport.mutate({ projectId, importId: file.id }))).toBe(
      'IMPORT_WRONG_STATE',
    );
    const listed = await owner.imports.listScheduleImports.query({ projectId, status: 'committed' });
    expect(listed.items.map((i) => i.id)).toContain(file.id);
    expect((await callAction(mcp, 'get_schedule_import', { projectId, importId: file.id })).result).toEqual(
      await owner.imports.getScheduleImport.query({ projectId, importId: file.id }),
    );
  });

  it('reads the CSV sample (Windows-1252, "£" one byte) into the same lines as the workbook', async () => {
    const file = await uploaded(sample('csv'), { filename: 'harbour-house-lighting.csv' });
    expect(file).toMatchObject({ format: 'csv', encoding: 'windows-1252', delimiter: ',' });
    const p = await preview(file.id, { lines: 100 });
    expect(p.import.mapping?.columns.find((c) => c.column === 'M')).toMatchObject({
      heading: 'Net (£)',
      field: 'tradePrice',
    });
    expect(p.counts).toMatchObject({ lines: 7, errors: 0 });
    // The Garden Lighting section and the new suppliers now exist: they are matched, not made again.
    expect(p.sections.every((s) => !s.new)).toBe(true);
    expect(p.suppliers.every((s) => !s.new)).toBe(true);
    const prices = p.lines.map((l) => [l.heading, l.tradePrice?.state, l.tradePrice?.price?.amount4 ?? null]);
    expect(prices).toContainEqual(['Under-cabinet LED strip', 'set', '12505000']);
    expect(prices).toContainEqual(['Festoon clips', 'set', '3000']);
    expect(await owner.imports.cancelScheduleImport.mutate({ projectId, importId: file.id })).toMatchObject({
      status: 'canceled',
    });
  });
});

describe('problems, all-or-nothing and the version a commit names', () => {
  const messy = [
    'Item;Qty;Supplier;Net;Sell',
    'Sofa;2;Brand New Sofas Ltd;"1.250,50";£1,595',
    'Lamp;two;Brand New Sofas Ltd;-5;12.34567',
    'Rug;1;Brand New Sofas Ltd;$40;POA',
  ].join('\n');

  it('names each bad cell by row, column and heading, refuses the commit and leaves nothing', async () => {
    const file = await uploaded(messy);
    expect(file.delimiter).toBe(';');
    const p = await preview(file.id);
    expect(p.counts).toMatchObject({ lines: 3, linesWithErrors: 2, errors: 4 });
    expect(p.problems.map((x) => [x.row, x.column, x.heading, x.severity])).toEqual([
      [3, 'B', 'Qty', 'error'],
      [3, 'D', 'Net', 'error'],
      [3, 'E', 'Sell', 'error'],
      [4, 'D', 'Net', 'error'],
    ]);
    expect(p.problems[3]!.message).toContain('priced in GBP');
    expect(p.lines[0]!.tradePrice?.price?.amount4).toBe('12505000');

    const before = await Promise.all([
      countRows(app.database, 'lines'),
      countRows(app.database, 'sections'),
      countRows(app.database, 'suppliers'),
    ]);
    // Refused at once, from what the preview found: no operation is started to fail later.
    const operations = (await owner.operations.listOperations.query({ projectId })).items.length;
    const err = await trpcFailure(commit(file.id, p.import.version));
    expect(err.data?.serviceCode).toBe('IMPORT_HAS_ERRORS');
    expect(err.message).toContain('4 cells that cannot be read');
    expect(err.message).toContain('skipRowsWithErrors');
    expect((await owner.operations.listOperations.query({ projectId })).items).toHaveLength(operations);
    expect(
      await Promise.all([
        countRows(app.database, 'lines'),
        countRows(app.database, 'sections'),
        countRows(app.database, 'suppliers'),
      ]),
    ).toEqual(before);
    expect((await owner.imports.getScheduleImport.query({ projectId, importId: file.id })).status).toBe('previewed');

    // A stale version (the import was previewed again since) is refused; skipping the bad rows commits the rest.
    const p2 = await preview(file.id, { mapping: { columns: [{ column: 'E', field: null }] } });
    expect(p2.import.version).toBe(p.import.version + 1);
    expect(await codeOf(commit(file.id, p.import.version))).toBe('VERSION_CONFLICT');
    const done = await commit(file.id, p2.import.version, { skipRowsWithErrors: true });
    expect(done.result).toEqual({ lines: 1, sectionsCreated: 1, suppliersCreated: 1, skippedRows: 2 });
    const imported = await owner.schedule.listScheduleLines.query({ projectId, q: 'Sofa' });
    expect(imported.items.find((l) => l.supplierName === 'Brand New Sofas Ltd')).toMatchObject({
      tradePrice: { price: { amount4: '12505000' } },
      clientPrice: { source: 'derived' },
    });
  });

  it('keeps every preview answer under 8,000 bytes, row by row, and continues from nextRow', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => `Chair ${i + 1},${i % 3 === 0 ? 'lots' : '2'},${i + 1}.5`);
    const file = await uploaded(`Item,Qty,Net\n${rows.join('\n')}\n`);
    const seen = { lines: [] as number[], problems: [] as number[] };
    let fromRow: number | undefined;
    let pages = 0;
    do {
      const out = await callAction(mcp, 'preview_schedule_import', {
        projectId,
        importId: file.id,
        lines: 100,
        fromRow,
      });
      expect(out.result, 'a whole preview, not a write summary').toBeDefined();
      expect(JSON.stringify(out.result).length).toBeLessThan(8000);
      expect(out.result.counts).toMatchObject({ lines: 120, errors: 40 });
      seen.lines.push(...out.result.lines.map((l: { row: number }) => l.row));
      seen.problems.push(...out.result.problems.map((p: { row: number }) => p.row));
      fromRow = out.result.nextRow ?? undefined;
      pages += 1;
    } while (fromRow !== undefined && pages < 50);
    expect(pages).toBeGreaterThan(1);
    expect(seen.lines).toEqual(Array.from({ length: 120 }, (_, i) => i + 2));
    expect(seen.problems).toEqual(Array.from({ length: 40 }, (_, i) => 2 + i * 3));
  });

  it('cancels before commit: nothing reaches the schedule, a second cancel changes nothing, and commit is refused', async () => {
    const file = await uploaded('Item,Qty\nVase,3\n');
    const p = await preview(file.id);
    const lines = await countRows(app.database, 'lines');
    const canceled = await owner.imports.cancelScheduleImport.mutate({ projectId, importId: file.id });
    expect(canceled).toMatchObject({ status: 'canceled', version: p.import.version + 1 });
    expect(canceled.canceledAt).not.toBeNull();
    expect(await owner.imports.cancelScheduleImport.mutate({ projectId, importId: file.id })).toEqual(canceled);
    expect(await codeOf(commit(file.id, canceled.version))).toBe('IMPORT_WRONG_STATE');
    expect(await countRows(app.database, 'lines')).toBe(lines);
    // Its kept rows are dropped.
    const cells = await fromOutside(app.database, (db) =>
      db.selectFrom('import_sheets').select('cells').where('import_id', '=', file.id).executeTakeFirstOrThrow(),
    );
    expect(cells.cells).toBeNull();
  });

  it('refuses to commit an import that was never previewed, and asks for a heading column', async () => {
    const file = await uploaded('Colour,Size\nRed,Large\n');
    expect(await codeOf(commit(file.id, 1))).toBe('IMPORT_WRONG_STATE');
    const noHeading = await trpcFailure(preview(file.id));
    expect(noHeading.data?.serviceCode).toBe('VALIDATION_FAILED');
    expect(noHeading.message).toContain('No column is mapped to heading');
    const p = await preview(file.id, {
      mapping: {
        columns: [
          { column: 'A', field: 'heading' },
          { column: 'B', field: 'dimensions' },
        ],
      },
    });
    expect(p.import.mappingSource).toBe('given');
    expect(p.lines[0]).toMatchObject({ heading: 'Red', dimensions: 'Large' });
    const clash = await refusal(
      preview(file.id, {
        mapping: {
          columns: [
            { column: 'A', field: 'heading' },
            { column: 'B', field: 'heading' },
          ],
        },
      }),
    );
    expect(clash.code).toBe('VALIDATION_FAILED');
  });
});

describe('saved mappings', () => {
  it('saves a mapping and uses it for a sheet with the same headings in another order; same name replaces it', async () => {
    const saved = await owner.imports.saveImportMapping.mutate({
      name: 'Odd headings',
      columns: [
        { heading: 'Thing', field: 'heading' },
        { heading: 'How many', field: 'quantity' },
        { heading: 'Cost each (£)', field: 'tradePrice' },
      ],
    });
    expect(saved).toMatchObject({ name: 'Odd headings', version: 1, headingRows: true });
    const file = await uploaded('"COST EACH (£)",thing,How Many\n12.5,Stool,4\n');
    const p = await preview(file.id);
    expect(p).toMatchObject({ import: { mappingSource: 'saved' }, savedMappingId: saved.id });
    expect(p.lines[0]).toMatchObject({ heading: 'Stool', quantity: { amount4: '40000' } });
    expect(p.lines[0]!.tradePrice?.price?.amount4).toBe('125000');

    const replaced = await owner.imports.saveImportMapping.mutate({
      name: 'odd HEADINGS',
      columns: [
        { heading: 'Thing', field: 'heading' },
        { heading: 'How many', field: null },
        { heading: 'Cost each (£)', field: 'tradePrice' },
      ],
    });
    expect(replaced).toMatchObject({ id: saved.id, version: 2 });
    const list = await owner.imports.listImportMappings.query({ q: 'odd' });
    expect(list.items.map((m) => m.id)).toEqual([saved.id]);
    expect((await callAction(mcp, 'list_import_mappings', { q: 'odd' })).result).toEqual(list);
    expect(
      await codeOf(
        owner.imports.saveImportMapping.mutate({
          name: 'Two headings',
          columns: [
            { heading: 'A', field: 'heading' },
            { heading: 'B', field: 'heading' },
          ],
        }),
      ),
    ).toBe('VALIDATION_FAILED');
  });
});

describe('limits, permissions and ownership', () => {
  it('refuses more than 10,000 rows at upload, before any work, with PAYLOAD_TOO_LARGE', async () => {
    const big = `Item,Qty\n${'Chair,1\n'.repeat(10_001)}`;
    const out = await upload(big);
    expect(out.code).toBe('PAYLOAD_TOO_LARGE');
    expect(out.error?.message).toContain('10,000');
    const ok = await uploaded(`Item,Qty\n${'Chair,1\n'.repeat(10_000)}`);
    expect(ok.status).toBe('uploaded');
  });

  it('refuses an old .xls, a binary file and a non-spreadsheet type with the way on', async () => {
    const xls = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(64)]);
    const old = await upload(xls, { filename: 'old.xls', mediaType: 'application/vnd.ms-excel' });
    expect(old).toMatchObject({ code: 'IMPORT_UNREADABLE', error: { message: expect.stringContaining('.xlsx') } });
    expect((await upload(Buffer.from([1, 0, 2, 0, 3]))).code).toBe('IMPORT_UNREADABLE');
    expect((await upload('x', { mediaType: 'image/png' })).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect((await upload('Item\n', { sheet: 'Nope' })).code).toBe('VALIDATION_FAILED');
    expect((await upload('\n\n')).code).toBe('IMPORT_UNREADABLE');
  });

  it('a viewer cannot upload; an assistant (no pricing) has trade prices left out of the proposal and cannot map them', async () => {
    const viewerMcp = await app.mcp(viewer.token);
    expect((await upload('Item\nX\n', { client: viewerMcp })).code).toBe('FORBIDDEN');

    const asAssistant = trpc(app.url, assistant.token);
    const file = await uploaded('Item,Net,RRP\nMirror,100,150\n', { client: await app.mcp(assistant.token) });
    const p = await preview(file.id, {}, asAssistant);
    expect(p.import.mapping?.columns.find((c) => c.heading === 'Net')?.field).toBeNull();
    expect(p.notes[0]).toContain('trade prices');
    // Trade prices are absent (not null) for a caller without pricing:read; the retail price is public.
    expect(p.lines[0]).not.toHaveProperty('tradePrice');
    expect(p.lines[0]!.retailPrice.price?.amount4).toBe('1500000');
    expect(
      await codeOf(preview(file.id, { mapping: { columns: [{ column: 'B', field: 'tradePrice' }] } }, asAssistant)),
    ).toBe('FORBIDDEN');
  });

  it('an import is reached only through its own project', async () => {
    const file = await uploaded('Item\nBench\n');
    const other = await owner.projects.createStudioProject.mutate({
      name: 'Elsewhere',
      commandKey: crypto.randomUUID(),
    });
    expect(await codeOf(owner.imports.getScheduleImport.query({ projectId: other.id, importId: file.id }))).toBe(
      'NOT_FOUND',
    );
    expect(await codeOf(owner.imports.previewScheduleImport.mutate({ projectId: other.id, importId: file.id }))).toBe(
      'NOT_FOUND',
    );
  });
});

/** A paste's operation followed to its end, which must be a success. */
async function pasted(operationId: string) {
  const done = await settledOperation(owner, operationId);
  expect(done.status, JSON.stringify(done.problem)).toBe('succeeded');
  return done;
}

describe('paste_schedule_lines', () => {
  it('pastes rows copied with their headings into a section, all or nothing', async () => {
    const section = await owner.sections.createScheduleSection.mutate({
      projectId,
      title: 'Snug',
      commandKey: crypto.randomUUID(),
    });
    const text =
      'Item\tQty\tSupplier\tNet\tRRP\nFloor lamp\t1\tLumen House\t£185.00\tPOA\nSide table\t2\t\t"1,250.5"\tincl.';
    const accepted = await owner.schedule.pasteScheduleLines.mutate({
      projectId,
      sectionId: section.id,
      text,
      commandKey: crypto.randomUUID(),
    });
    expect(accepted).toMatchObject({ kind: 'paste_lines', action: 'paste_schedule_lines', progress: { total: 2 } });
    const out = (await pasted(accepted.id)).result as any;
    expect(out).toMatchObject({ lines: 2, sectionsCreated: 0, suppliersCreated: 0 });
    expect(out.sections).toEqual([{ sectionId: section.id, title: 'Snug', new: false, lines: 2 }]);
    const lines = await owner.schedule.listScheduleLines.query({ projectId, sectionId: section.id });
    expect(lines.items.map((l) => [l.heading, l.tradePrice?.price?.amount4, l.retailPrice.state])).toEqual([
      ['Floor lamp', '1850000', 'poa'],
      ['Side table', '12505000', 'included'],
    ]);
    // Without headings, columns names each pasted column; a bad cell refuses the whole paste.
    const bad = await owner.schedule.pasteScheduleLines.mutate({
      projectId,
      sectionId: section.id,
      text: 'Cushion\t4\t30\nThrow\tmany\t45',
      columns: ['heading', 'quantity', 'tradePrice'],
      commandKey: crypto.randomUUID(),
    });
    const failed = await settledOperation(owner, bad.id);
    expect(failed).toMatchObject({ status: 'failed', problem: { code: 'IMPORT_HAS_ERRORS', status: 422 } });
    expect(failed.problem?.detail).toContain('row 2, column B');
    expect((await owner.schedule.listScheduleLines.query({ projectId, sectionId: section.id })).items).toHaveLength(2);
    const asked = await refusal(
      owner.schedule.pasteScheduleLines.mutate({ projectId, text: 'Cushion\t4', commandKey: crypto.randomUUID() }),
    );
    expect(asked.code).toBe('VALIDATION_FAILED');
    // Through MCP, pasted without a section: a new section "Pasted lines".
    const viaMcp = await callAction(mcp, 'paste_schedule_lines', {
      projectId,
      text: 'Cushion\t4\t30',
      columns: ['heading', 'quantity', 'tradePrice'],
      commandKey: crypto.randomUUID(),
    });
    expect((await pasted(viaMcp.result.id)).result).toMatchObject({
      lines: 1,
      sectionsCreated: 1,
      sections: [{ title: 'Pasted lines', new: true }],
    });
    // Refused at once, before any operation: more than 10,000 rows.
    const tooMany = await refusal(
      owner.schedule.pasteScheduleLines.mutate({
        projectId,
        text: `Item\tQty\n${'Stool\t1\n'.repeat(10_001)}`,
        commandKey: crypto.randomUUID(),
      }),
    );
    expect(tooMany).toEqual({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
  });
});
