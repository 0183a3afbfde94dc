import type { ClientDocumentColumn } from '../../../db/vocabulary.js';
import { clientWords, localeOf } from './client-words.js';
import { moneyText, PRICE_STATE_WORDS, quantityText } from './figures.js';
import type { ClientDocumentView } from './sources.js';

type ProjectedPiece = ClientDocumentView['sections'][number]['pieces'][number];
type PieceProperty = ProjectedPiece['properties'][number];

/** The fields a piece carries only when the settings show their column (the projection adds them by name). */
interface ColumnFields {
  supplier?: string | null;
  brand?: string | null;
  productCode?: string | null;
  finish?: string | null;
  dimensions?: string | null;
  leadTimeDays?: number | null;
}

export type Piece = ProjectedPiece & ColumnFields;

/** How each column the settings may show is headed, and where a piece keeps its value. */
export const COLUMN_LABELS: Record<ClientDocumentColumn, { label: string; field: keyof ColumnFields }> = {
  supplier: { label: 'Supplier', field: 'supplier' },
  brand: { label: 'Brand', field: 'brand' },
  productCode: { label: 'Product code', field: 'productCode' },
  finish: { label: 'Finish', field: 'finish' },
  dimensions: { label: 'Dimensions', field: 'dimensions' },
  leadTime: { label: 'Lead time', field: 'leadTimeDays' },
};

/** The client's words in the document's locale (client-words.ts). */
export const wordsOf = (doc: Pick<ClientDocumentView, 'currency'>) => clientWords(localeOf(doc.currency));

/** A column's value on a piece as people read it ("6 weeks", "In stock"); null when the piece has none. */
export function columnText(
  piece: Piece,
  column: ClientDocumentColumn,
  doc: Pick<ClientDocumentView, 'currency'>,
): string | null {
  const value = piece[COLUMN_LABELS[column].field];
  if (value === null || value === undefined || value === '') return null;
  if (column === 'leadTime') return wordsOf(doc).leadTime(value as number);
  return String(value);
}

/** A custom property's value as people read it: yes/no, choices joined, money and numbers formatted. */
export function propertyText(p: PieceProperty): string {
  const v = p.value;
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.join(', ');
  if ('currency' in v) return moneyText(v.amount4, v.currency);
  return quantityText(v.amount4);
}

/** The piece's quantity with its unit as studios write it: `2 each`, `5 sets`, `12.5 m²`. */
export const quantityWithUnit = (piece: Piece, doc: Pick<ClientDocumentView, 'currency'>) =>
  wordsOf(doc).quantity(piece.quantity.amount4, piece.quantity.unit);

/** The label/value facts a piece shows beside its heading: the chosen columns, then the chosen properties. */
export function pieceFacts(
  piece: Piece,
  doc: Pick<ClientDocumentView, 'columns' | 'currency'>,
): Array<[string, string]> {
  const facts: Array<[string, string]> = [];
  for (const column of doc.columns) {
    const text = columnText(piece, column, doc);
    if (text !== null) facts.push([COLUMN_LABELS[column].label, text]);
  }
  for (const p of piece.properties) facts.push([p.name, propertyText(p)]);
  return facts;
}

/**
 * What a piece's price says, when the document shows prices: the unit price and total formatted, or the words for its
 * state (To be confirmed, Price on application, Included, By others). Undefined when prices are hidden.
 */
export function priceWords(
  piece: Piece,
  currency: ClientDocumentView['currency'],
): { state?: string; unit?: string; total?: string } | undefined {
  if (!piece.priceState) return undefined;
  if (piece.priceState !== 'set') return { state: PRICE_STATE_WORDS[piece.priceState] };
  return {
    unit: piece.unitPrice ? moneyText(piece.unitPrice.amount4, currency) : '',
    total: piece.total ? moneyText(piece.total.amount4, currency) : '',
  };
}
