import { posix } from 'node:path';
import {
  cellTooLong,
  damagedWorkbook,
  MAX_CELL_CHARS,
  MAX_CELLS,
  MAX_SHARED_STRINGS,
  MAX_TEXT_CHARS,
  tooManyCells,
  tooManyTexts,
  tooMuchText,
} from './reading-limits.js';
import { cleanCell, columnLetter, type Row, type SheetTable, trimRow } from './table.js';
import { cellNumberText } from './xlsx-numbers.js';
import { parseXml } from './xml.js';
import { openZip, type WorkbookZip } from './zip.js';

/** Columns past this are not read: no schedule is wider, and a sheet claiming 16,384 columns must not cost memory. */
export const MAX_COLUMNS = 200;

/**
 * An XLSX workbook's sheets, in the workbook's order, each as a table of cell texts (table.ts). Read part by part from
 * the ZIP (zip.ts) as the parts inflate, parsed as they come (xml.ts), within the bounds of reading-limits.ts: each
 * sheet stops being read at the first row past `maxRows` that holds anything (`truncated`, `beyondRow`); a cell holds
 * at most 32,767 characters; the workbook's cells, characters, different texts and unpacked bytes are bounded in all.
 * Only what the cells say is read: column widths, styles other than number formats, drawings and the rest are never
 * inflated, so they cost nothing whatever they claim. Cells are read as the file stores them: a merged range keeps
 * its value in its first cell only and the others are empty, which is how a heading row merged across a schedule
 * reads as a row with only its first cell filled.
 *
 * Cells: a number as its exact decimal (xlsx-numbers.ts; "35%" for a percent-formatted one), a formula as its cached
 * result (a formula saved without one, as some generators write, is "=FORMULA" so a person sees what is there), a
 * date (a number in a date format, a formula's result too) as YYYY-MM-DD, rich text as its plain text (a phonetic
 * guide left out), TRUE/FALSE, an error as its code (#REF!).
 */
export async function readXlsx(bytes: Buffer, maxRows: number): Promise<SheetTable[]> {
  const zip = await openZip(bytes);
  const root = await relationships(zip, '_rels/.rels', '');
  const bookPath = root.find((r) => r.type === 'officeDocument')?.target ?? 'xl/workbook.xml';
  if (!zip.has(bookPath)) throw damagedWorkbook();
  const workbook = await readWorkbook(zip, bookPath);
  const relsPath = posix.join(posix.dirname(bookPath), '_rels', `${posix.basename(bookPath)}.rels`);
  const rels = zip.has(relsPath) ? await relationships(zip, relsPath, posix.dirname(bookPath)) : undefined;
  const partOf = (type: string, usual: string) => {
    const path = rels ? rels.find((r) => r.type === type)?.target : usual;
    return path !== undefined && zip.has(path) ? path : undefined;
  };
  const stylesPath = partOf('styles', 'xl/styles.xml');
  const sharedPath = partOf('sharedStrings', 'xl/sharedStrings.xml');
  const book: Book = {
    maxRows,
    date1904: workbook.date1904,
    format: stylesPath ? await readStyles(zip, stylesPath) : () => undefined,
    shared: sharedPath ? await readSharedStrings(zip, sharedPath) : [],
    cells: 0,
    chars: 0,
  };
  const tables: SheetTable[] = [];
  for (const sheet of sheetParts(zip, workbook.sheets, rels)) tables.push(await readSheet(zip, sheet, book));
  return tables;
}

/** What every sheet of a workbook shares while it is read, and what has been read so far. */
interface Book {
  maxRows: number;
  date1904: boolean;
  /** A cell style's number format code, if it has one. */
  format(style: number): string | undefined;
  shared: SharedString[];
  /** Cells read so far (each row counted to its last filled cell, a blank row as one) and their characters. */
  cells: number;
  chars: number;
}

/** A shared string longer than a cell takes: refused if a cell read uses it. */
const TOO_LONG = Symbol('too long');
type SharedString = string | typeof TOO_LONG;

/**
 * Text gathered from the pieces a parser reports, up to twice what a cell takes (room for what cleaning removes);
 * past that only the fact that it was too long is kept.
 */
class Gathered {
  text = '';
  over = false;
  add(piece: string) {
    if (this.over) return;
    if (this.text.length + piece.length > 2 * MAX_CELL_CHARS) {
      this.over = true;
      this.text = '';
    } else this.text += piece;
  }
  /** The text cleaned (table.ts), or TOO_LONG. */
  cell(): SharedString {
    if (this.over) return TOO_LONG;
    const text = cleanCell(this.text);
    return text.length > MAX_CELL_CHARS ? TOO_LONG : owned(text);
  }
}

/**
 * The text as a string of its own. A parser's text is often a slice of the whole chunk it came in, and keeping the
 * slice keeps the chunk: a few kept cells could hold on to every chunk of a part.
 */
const owned = (text: string) => (text.length > 12 ? Buffer.from(text, 'utf8').toString('utf8') : text);

interface Relationship {
  id: string;
  /** The last segment of its type (worksheet, sharedStrings, styles, officeDocument). */
  type: string;
  /** The part it names, as a path in the ZIP. */
  target: string;
}

/** A part's relationships (a `.rels` part), their targets resolved against `dir`; none when there is no such part. */
async function relationships(zip: WorkbookZip, path: string, dir: string): Promise<Relationship[]> {
  if (!zip.has(path)) return [];
  const found: Relationship[] = [];
  await parseXml(zip.read(path, { whole: true }), {
    open({ name, attributes: a }) {
      if (name !== 'Relationship' || !a.Id || !a.Target || a.TargetMode === 'External') return;
      const target = a.Target.startsWith('/') ? a.Target : posix.join(dir, a.Target);
      found.push({
        id: a.Id,
        type: (a.Type ?? '').slice((a.Type ?? '').lastIndexOf('/') + 1),
        target: posix.normalize(target).replace(/^\/+/, ''),
      });
    },
  });
  return found;
}

async function readWorkbook(zip: WorkbookZip, path: string) {
  const sheets: Array<{ name: string; rid: string | undefined }> = [];
  let date1904 = false;
  await parseXml(zip.read(path, { whole: true }), {
    open({ name, attributes: a }) {
      if (name === 'sheet') {
        const rid = Object.keys(a).find((k) => k.endsWith(':id'));
        sheets.push({ name: a.name ?? `Sheet${sheets.length + 1}`, rid: rid && a[rid] });
      } else if (name === 'workbookPr') date1904 = a.date1904 === '1' || a.date1904 === 'true';
    },
  });
  return { sheets, date1904 };
}

/**
 * The worksheets to read, in the workbook's order (chart sheets left out). A workbook without its relationships part
 * (some generators leave it out) has its worksheets found by their usual names, in the ZIP's order.
 */
function sheetParts(
  zip: WorkbookZip,
  sheets: ReadonlyArray<{ name: string; rid: string | undefined }>,
  rels: readonly Relationship[] | undefined,
): Array<{ name: string; path: string }> {
  if (!rels) {
    return zip.names().flatMap((path) => {
      const n = /^\/?xl\/worksheets\/sheet(\d+)\.xml$/i.exec(path)?.[1];
      return n === undefined ? [] : [{ name: `Sheet${n}`, path }];
    });
  }
  return sheets.flatMap((s) => {
    const rel = rels.find((r) => r.id === s.rid);
    return rel && rel.type === 'worksheet' && zip.has(rel.target) ? [{ name: s.name, path: rel.target }] : [];
  });
}

/** The formats of Excel's built-in number format ids that make a number a date, a time or a percent. */
const BUILT_IN_FORMATS: Record<number, string> = {
  9: '0%',
  10: '0.00%',
  14: 'mm-dd-yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy "h":mm',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
};
/** Styles and custom formats kept: Excel's own limits are 64,000 and about 250; the rest are ignored. */
const MAX_STYLES = 100_000;

/** The number format of each cell style (`s` on a cell indexes cellXfs), the only style a reading needs. */
async function readStyles(zip: WorkbookZip, path: string): Promise<Book['format']> {
  const custom = new Map<number, string>();
  const styles: number[] = [];
  let inCellXfs = false;
  await parseXml(zip.read(path, { whole: true }), {
    open({ name, attributes: a }) {
      if (name === 'numFmt' && custom.size < MAX_STYLES) custom.set(int(a.numFmtId), a.formatCode ?? '');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs && styles.length < MAX_STYLES) styles.push(int(a.numFmtId));
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return (style) => {
    const id = styles[style];
    return id ? custom.get(id) || BUILT_IN_FORMATS[id] : undefined;
  };
}

/** The workbook's shared strings (each a rich text's runs joined, its phonetic guide left out), cleaned. */
async function readSharedStrings(zip: WorkbookZip, path: string): Promise<SharedString[]> {
  const strings: SharedString[] = [];
  let chars = 0;
  let current: Gathered | undefined;
  let inText = false;
  let phonetic = 0;
  await parseXml(zip.read(path, { whole: true }), {
    open({ name }) {
      if (name === 'si') current = new Gathered();
      else if (name === 'rPh') phonetic++;
      else if (name === 't') inText = phonetic === 0;
    },
    text(t) {
      if (inText) current?.add(t);
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si' && current) {
        const text = current.cell();
        current = undefined;
        if (strings.length >= MAX_SHARED_STRINGS) throw tooManyTexts();
        if (text !== TOO_LONG && (chars += text.length) > MAX_TEXT_CHARS) throw tooMuchText();
        strings.push(text);
      }
    },
  });
  return strings;
}

interface Cell {
  /** `t`: s (shared string), inlineStr, str (a formula's text), b, e, d, or n (a number, the default). */
  type: string;
  style: number;
  v?: Gathered;
  f?: Gathered;
  is?: Gathered;
}

async function readSheet(zip: WorkbookZip, sheet: { name: string; path: string }, book: Book): Promise<SheetTable> {
  const reading = new SheetReading(sheet.name, book);
  // Once a row past the limit holds something, the rest of the chunk in hand is ignored and no more is inflated.
  await parseXml(zip.read(sheet.path), {
    open: ({ name, attributes }) => reading.open(name, attributes),
    text: (t) => reading.text(t),
    close: (name) => reading.close(name),
    done: () => reading.beyondRow !== undefined,
  });
  return reading.table();
}

/** One worksheet being read: the parser's events in, rows out, stopping at the first row past the limit that holds. */
class SheetReading {
  private readonly rows: Row[] = [];
  /** The first row past the limit that holds something; reading stops there. */
  beyondRow: number | undefined;
  private inData = false;
  /** The row being read (0 outside one), the last row read, and whether a row past the limit holds anything. */
  private rowNumber = 0;
  private lastRow = 0;
  private holds = false;
  private cells: string[] = [];
  private column = 0;
  private cell: Cell | undefined;
  private into: Gathered | undefined;
  private phonetic = 0;

  constructor(
    private readonly sheet: string,
    private readonly book: Book,
  ) {}

  open(name: string, a: Record<string, string>) {
    if (this.beyondRow !== undefined) return;
    const cell = this.cell;
    switch (name) {
      case 'sheetData':
        this.inData = true;
        break;
      case 'row':
        if (!this.inData) break;
        this.rowNumber = positive(a.r) ?? this.lastRow + 1;
        this.lastRow = this.rowNumber;
        this.cells = [];
        this.column = 0;
        this.holds = false;
        break;
      case 'c':
        if (!this.rowNumber) break;
        this.column = columnOf(a.r) ?? this.column + 1;
        this.cell = { type: a.t ?? 'n', style: int(a.s) };
        break;
      case 'v':
        if (cell) this.into = cell.v = new Gathered();
        break;
      case 'f':
        if (cell) this.into = cell.f = new Gathered();
        break;
      case 'is':
        if (cell) cell.is = new Gathered();
        break;
      case 'rPh':
        this.phonetic++;
        break;
      case 't':
        if (cell?.is && this.phonetic === 0) this.into = cell.is;
        break;
    }
  }

  text(t: string) {
    this.into?.add(t);
  }

  close(name: string) {
    if (this.beyondRow !== undefined) return;
    switch (name) {
      case 'v':
      case 'f':
      case 't':
        this.into = undefined;
        break;
      case 'rPh':
        this.phonetic--;
        break;
      case 'c':
        if (this.cell) this.endCell(this.cell);
        this.cell = this.into = undefined;
        break;
      case 'row':
        if (this.rowNumber) this.endRow();
        this.rowNumber = 0;
        break;
      case 'sheetData':
        this.inData = false;
        break;
    }
  }

  table(): SheetTable {
    const beyondRow = this.beyondRow;
    return {
      name: this.sheet,
      rows: this.rows,
      truncated: beyondRow !== undefined,
      ...(beyondRow ? { beyondRow } : {}),
    };
  }

  private endCell(c: Cell) {
    const text = cellText(c, this.book);
    if (this.rowNumber > this.book.maxRows) {
      this.holds ||= text !== '';
      return;
    }
    if (this.column > MAX_COLUMNS) return;
    if (text === TOO_LONG)
      throw cellTooLong(`Cell ${columnLetter(this.column - 1)}${this.rowNumber} of the sheet "${this.sheet}"`);
    if (text) this.cells[this.column - 1] = text;
  }

  private endRow() {
    if (this.rowNumber > this.book.maxRows) {
      if (this.holds) this.beyondRow = this.rowNumber;
      return;
    }
    const row = trimRow(Array.from(this.cells, (c) => c ?? ''));
    this.count(row);
    // Rows the file leaves out (blank ones) still count, so row numbers match the spreadsheet's.
    while (this.rows.length < this.rowNumber - 1) {
      this.rows.push([]);
      this.count([]);
    }
    this.rows[this.rowNumber - 1] = row;
  }

  private count(row: Row) {
    const book = this.book;
    book.cells += Math.max(1, row.length);
    for (const c of row) book.chars += c.length;
    if (book.cells > MAX_CELLS) throw tooManyCells();
    if (book.chars > MAX_TEXT_CHARS) throw tooMuchText();
  }
}

/** A cell's text as a person sees it (see readXlsx), or TOO_LONG. */
function cellText(c: Cell, book: Book): SharedString {
  const value = c.v?.over ? TOO_LONG : c.v?.text;
  if (value === undefined) {
    if (c.is) return c.is.cell();
    // A formula saved without its result.
    if (c.f) return c.f.over ? TOO_LONG : cleanCell(`=${c.f.text}`);
    return '';
  }
  if (value === TOO_LONG) return TOO_LONG;
  switch (c.type) {
    case 's':
      return book.shared[Number.parseInt(value, 10)] ?? '';
    case 'inlineStr':
    case 'str':
    case 'e':
      return c.v!.cell();
    case 'b':
      return value === '' ? '' : Number.parseInt(value, 10) !== 0 ? 'TRUE' : 'FALSE';
    case 'd': {
      const date = new Date(value);
      return Number.isNaN(date.getTime()) ? c.v!.cell() : dateText(date);
    }
    default: {
      if (value.trim() === '') return '';
      const n = Number(value);
      if (!Number.isFinite(n)) return c.v!.cell();
      const format = c.style ? book.format(c.style) : undefined;
      if (isDate(format)) return dateText(excelDate(n, book.date1904));
      return cellNumberText(n, isPercent(format));
    }
  }
}

/** A positive integer attribute, or undefined. */
function positive(text: string | undefined): number | undefined {
  const n = text === undefined ? Number.NaN : Number(text);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

const int = (text: string | undefined) => positive(text) ?? 0;

/** A cell reference's column (B7 → 2); any column past Excel's (more than three letters) as one past MAX_COLUMNS. */
function columnOf(ref: string | undefined): number | undefined {
  const letters = ref && /^[A-Z]+/.exec(ref)?.[0];
  if (!letters) return undefined;
  if (letters.length > 3) return MAX_COLUMNS + 1;
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** A date format (y, m, d, h, s or b outside quotes and brackets), as Excel and exceljs tell dates from numbers. */
const isDate = (format: string | undefined) =>
  !!format && /[ymdhMsb]/.test(format.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));

/** A percent format ("0%", "0.00%"), not a literal % inside quotes. */
const isPercent = (format: string | undefined) => !!format && /%/.test(format.replace(/"[^"]*"/g, ''));

/** An Excel serial date as the UTC instant it shows (1900 system; the 1904 one 1,462 days later). */
const excelDate = (serial: number, date1904: boolean) =>
  new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000));

/** A date as the calendar date it shows (UTC midnight), with the time only when it has one. */
function dateText(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const iso = d.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 16).replace('T', ' ');
}
