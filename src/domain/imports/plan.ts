import type { LineStatus } from '../../../db/vocabulary.js';
import { columnIndex, type Row } from '../../files/spreadsheet/table.js';
import type { ImportField, ImportMapping } from './fields.js';
import { isDerivedHeading, normaliseHeading } from './headings.js';
import { type ImportLookups, nameKey } from './lookups.js';
import {
  clip,
  type FieldCell,
  type LineCells,
  LineReader,
  type PlanColumn,
  type ReportProblem,
  readLine,
} from './plan-line.js';
import type { CellPrice } from './prices.js';
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

const TOTALS = /^(?:grand |sub ?)?totals?\b/;

/** What the plan keeps while it reads the rows one by one. */
interface Planning {
  mapping: ImportMapping;
  lookups: ImportLookups;
  defaultSection: DefaultSection;
  mapped: PlanColumn[];
  /** The column a heading row writes its title in: the first with a heading. */
  firstColumn: number;
  lines: PlannedLine[];
  sections: Map<string, PlannedSection>;
  suppliers: Map<string, PlannedSupplier>;
  problems: CellProblem[];
  counts: PlanCounts;
  /** The section of the rows above, which a row naming none stays in. */
  current: string | null;
}

export function planImport(
  rows: readonly Row[],
  mapping: ImportMapping,
  lookups: ImportLookups,
  defaultSection: DefaultSection = { id: null, title: DEFAULT_SECTION_TITLE },
): ImportPlan {
  const planning = startPlanning(rows, mapping, lookups, defaultSection);
  for (let r = mapping.headerRow; r < rows.length; r++) {
    planRow(
      planning,
      r + 1,
      (rows[r] ?? []).map((c) => c.trim()),
    );
  }
  const { lines, sections, suppliers, problems, counts } = planning;
  return { lines, sections: [...sections.values()], suppliers: [...suppliers.values()], problems, counts };
}

// The mapping's columns and the heading row's first column are worked out once, not for every row.
function startPlanning(
  rows: readonly Row[],
  mapping: ImportMapping,
  lookups: ImportLookups,
  defaultSection: DefaultSection,
): Planning {
  const mapped = mapping.columns
    .map((c, index) => ({ ...c, index: columnIndex(c.column) ?? index }))
    .filter((c) => c.field !== null);
  const headings = rows[mapping.headerRow - 1] ?? [];
  const firstColumn = Math.max(
    0,
    headings.findIndex((h) => h.trim() !== ''),
  );
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
  return {
    mapping,
    lookups,
    defaultSection,
    mapped,
    firstColumn,
    lines: [],
    sections: new Map(),
    suppliers: new Map(),
    problems: [],
    counts,
    current: null,
  };
}

// Each kind of row (blank, heading, totals, a room alone, a line) is counted and placed by its own rule.
function planRow(planning: Planning, rowNo: number, cells: readonly string[]): void {
  let filled = 0;
  let firstFilled = -1;
  for (let i = 0; i < cells.length; i++) {
    if (!cells[i]) continue;
    filled += 1;
    if (firstFilled < 0) firstFilled = i;
  }
  if (!filled) {
    planning.counts.blankRows += 1;
    return;
  }
  planning.counts.rows += 1;
  const problem = problemsOfRow(planning, rowNo, cells);

  if (planning.mapping.headingRows && filled === 1 && firstFilled === planning.firstColumn) {
    const title = cells[planning.firstColumn]!;
    if (title.length > 200) {
      problem('error', null, 'A section title is at most 200 characters; shorten this heading row.');
    } else {
      planning.current = sectionFor(planning, title, rowNo);
      planning.counts.headingRows += 1;
    }
    return;
  }
  // The cheap test first: a totals row holds one word among figures, and most rows hold several words, so their
  // cells are never normalised (normalising every cell of every row was a fifth of a 10,000-row plan).
  if (isTotalsRow(cells, planning.mapped) && cells.some((c) => TOTALS.test(normaliseHeading(c)))) {
    planning.counts.skippedRows += 1;
    problem('warning', null, 'Left out: this is a totals row, and the schedule works out its own totals.');
    return;
  }

  const values = cellsByField(cells, planning.mapped);
  const room = values.get('section')?.[0];
  if (room) {
    if (room.text.length > 200) problem('error', room.col, 'A section title is at most 200 characters; shorten it.');
    else planning.current = sectionFor(planning, room.text, rowNo);
  }
  // Only a room: the row places the rows below it and is not a line.
  if (values.size === (values.has('section') ? 1 : 0)) return;
  addLine(planning, rowNo, readLine(new LineReader(values, problem), planning.lookups));
}

// Every problem names its row, column and cell, and is counted by severity, however the row is read.
function problemsOfRow(planning: Planning, rowNo: number, cells: readonly string[]): ReportProblem {
  return (severity, col, message) => {
    planning.problems.push({
      row: rowNo,
      column: col?.column ?? null,
      heading: col?.heading || null,
      field: col?.field ?? null,
      severity,
      value: clip(col ? (cells[col.index] ?? '') : ''),
      message,
    });
    planning.counts[severity === 'error' ? 'errors' : 'warnings'] += 1;
  };
}

// A field may be mapped to several columns (descriptions are): its filled cells, in the mapping's order.
function cellsByField(cells: readonly string[], mapped: readonly PlanColumn[]): Map<ImportField, FieldCell[]> {
  const values = new Map<ImportField, FieldCell[]>();
  for (const col of mapped) {
    const text = cells[col.index] ?? '';
    if (!text) continue;
    const cellsOfField = values.get(col.field!);
    if (cellsOfField) cellsOfField.push({ col, text });
    else values.set(col.field!, [{ col, text }]);
  }
  return values;
}

// Sections are matched by name, so a room written in any case joins the project's section (or the default's).
function sectionFor(planning: Planning, title: string, row: number | null): string {
  const { sections, defaultSection, lookups } = planning;
  const key = nameKey(title);
  if (!sections.has(key)) {
    const existing =
      defaultSection.id && nameKey(defaultSection.title) === key ? defaultSection : lookups.sections.get(key);
    sections.set(key, { key, title: existing?.title ?? title.trim(), id: existing?.id ?? null, row, lines: 0 });
  }
  return key;
}

// A line counts towards its supplier and section, which are planned (matched or new) as they are first met.
function addLine(planning: Planning, rowNo: number, line: LineCells): void {
  const { supplierName, prices } = line;
  let supplierKey: string | null = null;
  if (supplierName) {
    supplierKey = nameKey(supplierName);
    const s = planning.suppliers.get(supplierKey) ?? {
      key: supplierKey,
      name: planning.lookups.suppliers.get(supplierKey)?.name ?? supplierName,
      id: planning.lookups.suppliers.get(supplierKey)?.id ?? null,
      lines: 0,
    };
    s.lines += 1;
    planning.suppliers.set(supplierKey, s);
  }
  planning.current ??= sectionFor(planning, planning.defaultSection.title, null);
  planning.sections.get(planning.current)!.lines += 1;
  planning.counts.lines += 1;
  if (line.hasErrors) planning.counts.linesWithErrors += 1;
  planning.lines.push({
    row: rowNo,
    sectionKey: planning.current,
    heading: line.heading ?? '',
    description: line.description,
    status: line.status,
    supplierKey,
    ...line.plain,
    leadTimeDays: line.leadTimeDays,
    url: line.url,
    quantity4: line.quantity4,
    unitId: line.unit.id,
    unitName: line.unit.name,
    ...(prices.tradePrice ? { tradePrice: prices.tradePrice } : {}),
    ...(prices.retailPrice ? { retailPrice: prices.retailPrice } : {}),
    ...(prices.clientPrice ? { clientPrice: prices.clientPrice } : {}),
    ...(prices.deliveryPrice ? { deliveryPrice: prices.deliveryPrice } : {}),
    ...(prices.markup4 !== undefined ? { markup4: prices.markup4 } : {}),
    hasErrors: line.hasErrors,
  });
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
