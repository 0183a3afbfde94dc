import type { LineStatus } from '../../../db/vocabulary.js';
import { columnIndex, type Row } from '../../files/spreadsheet/table.js';
import { readLeadTime, readMarkup, readQuantity, readStatus, readUrl } from './cells.js';
import type { ImportField, ImportMapping, MappedColumn } from './fields.js';
import { isDerivedHeading, normaliseHeading } from './headings.js';
import { type ImportLookups, nameKey, unitKey } from './lookups.js';
import { type CellPrice, readPrice } from './prices.js';
import type { CellProblem } from './problems.js';

/**
 * The rules that turn a sheet into lines, without writing anything: preview shows the plan, commit and paste apply
 * it (apply.ts). Reading a row:
 * - rows down to the heading row are titles and are skipped; blank rows are skipped;
 * - a row with only its first cell filled is a heading row: the section of the lines below it (unless the mapping
 *   turns heading rows off);
 * - a section (room) column names the line's section; a row without one stays in the section of the row above (so
 *   a room written once per group, or merged down the column, covers its group);
 * - a totals row ("Total", "Subtotal" …) is left out: the schedule works out its own totals;
 * - every other row with something in a mapped column is a line; its cells are read by their field's rules, and
 *   each cell that cannot be read is a problem with its row and column.
 * Sections and suppliers are matched by name to the project's and studio's active ones, or planned as new.
 */

export interface PlannedLine {
  row: number;
  sectionKey: string;
  heading: string;
  description: string;
  code: string | null;
  status: LineStatus | null;
  supplierKey: string | null;
  brand: string | null;
  productCode: string | null;
  finish: string | null;
  dimensions: string | null;
  leadTimeDays: number | null;
  url: string | null;
  quantity4: string;
  unitId: string;
  unitName: string;
  /** Absent: the line's default (to be confirmed; the client price derived from trade × markup). */
  tradePrice?: CellPrice;
  retailPrice?: CellPrice;
  clientPrice?: CellPrice;
  deliveryPrice?: CellPrice;
  markup4?: string;
  /** A cell of this row has an error: it becomes a line only once fixed (or is left out when asked). */
  hasErrors: boolean;
}

export interface PlannedSection {
  key: string;
  title: string;
  /** The existing active section of that title, or null: a new section is created. */
  id: string | null;
  /** The row that named it first (null: the default section, named by no row). */
  row: number | null;
  lines: number;
}

export interface PlannedSupplier {
  key: string;
  name: string;
  /** The studio's active supplier of that name, or null: a new supplier is created. */
  id: string | null;
  lines: number;
}

export interface PlanCounts {
  /** Rows below the headings that hold anything. */
  rows: number;
  /** Rows that become lines (with errors or not). */
  lines: number;
  linesWithErrors: number;
  headingRows: number;
  blankRows: number;
  /** Totals rows, left out. */
  skippedRows: number;
  errors: number;
  warnings: number;
}

export interface ImportPlan {
  lines: PlannedLine[];
  sections: PlannedSection[];
  suppliers: PlannedSupplier[];
  problems: CellProblem[];
  counts: PlanCounts;
}

/** Where lines go that no heading row or room cell places: an existing section, or a new one of this title. */
export type DefaultSection = { id: string; title: string } | { id: null; title: string };
export const DEFAULT_SECTION_TITLE = 'Imported lines';

const MAX_TEXT: Partial<Record<ImportField, number>> = {
  section: 200,
  heading: 500,
  description: 20_000,
  code: 40,
  supplier: 200,
  brand: 200,
  productCode: 200,
  finish: 500,
  dimensions: 500,
};
const TOTALS = /^(?:grand |sub ?)?totals?\b/;
const clip = (text: string) => (text.length > 100 ? `${text.slice(0, 99)}…` : text);

export function planImport(
  rows: readonly Row[],
  mapping: ImportMapping,
  lookups: ImportLookups,
  defaultSection: DefaultSection = { id: null, title: DEFAULT_SECTION_TITLE },
): ImportPlan {
  const problems: CellProblem[] = [];
  const counts: PlanCounts = {
    rows: 0,
    lines: 0,
    linesWithErrors: 0,
    headingRows: 0,
    blankRows: 0,
    skippedRows: 0,
    errors: 0,
    warnings: 0,
  };
  const sections = new Map<string, PlannedSection>();
  const suppliers = new Map<string, PlannedSupplier>();
  const lines: PlannedLine[] = [];
  const mapped = mapping.columns
    .map((c, index) => ({ ...c, index: columnIndex(c.column) ?? index }))
    .filter((c) => c.field !== null);
  const headings = rows[mapping.headerRow - 1] ?? [];
  const firstColumn = Math.max(
    0,
    headings.findIndex((h) => h.trim() !== ''),
  );

  const sectionFor = (title: string, row: number | null): string => {
    const key = nameKey(title);
    if (!sections.has(key)) {
      const existing =
        defaultSection.id && nameKey(defaultSection.title) === key ? defaultSection : lookups.sections.get(key);
      sections.set(key, { key, title: existing?.title ?? title.trim(), id: existing?.id ?? null, row, lines: 0 });
    }
    return key;
  };
  let current: string | null = null;

  for (let r = mapping.headerRow; r < rows.length; r++) {
    const rowNo = r + 1;
    const cells = (rows[r] ?? []).map((c) => c.trim());
    let filled = 0;
    let firstFilled = -1;
    for (let i = 0; i < cells.length; i++) {
      if (!cells[i]) continue;
      filled += 1;
      if (firstFilled < 0) firstFilled = i;
    }
    if (!filled) {
      counts.blankRows += 1;
      continue;
    }
    counts.rows += 1;
    const problem = (
      severity: CellProblem['severity'],
      col: (MappedColumn & { index: number }) | null,
      message: string,
    ) => {
      problems.push({
        row: rowNo,
        column: col?.column ?? null,
        heading: col?.heading || null,
        field: col?.field ?? null,
        severity,
        value: clip(col ? (cells[col.index] ?? '') : ''),
        message,
      });
      counts[severity === 'error' ? 'errors' : 'warnings'] += 1;
    };

    if (mapping.headingRows && filled === 1 && firstFilled === firstColumn) {
      const title = cells[firstColumn]!;
      if (title.length > 200) {
        problem('error', null, 'A section title is at most 200 characters; shorten this heading row.');
      } else {
        current = sectionFor(title, rowNo);
        counts.headingRows += 1;
      }
      continue;
    }
    // The cheap test first: a totals row holds one word among figures, and most rows hold several words, so their
    // cells are never normalised (normalising every cell of every row was a fifth of a 10,000-row plan).
    if (isTotalsRow(cells, mapped) && cells.some((c) => TOTALS.test(normaliseHeading(c)))) {
      counts.skippedRows += 1;
      problem('warning', null, 'Left out: this is a totals row, and the schedule works out its own totals.');
      continue;
    }

    const values = new Map<ImportField, Array<{ col: (typeof mapped)[number]; text: string }>>();
    for (const col of mapped) {
      const text = cells[col.index] ?? '';
      if (!text) continue;
      const cellsOfField = values.get(col.field!);
      if (cellsOfField) cellsOfField.push({ col, text });
      else values.set(col.field!, [{ col, text }]);
    }
    const one = (field: ImportField) => values.get(field)?.[0];
    const room = one('section');
    if (room) {
      if (room.text.length > 200) problem('error', room.col, 'A section title is at most 200 characters; shorten it.');
      else current = sectionFor(room.text, rowNo);
    }
    // Only a room: the row places the rows below it and is not a line.
    if (values.size === (values.has('section') ? 1 : 0)) continue;

    let hasErrors = false;
    const error = (col: (typeof mapped)[number] | null, message: string) => {
      hasErrors = true;
      problem('error', col, message);
    };
    const text = (field: ImportField): string | null => {
      const cell = one(field);
      if (!cell) return null;
      const max = MAX_TEXT[field];
      if (max && cell.text.length > max) {
        error(
          cell.col,
          `This is ${cell.text.length} characters long; a line's ${cell.col.heading || field} takes at most ${max}. Shorten it.`,
        );
        return null;
      }
      return cell.text;
    };
    const formula = (cell: { col: (typeof mapped)[number]; text: string }) => {
      if (!/^=[A-Za-z0-9(]/.test(cell.text)) return false;
      error(
        cell.col,
        'This cell holds a formula whose result was not saved with the file; open the file in Excel or another spreadsheet, save it, and upload it again.',
      );
      return true;
    };

    let heading = text('heading');
    const descriptions = (values.get('description') ?? []).map((d) => d.text);
    const description = descriptions.join('\n\n');
    if (description.length > MAX_TEXT.description!) {
      error(values.get('description')![0]!.col, 'The description is over 20,000 characters; shorten it.');
    }
    if (!heading && !hasErrors) {
      const first = description.split('\n')[0]!.trim().slice(0, 500);
      if (first) {
        heading = first;
        problem(
          'warning',
          null,
          'This row has no item name, so the first line of its description was used as the heading.',
        );
      } else {
        error(null, 'This row has no item name (heading); fill it in, or clear the row to leave it out.');
      }
    }

    let quantity4 = '10000';
    let unit = lookups.defaultUnit;
    let unitWritten = one('unit')?.text;
    const qty = one('quantity');
    if (qty && !formula(qty)) {
      const q = readQuantity(qty.text);
      if (!q.ok) error(qty.col, q.message);
      else {
        quantity4 = q.value.amount4;
        unitWritten ??= q.value.unit;
      }
    }
    if (unitWritten) {
      const found = lookups.units.get(unitKey(unitWritten));
      if (found) unit = found;
      else {
        const col = one('unit')?.col ?? qty?.col ?? null;
        problem(
          'warning',
          col,
          `The studio has no unit "${clip(unitWritten)}", so ${unit.name} was used; add the unit (create_unit) and preview again to use it.`,
        );
      }
    }

    const price = (field: 'tradePrice' | 'retailPrice' | 'clientPrice' | 'deliveryPrice'): CellPrice | undefined => {
      const cell = one(field);
      if (!cell || formula(cell)) return undefined;
      const p = readPrice(cell.text, lookups.currency);
      if (!p.ok) {
        error(cell.col, p.message);
        return undefined;
      }
      return p.price;
    };
    const tradePrice = price('tradePrice');
    const retailPrice = price('retailPrice');
    const clientPrice = price('clientPrice');
    const deliveryPrice = price('deliveryPrice');
    let markup4: string | undefined;
    const markup = one('markup');
    if (markup && !formula(markup)) {
      const m = readMarkup(markup.text);
      if (m.ok) markup4 = m.value;
      else error(markup.col, m.message);
    }

    let status: LineStatus | null = null;
    const statusCell = one('status');
    if (statusCell) {
      const s = readStatus(statusCell.text);
      if (s.ok) status = s.value;
      else problem('warning', statusCell.col, s.message);
    }
    let leadTimeDays: number | null = null;
    const lead = one('leadTimeDays');
    if (lead) {
      const l = readLeadTime(lead.text, lead.col.heading);
      if (l.ok) leadTimeDays = l.value;
      else problem('warning', lead.col, l.message);
    }
    let url: string | null = null;
    const link = one('url');
    if (link) {
      const u = readUrl(link.text);
      if (u.ok) url = u.value;
      else problem('warning', link.col, u.message);
    }

    const supplierName = text('supplier');
    let supplierKey: string | null = null;
    if (supplierName) {
      supplierKey = nameKey(supplierName);
      const s = suppliers.get(supplierKey) ?? {
        key: supplierKey,
        name: lookups.suppliers.get(supplierKey)?.name ?? supplierName,
        id: lookups.suppliers.get(supplierKey)?.id ?? null,
        lines: 0,
      };
      s.lines += 1;
      suppliers.set(supplierKey, s);
    }

    const plain = {
      code: text('code'),
      brand: text('brand'),
      productCode: text('productCode'),
      finish: text('finish'),
      dimensions: text('dimensions'),
    };
    current ??= sectionFor(defaultSection.title, null);
    sections.get(current)!.lines += 1;
    counts.lines += 1;
    if (hasErrors) counts.linesWithErrors += 1;
    lines.push({
      row: rowNo,
      sectionKey: current,
      heading: heading ?? '',
      description,
      status,
      supplierKey,
      ...plain,
      leadTimeDays,
      url,
      quantity4,
      unitId: unit.id,
      unitName: unit.name,
      ...(tradePrice ? { tradePrice } : {}),
      ...(retailPrice ? { retailPrice } : {}),
      ...(clientPrice ? { clientPrice } : {}),
      ...(deliveryPrice ? { deliveryPrice } : {}),
      ...(markup4 !== undefined ? { markup4 } : {}),
      hasErrors,
    });
  }
  return { lines, sections: [...sections.values()], suppliers: [...suppliers.values()], problems, counts };
}

/**
 * A row that says "Total" and otherwise holds only figures (and nothing under the item's own text columns but that
 * word): the sum lines a schedule ends its sections with.
 */
function isTotalsRow(
  cells: readonly string[],
  mapped: ReadonlyArray<{ field: ImportField | null; index: number }>,
): boolean {
  const words = cells.filter((c) => c && !/^[£€$]?\s*[-\d.,\s()]+$/.test(c));
  return (
    words.length === 1 && (TOTALS.test(normaliseHeading(words[0]!)) || isDerivedHeading(words[0]!)) && mapped.length > 0
  );
}
