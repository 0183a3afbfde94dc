import { ServiceError } from '../../core/errors.js';

/**
 * What reading one spreadsheet may cost, whatever the file says about itself. A workbook is a ZIP of XML: a file of a
 * few kilobytes can unpack to gigabytes, or ask for millions of rows, columns or characters. So the bounds are on what
 * is read, checked while it is read: the row limit (the caller's), these, and at most two files read at once
 * (read.ts). Each refusal says which bound and what to do.
 */

/** Characters in one cell: Excel's own limit, so no workbook Excel saved is refused by it. */
export const MAX_CELL_CHARS = 32_767;
/**
 * Bytes a workbook's parts may unpack to, counted as they are inflated (a part's declared size may lie), in the parts
 * a reading needs (the sheets, their texts and number formats; never images or drawings). A 10,000-row schedule of 11
 * columns unpacks to about 5 MiB, of 40 columns about 18 MiB, and a sheet stopped at the row limit is not read on;
 * reading 48 MiB of XML takes about a second, which is what a workbook of formatting and nothing else can cost.
 */
export const MAX_UNPACKED_BYTES = 48 * 1024 * 1024;
/** Cells read in all sheets, each row counted to its last filled cell (what the rows take in memory). */
export const MAX_CELLS = 4_000_000;
/** Characters read in all cells, a text repeated in many cells counted each time (what is kept and stored). */
export const MAX_TEXT_CHARS = 32_000_000;
/** Different texts a workbook's shared strings may hold (Excel keeps one for each distinct text in its cells). */
export const MAX_SHARED_STRINGS = 1_000_000;
/** Parts (files) in a workbook's ZIP: Excel writes a few dozen, more with many sheets or images. */
export const MAX_ZIP_PARTS = 10_000;
/**
 * Bytes of XML between two marks of markup (one cell's text, or the blank space between two tags). A cell's 32,767
 * characters take at most about 7 bytes each escaped (`_x000D_`, `&quot;`); no XML parser may gather more in one piece.
 */
export const MAX_XML_RUN_BYTES = 256 * 1024;
/** Bytes of one tag with its attributes; Excel's longest are a part's root element with its namespaces, about 1 KB. */
export const MAX_XML_TAG_BYTES = 64 * 1024;

const count = (n: number) => n.toLocaleString('en-GB');
const MiB = (n: number) => `${n / 1024 / 1024} MiB`;

/** Why a file could not be read as a spreadsheet: the bytes are another kind of file, or a damaged workbook. */
export class UnreadableSpreadsheet extends Error {
  constructor(
    readonly reason: 'legacy-xls' | 'not-a-spreadsheet' | 'damaged',
    message: string,
  ) {
    super(message);
  }
}

export const damagedWorkbook = () =>
  new UnreadableSpreadsheet(
    'damaged',
    'This ZIP file is not a readable Excel workbook (.xlsx); open it in Excel, save it again and resend it.',
  );

const tooLarge = (sentence: string, extra: Record<string, number>) =>
  new ServiceError('PAYLOAD_TOO_LARGE', sentence, { extra });

/** A cell longer than any cell Excel keeps; `where` names it ("Cell B7 of the sheet "Schedule"", "Row 12, column C"). */
export const cellTooLong = (where: string) =>
  tooLarge(
    `${where} holds more than ${count(MAX_CELL_CHARS)} characters, more than a cell takes (Excel's own limit); shorten it, or keep that text elsewhere, and send the file again.`,
    { maxCellCharacters: MAX_CELL_CHARS },
  );

/** More text (or blank space) in one place of a part's XML than any cell could hold. */
export const runTooLong = () =>
  tooLarge(
    `The workbook holds more than ${count(MAX_CELL_CHARS)} characters in one place (one cell's text, or blank space between cells), more than a cell takes (Excel's own limit); shorten that cell, or open the file in Excel, save it again and send that.`,
    { maxCellCharacters: MAX_CELL_CHARS },
  );

export const unpacksTooLarge = () =>
  tooLarge(
    `The workbook unpacks to more than ${MiB(MAX_UNPACKED_BYTES)} of sheets and text; an import reads no more. Delete the sheets, rows and formatting that are not the schedule (or save the schedule alone as CSV) and send it again.`,
    { maxUnpackedBytes: MAX_UNPACKED_BYTES },
  );

export const tooManyCells = () =>
  tooLarge(
    `The workbook's sheets hold more than ${count(MAX_CELLS)} cells in all; an import reads no more. Delete the sheets and columns that are not the schedule and send it again.`,
    { maxCells: MAX_CELLS },
  );

export const tooMuchText = () =>
  tooLarge(
    `The workbook's cells hold more than ${count(MAX_TEXT_CHARS)} characters in all (a text repeated in many cells counts each time); an import reads no more. Delete the sheets and columns that are not the schedule and send it again.`,
    { maxCharacters: MAX_TEXT_CHARS },
  );

export const tooManyTexts = () =>
  tooLarge(
    `The workbook holds more than ${count(MAX_SHARED_STRINGS)} different texts; an import reads no more. Delete the sheets that are not the schedule and send it again.`,
    { maxSharedStrings: MAX_SHARED_STRINGS },
  );

export const tooManyParts = () =>
  new UnreadableSpreadsheet(
    'damaged',
    `The workbook is made of more than ${count(MAX_ZIP_PARTS)} parts, which is not how Excel saves one; open it in Excel, save it again and send that.`,
  );
