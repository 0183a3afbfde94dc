import type { LineStatus } from '../../../db/vocabulary.js';
import { readLeadTime, readMarkup, readQuantity, readStatus, readUrl } from './cells.js';
import type { ImportField, MappedColumn } from './fields.js';
import { type ImportLookups, unitKey } from './lookups.js';
import { type CellPrice, readPrice } from './prices.js';
import type { CellProblem } from './problems.js';

/** A mapped column with where its cells sit in a row (its letter, or its place in the mapping). */
export type PlanColumn = MappedColumn & { index: number };

/** A filled cell of a mapped column. */
export interface FieldCell {
  col: PlanColumn;
  text: string;
}

/** Records a problem of the row being read: with its column, or of the whole row (null). */
export type ReportProblem = (severity: CellProblem['severity'], col: PlanColumn | null, message: string) => void;

/** The cells of one line as read by their fields' rules; a cell that could not be read is absent (and a problem). */
export interface LineCells {
  heading: string | null;
  description: string;
  quantity4: string;
  unit: { id: string; name: string };
  prices: LinePrices;
  status: LineStatus | null;
  leadTimeDays: number | null;
  url: string | null;
  supplierName: string | null;
  plain: {
    code: string | null;
    brand: string | null;
    productCode: string | null;
    finish: string | null;
    dimensions: string | null;
  };
  hasErrors: boolean;
}

/** Absent: the line's default (to be confirmed; the client price derived from trade × markup). */
export interface LinePrices {
  tradePrice?: CellPrice;
  retailPrice?: CellPrice;
  clientPrice?: CellPrice;
  deliveryPrice?: CellPrice;
  markup4?: string;
}

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
export const clip = (text: string) => (text.length > 100 ? `${text.slice(0, 99)}…` : text);

/**
 * One per line row, so that every reading step finds the row's cells by field, names the row and column of what it
 * cannot read, and marks the line as having errors when one of them is an error.
 */
export class LineReader {
  hasErrors = false;

  constructor(
    private readonly values: ReadonlyMap<ImportField, readonly FieldCell[]>,
    readonly problem: ReportProblem,
  ) {}

  all(field: ImportField): readonly FieldCell[] {
    return this.values.get(field) ?? [];
  }

  one(field: ImportField): FieldCell | undefined {
    return this.values.get(field)?.[0];
  }

  error(col: PlanColumn | null, message: string): void {
    this.hasErrors = true;
    this.problem('error', col, message);
  }

  /** A text cell, refused when longer than the line's column takes. */
  text(field: ImportField): string | null {
    const cell = this.one(field);
    if (!cell) return null;
    const max = MAX_TEXT[field];
    if (max && cell.text.length > max) {
      this.error(
        cell.col,
        `This is ${cell.text.length} characters long; a line's ${cell.col.heading || field} takes at most ${max}. Shorten it.`,
      );
      return null;
    }
    return cell.text;
  }

  /** True (and an error) for a formula saved without its result: there is no figure to read. */
  formula(cell: FieldCell): boolean {
    if (!/^=[A-Za-z0-9(]/.test(cell.text)) return false;
    this.error(
      cell.col,
      'This cell holds a formula whose result was not saved with the file; open the file in Excel or another spreadsheet, save it, and upload it again.',
    );
    return true;
  }
}

/** Reads a line's cells field by field; the order of the steps is the order its problems are listed in. */
export function readLine(reader: LineReader, lookups: ImportLookups): LineCells {
  const { heading, description } = readHeading(reader);
  const { quantity4, unit } = readQuantityAndUnit(reader, lookups);
  const prices = readPrices(reader, lookups.currency);
  const { status, leadTimeDays, url } = readNotes(reader);
  const supplierName = reader.text('supplier');
  const plain = {
    code: reader.text('code'),
    brand: reader.text('brand'),
    productCode: reader.text('productCode'),
    finish: reader.text('finish'),
    dimensions: reader.text('dimensions'),
  };
  return {
    heading,
    description,
    quantity4,
    unit,
    prices,
    status,
    leadTimeDays,
    url,
    supplierName,
    plain,
    hasErrors: reader.hasErrors,
  };
}

// A line needs a heading: when the item name is missing, the description's first line stands in for it.
function readHeading(reader: LineReader): { heading: string | null; description: string } {
  let heading = reader.text('heading');
  const descriptions = reader.all('description');
  const description = descriptions.map((d) => d.text).join('\n\n');
  if (description.length > MAX_TEXT.description!) {
    reader.error(descriptions[0]!.col, 'The description is over 20,000 characters; shorten it.');
  }
  if (!heading && !reader.hasErrors) {
    const first = description.split('\n')[0]!.trim().slice(0, 500);
    if (first) {
      heading = first;
      reader.problem(
        'warning',
        null,
        'This row has no item name, so the first line of its description was used as the heading.',
      );
    } else {
      reader.error(null, 'This row has no item name (heading); fill it in, or clear the row to leave it out.');
    }
  }
  return { heading, description };
}

// The unit may be written in its own column or after the quantity ("2 no."); an unknown one falls back to the default.
function readQuantityAndUnit(
  reader: LineReader,
  lookups: ImportLookups,
): { quantity4: string; unit: { id: string; name: string } } {
  let quantity4 = '10000';
  let unit = lookups.defaultUnit;
  let unitWritten = reader.one('unit')?.text;
  const qty = reader.one('quantity');
  if (qty && !reader.formula(qty)) {
    const q = readQuantity(qty.text);
    if (!q.ok) reader.error(qty.col, q.message);
    else {
      quantity4 = q.value.amount4;
      unitWritten ??= q.value.unit;
    }
  }
  if (unitWritten) {
    const found = lookups.units.get(unitKey(unitWritten));
    if (found) unit = found;
    else {
      const col = reader.one('unit')?.col ?? reader.one('quantity')?.col ?? null;
      reader.problem(
        'warning',
        col,
        `The studio has no unit "${clip(unitWritten)}", so ${unit.name} was used; add the unit (create_unit) and preview again to use it.`,
      );
    }
  }
  return { quantity4, unit };
}

// The four prices and the markup are read alike: a price the sheet leaves out stays the line's default.
function readPrices(reader: LineReader, currency: ImportLookups['currency']): LinePrices {
  const price = (field: 'tradePrice' | 'retailPrice' | 'clientPrice' | 'deliveryPrice'): CellPrice | undefined => {
    const cell = reader.one(field);
    if (!cell || reader.formula(cell)) return undefined;
    const p = readPrice(cell.text, currency);
    if (!p.ok) {
      reader.error(cell.col, p.message);
      return undefined;
    }
    return p.price;
  };
  const tradePrice = price('tradePrice');
  const retailPrice = price('retailPrice');
  const clientPrice = price('clientPrice');
  const deliveryPrice = price('deliveryPrice');
  let markup4: string | undefined;
  const markup = reader.one('markup');
  if (markup && !reader.formula(markup)) {
    const m = readMarkup(markup.text);
    if (m.ok) markup4 = m.value;
    else reader.error(markup.col, m.message);
  }
  return { tradePrice, retailPrice, clientPrice, deliveryPrice, markup4 };
}

// Status, lead time and link only inform: one that cannot be read is a warning and the line is still made.
function readNotes(reader: LineReader): { status: LineStatus | null; leadTimeDays: number | null; url: string | null } {
  let status: LineStatus | null = null;
  const statusCell = reader.one('status');
  if (statusCell) {
    const s = readStatus(statusCell.text);
    if (s.ok) status = s.value;
    else reader.problem('warning', statusCell.col, s.message);
  }
  let leadTimeDays: number | null = null;
  const lead = reader.one('leadTimeDays');
  if (lead) {
    const l = readLeadTime(lead.text, lead.col.heading);
    if (l.ok) leadTimeDays = l.value;
    else reader.problem('warning', lead.col, l.message);
  }
  let url: string | null = null;
  const link = reader.one('url');
  if (link) {
    const u = readUrl(link.text);
    if (u.ok) url = u.value;
    else reader.problem('warning', link.col, u.message);
  }
  return { status, leadTimeDays, url };
}
