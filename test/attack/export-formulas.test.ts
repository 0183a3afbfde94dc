/**
 * Formulas in exports (issue 29, item 4): every text cell of export_client_schedule's CSV and XLSX, headings
 * included, is one a spreadsheet shows as text. A client-visible custom property named `=1+2` heads a column; cells
 * begin with a line feed then `=`, with spaces, control or format characters before `=`, or hold `;=1+1` (Excel with
 * `;` as its list separator splits the cell there and would run the rest), `,"=1+1"` or a bulleted `- line`.
 *
 * Checked without trusting the writer's rule: the CSV is read with RFC 4180 and again split naively at every
 * separator a spreadsheet may use (comma, semicolon, tab, pipe, line breaks, quotes ignored), and no field of either
 * reading may start a formula; the XLSX's every cell (both sheets, the header row too) is read the same way.
 */
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportClientSchedule } from '../../src/domain/documents/generate.js';
import type { Trpc } from '../helpers/clients.js';
import { createTestAppAsOwner, type TestApp } from '../helpers/in-process.js';
import { workFor } from '../documents/work.js';
import { uuid } from '../helpers/ids.js';
import { createLine } from '../helpers/schedule.js';

let app: TestApp;
let owner: Trpc;
let projectId: string;

/** What each attack was sent as, by where it went. */
const PROPERTY_NAME = '=1+2';
const PAYLOADS = {
  heading: ';=1+1',
  description: '\n=1+1',
  brand: '  =HYPERLINK("http://attacker.example","x")',
  finish: '\u200b@SUM(1,2)',
  dimensions: 'W 100, "=1+1"',
  property: '-1+1',
  bullets: 'Includes:\n- two cushions\n+ a cover',
  tab: '\t=1+1',
  pipe: 'oak|=1+1',
  fullWidth: '\uFF1D1+1',
  removed: '=REMOVED()',
  section: '+SECTION()',
};

/** A plain decimal: a number cell's text in the CSV (amounts, quantities), read as a number, never as a formula. */
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** What a spreadsheet may pass over before a cell's first meaningful character. */
const SKIPPED = /^[\s\p{Cc}\p{Cf}"]*/u;
const FORMULA_START = /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;

/** Why a cell would be read as a formula, or null when it is text. */
function formulaRisk(cell: string): string | null {
  if (DECIMAL.test(cell)) return null;
  if (/^[\t\r\n\0]/.test(cell)) return 'starts with a tab, line break or NUL';
  if (FORMULA_START.test(cell.replace(SKIPPED, ''))) return 'starts a formula';
  // Any separator inside the cell may start a cell of its own for a reader that splits there.
  for (const piece of cell.split(/[,;|\t\r\n]/).slice(1)) {
    if (FORMULA_START.test(piece.replace(SKIPPED, ''))) return `splits into a formula: ${JSON.stringify(piece)}`;
  }
  return null;
}

/** RFC 4180 fields of a CSV text (quoted fields may hold separators, quotes doubled and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

const risky = (cells: string[]) =>
  cells.flatMap((cell) => {
    const why = formulaRisk(cell);
    return why ? [`${JSON.stringify(cell)}: ${why}`] : [];
  });

beforeAll(async () => {
  ({ app, owner } = await createTestAppAsOwner());
  const p = await owner.projects.createStudioProject.mutate({
    name: 'Formula house',
    sections: [PAYLOADS.section, 'Hall'],
    commandKey: uuid(),
  });
  projectId = p.id;
  const [first, hall] = p.sections.map((s) => s.id) as [string, string];
  const line = (sectionId: string, fields: Record<string, unknown>) =>
    createLine(owner, { projectId, sectionId, ...fields } as never);
  const attacked = await line(first, {
    heading: PAYLOADS.heading,
    description: PAYLOADS.description,
    brand: PAYLOADS.brand,
    finish: PAYLOADS.finish,
    dimensions: PAYLOADS.dimensions,
    clientPrice: { state: 'set', amount4: '1250000' },
  });
  for (const heading of [PAYLOADS.bullets, PAYLOADS.tab, PAYLOADS.pipe, PAYLOADS.fullWidth]) {
    await line(hall, { heading, clientPrice: { state: 'tbc' } });
  }
  const gone = await line(hall, { heading: PAYLOADS.removed });
  await owner.schedule.archiveScheduleLine.mutate({ projectId, lineId: gone.id, expectedVersion: gone.version });
  const property = await owner.properties.createCustomProperty.mutate({
    projectId,
    name: PROPERTY_NAME,
    kind: 'text',
    clientVisible: true,
    commandKey: uuid(),
  });
  const now = await owner.schedule.getScheduleLine.query({ projectId, lineId: attacked.id });
  await owner.properties.setCustomPropertyValue.mutate({
    projectId,
    lineId: attacked.id,
    propertyId: property.id,
    value: PAYLOADS.property,
    expectedVersion: now.version,
  } as never);
  const settings = await owner.clientDocument.getClientDocumentSettings.query({ projectId });
  await owner.clientDocument.updateClientDocumentSettings.mutate({
    projectId,
    expectedVersion: settings.version,
    columns: ['brand', 'finish', 'dimensions'],
    propertyIds: [property.id],
  });
});
afterAll(async () => app?.close());

describe('the CSV export', () => {
  let text: string;
  beforeAll(async () => {
    const doc = await exportClientSchedule(await workFor(app), { projectId, format: 'csv' });
    text = readFileSync(app.rt.files.originalPath(doc.sha256), 'utf8').replace(/^\uFEFF/, '');
  });

  it('holds every attack, and no cell an RFC 4180 reader finds starts a formula, headings included', () => {
    const rows = parseCsv(text);
    const header = rows[0]!;
    const body = rows.slice(1).flat().join('\n');
    // Each attack is there (as text), so the check below is about the real cells.
    expect(header.some((h) => h.includes(PROPERTY_NAME))).toBe(true);
    for (const payload of Object.values(PAYLOADS).filter((p) => p !== PAYLOADS.removed)) {
      expect(body.replaceAll("'", ''), JSON.stringify(payload)).toContain(payload.replace(/^\s+|\s+$/g, ''));
    }
    expect(risky(rows.flat())).toEqual([]);
    // A quote goes where a cell could start: the property's heading, after the semicolon, before a leading line feed.
    expect(header).toContain(`'${PROPERTY_NAME}`);
    const cells = rows.flat();
    expect(cells).toContain(";'=1+1");
    expect(cells).toContain("'\n'=1+1");
    expect(cells).toContain("Includes:\n'- two cushions\n'+ a cover");
    expect(cells).toContain(`'${PAYLOADS.brand}`);
  });

  it('read by a spreadsheet splitting at another separator (a semicolon locale, tabs, pipes), no field starts a formula', () => {
    const fields = text.split(/[,;|\t\r\n]/);
    expect(fields.length).toBeGreaterThan(50);
    expect(risky(fields)).toEqual([]);
  });
});

describe('the XLSX export', () => {
  let book: ExcelJS.Workbook;
  beforeAll(async () => {
    const doc = await exportClientSchedule(await workFor(app), { projectId, format: 'xlsx' });
    book = new ExcelJS.Workbook();
    await book.xlsx.readFile(app.rt.files.originalPath(doc.sha256));
  });

  it('holds no formula and no text cell that starts one, in either sheet, header rows included', () => {
    const texts: string[] = [];
    const formulas: string[] = [];
    for (const sheet of book.worksheets) {
      sheet.eachRow((row) =>
        row.eachCell((cell) => {
          if (cell.type === ExcelJS.ValueType.Formula) formulas.push(cell.address);
          if (typeof cell.value === 'string') texts.push(cell.value);
        }),
      );
    }
    expect(formulas).toEqual([]);
    expect(texts).toContain(`'${PROPERTY_NAME}`);
    expect(texts.join('\n').replaceAll("'", '')).toContain(PAYLOADS.removed);
    expect(texts.length).toBeGreaterThan(20);
    expect(risky(texts)).toEqual([]);
  });
});
