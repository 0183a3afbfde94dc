import { minorUnits } from '../../../core/money.js';
import type { ClientDocumentColumn } from '../../../../db/vocabulary.js';
import { allWholeWeeks } from '../client-words.js';
import { dateText, decimalText, PRICE_STATE_WORDS, quantityDecimal } from '../figures.js';
import { COLUMN_LABELS, columnText, type Piece, propertyText, wordsOf } from '../piece-facts.js';
import type { ClientDocumentView } from '../sources.js';
import { guardedCellText } from './cell-guard.js';

/**
 * The client schedule as one table, the same for every spreadsheet format: a row per piece, a column per field the
 * client document shows (the settings' columns and custom properties included), amounts as exact decimal strings.
 * Made from the client document alone, like every document: no trade price, markup or margin is in it to export.
 * Every text in it, headers and removed pieces included, has passed the formula guard (cell-guard.ts) here, so a writer
 * writes it as it is; the writers add only their own fixed words (Total, the Removed sheet's headers).
 */

/**
 * A cell: text (guarded), an exact decimal (money in the document's currency, or a plain number: written by
 * decimalText, digits with at most a leading minus, which a spreadsheet reads as a number), or empty.
 */
export type Cell = { text: string } | { decimal: string; money: boolean } | null;

export interface Column {
  header: string;
  /** Characters wide, for a spreadsheet's column. */
  width: number;
  kind: 'text' | 'money' | 'number';
}

export interface Table {
  currency: ClientDocumentView['currency'];
  /** Decimals of money cells: the currency's minor unit (amounts are already rounded to it). */
  moneyPlaces: number;
  columns: Column[];
  rows: Cell[][];
  /** The document's total, exact, when it shows prices. */
  total: string | null;
  removed: Array<{ reference: string; heading: string; removedOn: string }>;
}

const text = (v: string | null | undefined): Cell => (v ? { text: guardedCellText(v) } : null);

/** The property names the pieces show, in the order they first appear (the settings' order). */
function propertyNames(d: ClientDocumentView): string[] {
  const names = new Set<string>();
  for (const s of d.sections) for (const p of s.pieces) for (const prop of p.properties) names.add(prop.name);
  return [...names];
}

/**
 * Lead times as a number under a heading that names the unit, so a spreadsheet can sort and sum them: in weeks when
 * every piece's is a whole number of weeks (as studios quote them), else in days; 0 is in stock.
 */
function leadTimeColumn(d: ClientDocumentView) {
  const days = d.sections.flatMap((s) =>
    s.pieces.flatMap((p: Piece) => (p.leadTimeDays == null ? [] : [p.leadTimeDays])),
  );
  const weeks = days.length > 0 && allWholeWeeks(days);
  return {
    header: weeks ? 'Lead time (weeks)' : 'Lead time (days)',
    cell: (p: Piece): Cell =>
      p.leadTimeDays == null ? null : { decimal: String(weeks ? p.leadTimeDays / 7 : p.leadTimeDays), money: false },
  };
}

/** A settings column: lead time a number (its unit in the heading), every other one text. */
function settingsColumn(d: ClientDocumentView, c: ClientDocumentColumn) {
  if (c === 'leadTime') {
    const lead = leadTimeColumn(d);
    return { column: { header: lead.header, width: 12, kind: 'number' as const }, cell: lead.cell };
  }
  return {
    column: { header: COLUMN_LABELS[c].label, width: 16, kind: 'text' as const },
    cell: (p: Piece) => text(columnText(p, c, d)),
  };
}

export function scheduleTable(d: ClientDocumentView): Table {
  const places = minorUnits(d.currency);
  const properties = propertyNames(d);
  const shown = d.columns.map((c) => settingsColumn(d, c));
  const columns: Column[] = [
    { header: 'Section', width: 18, kind: 'text' },
    { header: 'Reference', width: 11, kind: 'text' },
    { header: 'Heading', width: 32, kind: 'text' },
    { header: 'Description', width: 48, kind: 'text' },
    ...shown.map((c) => c.column),
    ...properties.map((name) => ({ header: name, width: 16, kind: 'text' as const })),
    { header: 'Quantity', width: 10, kind: 'number' },
    { header: 'Unit', width: 8, kind: 'text' },
    ...(d.showPrices
      ? [
          { header: 'Price', width: 20, kind: 'text' as const },
          { header: `Unit price (${d.currency})`, width: 16, kind: 'money' as const },
          { header: `Total (${d.currency})`, width: 16, kind: 'money' as const },
        ]
      : []),
  ];
  const money = (amount4: string | undefined): Cell =>
    amount4 === undefined ? null : { decimal: decimalText(amount4, places), money: true };
  const rows = d.sections.flatMap((section) =>
    section.pieces.map((piece: Piece): Cell[] => {
      const byName = new Map(piece.properties.map((p) => [p.name, propertyText(p)]));
      return [
        text(section.title),
        text(piece.reference),
        text(piece.heading),
        text(piece.description),
        ...shown.map((c) => c.cell(piece)),
        ...properties.map((name) => text(byName.get(name))),
        { decimal: quantityDecimal(piece.quantity.amount4), money: false },
        text(piece.quantity.unit ? wordsOf(d).unit(piece.quantity.amount4, piece.quantity.unit) : null),
        ...(d.showPrices
          ? [
              // A priced piece's figures are in the next two columns; the others say why they have none.
              text(PRICE_STATE_WORDS[piece.priceState ?? 'tbc']),
              money(piece.unitPrice?.amount4),
              money(piece.total?.amount4),
            ]
          : []),
      ];
    }),
  );
  return {
    currency: d.currency,
    moneyPlaces: places,
    columns: columns.map((c) => ({ ...c, header: guardedCellText(c.header) })),
    rows,
    total: d.totals.total ? decimalText(d.totals.total.amount4, places) : null,
    removed: d.removedPieces.map((r) => ({
      reference: guardedCellText(r.reference ?? ''),
      heading: guardedCellText(r.heading),
      removedOn: dateText(r.removedAt),
    })),
  };
}
