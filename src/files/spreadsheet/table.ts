/**
 * A sheet as the import rules read it, whatever file it came from: rows of cell texts, row 1 first, exactly as a person
 * sees them numbered in their spreadsheet (blank rows kept, so row numbers in problems match). A cell is its text:
 * an XLSX number as its exact decimal (see xlsx-numbers.ts), a date as YYYY-MM-DD, an empty cell as ''. Trailing empty
 * cells are dropped.
 */
export type Row = string[];

export interface SheetTable {
  name: string;
  rows: Row[];
  /** True when the sheet had more rows than were read (the reader stops at its row limit). */
  truncated: boolean;
  /** When truncated: the first row past the limit that holds anything, where the reader knows it. */
  beyondRow?: number;
}

/** `0` → A, `25` → Z, `26` → AA: a column as spreadsheets letter it. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** `A` → 0, `AA` → 26; undefined for anything that is not a column letter. */
export function columnIndex(letter: string): number | undefined {
  if (!/^[A-Z]{1,3}$/.test(letter)) return undefined;
  let n = 0;
  for (const c of letter) n = n * 26 + (c.charCodeAt(0) - 64);
  return n - 1;
}

/**
 * A cell's text as it may be stored: Windows line ends made plain, non-breaking spaces ordinary, and what no record
 * may hold removed (NUL and the other control characters but tab and line feed, and lone UTF-16 surrogates, which
 * could not be stored as read and would break the audit digest).
 */
export function cleanCell(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      .replace(/\u00a0/g, ' ')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed.
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
  );
}

/** A row without its trailing empty cells. */
export function trimRow(cells: readonly string[]): Row {
  let end = cells.length;
  while (end > 0 && cells[end - 1] === '') end -= 1;
  return cells.slice(0, end);
}
