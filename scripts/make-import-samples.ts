/**
 * Writes the sample spreadsheets a newcomer imports into the demo project (README, "Importing a spreadsheet"):
 * samples/harbour-house-lighting.xlsx and samples/harbour-house-lighting.csv, the same lighting schedule as a studio
 * keeps it: title rows above the headings, the studio's own headings, a room column written once per group, a heading
 * row (merged across, in the workbook) starting a section, money written every way ("£1,250.00", 1250.5, "1,250.5",
 * a formula's cached result), value states (TBC, POA, incl., by others), lead times in weeks and days, and a totals
 * row. The CSV is what Excel's "CSV (Comma delimited)" writes on Windows: Windows-1252, so "£" is one byte.
 *
 *   npx tsx scripts/make-import-samples.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';

const OUT = join(import.meta.dirname, '..', 'samples');
const NAME = 'harbour-house-lighting';

type Cell = string | number | { formula: string; result: number } | null;

const HEADINGS = [
  'Ref',
  'Item',
  'Description',
  'Room',
  'Qty',
  'Unit',
  'Supplier',
  'Brand',
  'Product code',
  'Finish',
  'Dimensions',
  'Lead time (weeks)',
  'Net (£)',
  'RRP',
  'Client price',
  'Delivery',
  'Status',
  'Notes',
  'Total',
];

/** One row per schedule line: the workbook's cells; `text` gives the CSV's spelling where it differs. */
const LINES: Array<{ cells: Cell[]; text?: Record<number, string> }> = [
  {
    cells: [
      'L01',
      'Rise and fall pendant',
      'Opal glass shade on a brass rise-and-fall fitting.',
      'Kitchen',
      3,
      'no.',
      'Lumen House',
      'Original BTC',
      'OBTC-RF1',
      'Polished brass',
      'Ø 300 mm',
      '6-8',
      '£1,250.00',
      '£1,595.00',
      null,
      'incl.',
      'Specified',
      'Three over the island, 750 mm apart.',
      { formula: 'E5*1250', result: 3750 },
    ],
  },
  {
    cells: [
      'L02',
      'Under-cabinet LED strip',
      'Warm white 2700 K, dimmable.',
      null,
      4.5,
      'lm',
      'Lumen House',
      'Lumen House',
      'LH-STRIP-27',
      'Aluminium',
      '1000 mm lengths',
      '10 days',
      1250.5,
      'TBC',
      'POA',
      45,
      'Draft',
      null,
      null,
    ],
    text: { 12: '1250.50' },
  },
  {
    cells: [
      'L03',
      'Picture light',
      null,
      'Living Room',
      2,
      'ea',
      'Pooky',
      'Pooky',
      'PK-PL-01',
      'Antique brass',
      'W 400 mm',
      3,
      '1,250.5',
      89,
      { formula: 'M7*1.35', result: 1688.175 },
      'by others',
      'Approved',
      'Above the two oils either side of the fireplace.',
      null,
    ],
    text: { 14: '1688.175' },
  },
];

const GARDEN: Array<{ cells: Cell[]; text?: Record<number, string> }> = [
  {
    cells: [
      null,
      'Bulkhead wall light',
      'Cast aluminium, IP65, opal diffuser.',
      null,
      6,
      'ea',
      'Urban Cottage Industries',
      'Urban Cottage Industries',
      'UCI-BH-02',
      'Weathered copper',
      'Ø 220 mm',
      4,
      72.5,
      95,
      { formula: 'M10*1.35', result: 97.875 },
      'TBC',
      null,
      null,
      null,
    ],
    text: { 14: '97.875' },
  },
  {
    cells: [
      null,
      'Spike spotlight',
      'For the olive trees by the terrace.',
      null,
      4,
      'ea',
      'Lumen House',
      'Lumen House',
      'LH-SPK-4',
      'Graphite',
      null,
      'ex stock',
      'POA',
      'POA',
      'POA',
      'incl.',
      null,
      null,
      null,
    ],
  },
  {
    cells: [
      null,
      'Festoon clips',
      'Pack of ten.',
      null,
      5,
      'set',
      'Urban Cottage Industries',
      null,
      null,
      'Black',
      null,
      1,
      { formula: '0.1+0.2', result: 0.1 + 0.2 },
      0.5,
      null,
      'incl.',
      null,
      null,
      null,
    ],
    text: { 12: '0.30' },
  },
  {
    cells: [
      null,
      'Garden sockets',
      'Weatherproof double sockets, by the electrician.',
      null,
      2,
      'ea',
      null,
      null,
      null,
      null,
      null,
      null,
      'by others',
      null,
      'by others',
      null,
      null,
      null,
      null,
    ],
  },
];

/** How the CSV writes a cell: its text, the formula's shown value, or nothing. */
function csvText(cell: Cell, override: string | undefined): string {
  if (override !== undefined) return override;
  if (cell === null) return '';
  if (typeof cell === 'object') return String(cell.result);
  return String(cell);
}

const quote = (text: string) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

async function writeWorkbook() {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Hartley & Rowe Interiors';
  wb.created = new Date(Date.UTC(2026, 2, 3));
  wb.modified = wb.created;
  const ws = wb.addWorksheet('Lighting');
  ws.addRow(['Harbour House — Lighting schedule']).font = { bold: true, size: 14 };
  ws.addRow(['Hartley & Rowe Interiors · Rev C · 3 March 2026']);
  ws.addRow([]);
  ws.addRow(HEADINGS).font = { bold: true };
  for (const l of LINES) ws.addRow(l.cells);
  ws.addRow([]);
  const heading = ws.addRow(['Garden Lighting']);
  heading.font = { bold: true };
  ws.mergeCells(`A${heading.number}:S${heading.number}`);
  for (const l of GARDEN) ws.addRow(l.cells);
  ws.addRow([]);
  const first = 5;
  const last = ws.rowCount - 1;
  ws.addRow([null, 'Total', ...Array(16).fill(null), { formula: `SUM(S${first}:S${last})`, result: 3750 }]).font = {
    bold: true,
  };
  for (const col of ['M', 'N', 'O', 'P', 'S']) ws.getColumn(col).numFmt = '£#,##0.00';
  ws.getColumn('B').width = 28;
  ws.getColumn('C').width = 44;
  // A second sheet, as studios keep one: the import takes the first sheet unless told otherwise.
  wb.addWorksheet('Notes').addRow(['Prices are trade, ex VAT. Client prices are quoted where known.']);
  await wb.xlsx.writeFile(join(OUT, `${NAME}.xlsx`));
}

function writeCsv() {
  const rows: string[][] = [
    ['Harbour House - Lighting schedule'],
    ['Hartley & Rowe Interiors, Rev C, 3 March 2026'],
    [],
    HEADINGS,
    ...LINES.map((l) => l.cells.map((c, i) => csvText(c, l.text?.[i]))),
    [],
    ['Garden Lighting'],
    ...GARDEN.map((l) => l.cells.map((c, i) => csvText(c, l.text?.[i]))),
    [],
    ['', 'Total', ...Array(16).fill(''), '3750.00'],
  ];
  const text = `${rows.map((r) => r.map(quote).join(',')).join('\r\n')}\r\n`;
  // Windows-1252 for the characters used here ("£", "Ø", "é" …) is Latin-1; a character outside it would be a mistake.
  if ([...text].some((c) => c.codePointAt(0)! > 0xff))
    throw new Error('The CSV sample must stay within Windows-1252’s Latin-1 range.');
  writeFileSync(join(OUT, `${NAME}.csv`), Buffer.from(text, 'latin1'));
}

mkdirSync(OUT, { recursive: true });
await writeWorkbook();
writeCsv();
console.log(`wrote samples/${NAME}.xlsx and samples/${NAME}.csv`);
