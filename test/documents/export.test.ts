/**
 * export_client_schedule's files, read back: the XLSX with exceljs (amounts are real numbers, exactly the client
 * document's, in a currency format; text stays text, never a formula, formula-looking text defused) and the CSV as text (exact decimals a
 * spreadsheet reads as numbers, formula-looking text defused). Neither holds a trade price, markup or margin.
 */
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ONE, roundToPlaces } from '../../src/core/money.js';
import { currencyFormat, spreadsheetNumber } from '../../src/domain/documents/export/xlsx.js';
import { decimalText } from '../../src/domain/documents/figures.js';
import { exportClientSchedule } from '../../src/domain/documents/generate.js';
import type { Trpc } from '../helpers/clients.js';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { HAND_CLIENT4, MARKUP4, pricedProject, QUANTITY4, secretForms, TRADE4 } from './fixture.js';
import { workFor } from './work.js';

let app: TestApp;
let owner: Trpc;
let project: Awaited<ReturnType<typeof pricedProject>>;

const rate8 = TRADE4 * (ONE + MARKUP4);
const unit4 = roundToPlaces(rate8, 8, 2);
const total4 = roundToPlaces(QUANTITY4 * rate8, 12, 2);

openTestApp((opened) => ({ app, owner } = opened));
beforeAll(async () => {
  project = await pricedProject(owner);
  // Text a spreadsheet would run as a formula, in a heading.
  await owner.schedule.createScheduleLine.mutate({
    projectId: project.id,
    sectionId: project.dining,
    heading: '=HYPERLINK("http://attacker.example","Click")',
    commandKey: crypto.randomUUID(),
  });
});

describe('spreadsheet numbers', () => {
  it('are exact doubles up to 15 significant digits, and text beyond', () => {
    expect(spreadsheetNumber('367239.51')).toBe(367239.51);
    expect(String(spreadsheetNumber('99999999999.9999'))).toBe('99999999999.9999');
    expect(String(spreadsheetNumber('0.10'))).toBe('0.1');
    expect(spreadsheetNumber('-1250.00')).toBe(-1250);
    // 16 significant digits cannot all survive a double: kept exact, as text.
    expect(spreadsheetNumber('9999999999999.999')).toBe('9999999999999.999');
    expect(currencyFormat('GBP', 2)).toBe('"£"#,##0.00;-"£"#,##0.00');
    expect(currencyFormat('JPY', 0)).toBe('"¥"#,##0;-"¥"#,##0');
    expect(currencyFormat('CHF', 2)).toBe('"CHF "#,##0.00;-"CHF "#,##0.00');
  });
});

describe('the XLSX export', () => {
  let doc: Awaited<ReturnType<typeof exportClientSchedule>>;
  let sheet: ExcelJS.Worksheet;
  let book: ExcelJS.Workbook;
  const rowOf = (heading: string) => {
    let found: ExcelJS.Row | undefined;
    sheet.eachRow((row) => {
      if (row.getCell(3).value === heading) found = row;
    });
    return found!;
  };
  const column = (header: string) => {
    const headers = sheet.getRow(1).values as unknown[];
    return headers.indexOf(header);
  };

  beforeAll(async () => {
    doc = await exportClientSchedule(await workFor(app), { projectId: project.id, format: 'xlsx' });
    book = new ExcelJS.Workbook();
    await book.xlsx.readFile(app.rt.files.originalPath(doc.sha256));
    sheet = book.getWorksheet('Schedule')!;
  });

  it('is recorded as a client export of the live document', () => {
    expect(doc).toMatchObject({ kind: 'client_export', format: 'xlsx', source: { kind: 'live' }, pageCount: null });
  });

  it('has a header per field the client document shows, and a row per piece', () => {
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([
      'Section',
      'Reference',
      'Heading',
      'Description',
      'Brand',
      'Finish',
      'Dimensions',
      'Lead time (weeks)',
      'Fire rating',
      'Quantity',
      'Unit',
      'Price',
      'Unit price (GBP)',
      'Total (GBP)',
    ]);
    const console_ = rowOf('Gilded console');
    expect(console_.getCell(1).value).toBe('Salon');
    expect(console_.getCell(column('Fire rating')).value).toBe('Class 1');
    // Lead time a number, its unit in the heading: 84 days are 12 weeks, as studios quote them.
    expect(console_.getCell(column('Lead time (weeks)')).value).toBe(12);
    expect(console_.getCell(column('Lead time (weeks)')).type).toBe(ExcelJS.ValueType.Number);
    // Client words for the price states; a priced piece leaves the state blank (its figures follow), never `Set`.
    expect(console_.getCell(column('Price')).value).toBeNull();
    expect(rowOf('Silk rug').getCell(column('Price')).value).toBe('To be confirmed');
    expect(rowOf('Curtains').getCell(column('Price')).value).toBe('By others');
    expect(rowOf('Curtains').getCell(column('Total (GBP)')).value).toBeNull();
    const states = new Set<unknown>();
    sheet.eachRow((row, n) => {
      if (n > 1) states.add(row.getCell(column('Price')).value);
    });
    expect(states.has('Set')).toBe(false);
  });

  it('keeps the header row frozen and a filter over every column of the pieces (not the total row)', () => {
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    let pieces = 0;
    sheet.eachRow((row, n) => {
      if (n > 1 && row.getCell(3).value) pieces++;
    });
    const last = String.fromCharCode(64 + sheet.getRow(1).cellCount);
    expect(sheet.autoFilter).toBe(`A1:${last}${1 + pieces}`);
  });

  it('holds amounts as numbers, exactly the client document’s, in the currency format', () => {
    const console_ = rowOf('Gilded console');
    const quantity = console_.getCell(column('Quantity'));
    expect(quantity.value).toBe(2.5);
    const unit = console_.getCell(column('Unit price (GBP)'));
    const total = console_.getCell(column('Total (GBP)'));
    expect(typeof unit.value).toBe('number');
    expect(unit.value).toBe(Number(decimalText(unit4.toString(), 2)));
    expect(String(unit.value)).toBe(decimalText(unit4.toString(), 2).replace(/\.?0+$/, ''));
    expect(total.value).toBe(Number(decimalText(total4.toString(), 2)));
    expect(unit.numFmt).toBe('"£"#,##0.00;-"£"#,##0.00');
    expect(total.numFmt).toBe('"£"#,##0.00;-"£"#,##0.00');
    const hand = rowOf('Murano chandelier').getCell(column('Total (GBP)'));
    expect(hand.value).toBe(20000);
    // The total row: the document's own total, exact.
    let last: ExcelJS.Row | undefined;
    sheet.eachRow((row) => {
      last = row;
    });
    expect(last!.getCell(1).value).toBe('Total');
    const grand = last!.getCell(column('Total (GBP)'));
    expect(grand.value).toBe(Number(decimalText((total4 + HAND_CLIENT4).toString(), 2)));
    expect(grand.numFmt).toBe('"£"#,##0.00;-"£"#,##0.00');
  });

  it('keeps formula-looking text as text, lists removed pieces, and holds no trade price, markup or margin', () => {
    // Text behind a single quote, as in the CSV (src/domain/documents/export/cell-guard.ts).
    const attack = rowOf(`'=HYPERLINK("http://attacker.example","Click")`);
    expect(attack.getCell(3).type).toBe(ExcelJS.ValueType.String);
    const removed = book.getWorksheet('Removed')!;
    expect(removed.getRow(2).getCell(2).value).toBe('Side table');
    const values: string[] = [];
    for (const ws of book.worksheets) ws.eachRow((row) => row.eachCell((cell) => values.push(String(cell.value))));
    const text = values.join('\n');
    expect(secretForms().filter((f) => text.includes(f))).toEqual([]);
  });
});

describe('the CSV export', () => {
  it('is UTF-8 with a BOM, amounts as exact decimals, formula-looking text defused, no trade price', async () => {
    const doc = await exportClientSchedule(await workFor(app), {
      projectId: project.id,
      format: 'csv',
      source: { kind: 'version', number: 1 },
    });
    expect(doc).toMatchObject({ format: 'csv', mediaType: 'text/csv; charset=utf-8', source: { kind: 'version' } });
    const text = readFileSync(app.rt.files.originalPath(doc.sha256), 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      'Section,Reference,Heading,Description,Brand,Finish,Dimensions,Lead time (weeks),Fire rating,Quantity,Unit,Price,Unit price (GBP),Total (GBP)',
    );
    const console_ = lines.find((l) => l.includes('Gilded console'))!;
    expect(console_).toContain(`,2.5,`);
    expect(console_).toContain(',12,');
    expect(console_.endsWith(`,,${decimalText(unit4.toString(), 2)},${decimalText(total4.toString(), 2)}`)).toBe(true);
    expect(console_).toContain('"W 1400 × D 420 × H 860 mm"'.replaceAll('"', ''));
    // The version was minted before the formula-looking line was added; the live one has it, defused.
    const live = await exportClientSchedule(await workFor(app), { projectId: project.id, format: 'csv' });
    const liveText = readFileSync(app.rt.files.originalPath(live.sha256), 'utf8');
    expect(liveText).toContain(`"'=HYPERLINK(""http://attacker.example"",""Click"")"`);
    expect(secretForms().filter((f) => text.includes(f) || liveText.includes(f))).toEqual([]);
  });
});
