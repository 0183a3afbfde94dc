import type { Row } from '../../files/spreadsheet/table.js';
import { columnLetter } from '../../files/spreadsheet/table.js';
import { type ImportField, type ImportMapping, type MappedColumn, MULTI_COLUMN_FIELDS } from './fields.js';

/**
 * A heading as it is compared: case, accents, punctuation and currency marks ignored ("Client Price (£)" and
 * "client price" are one heading), so a studio's own spelling is recognised.
 */
export function normaliseHeading(heading: string): string {
  return heading
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Words that say how a figure is given, not what it is ("Net price ex VAT (GBP) per unit" is a net price). */
const NOISE =
  /\b(?:gbp|eur|usd|aud|cad|chf|ex|exc|excl|excluding|inc|incl|including|vat|per|unit|each|ea|weeks|week|wks|wk|days|day|in|the|item)\b/g;

/** The studio's own headings for each field, as normaliseHeading leaves them. */
const SYNONYMS: Readonly<Record<ImportField, readonly string[]>> = {
  section: ['room', 'area', 'section', 'location', 'space', 'zone', 'room name', 'area name', 'room area', 'floor'],
  heading: ['item', 'item name', 'name', 'product', 'product name', 'title', 'heading', 'piece', 'article', 'element'],
  description: [
    'description',
    'desc',
    'details',
    'notes',
    'note',
    'comments',
    'comment',
    'specification',
    'spec',
    'remarks',
    'item description',
    'product description',
    'additional notes',
  ],
  code: [
    'code',
    'ref',
    'reference',
    'item code',
    'item ref',
    'item no',
    'item number',
    'no',
    'line ref',
    'ref no',
    'id',
  ],
  quantity: ['qty', 'quantity', 'quant', 'no off', 'nr', 'number off', 'count', 'qty req', 'qty required', 'pcs'],
  unit: ['unit', 'units', 'uom', 'unit of measure', 'measure', 'unit type'],
  status: ['status', 'stage', 'state', 'progress'],
  supplier: ['supplier', 'vendor', 'supplied by', 'stockist', 'source', 'retailer', 'dealer', 'supplier name'],
  brand: ['brand', 'manufacturer', 'maker', 'make', 'designer', 'mfr', 'label', 'brand name'],
  productCode: [
    'product code',
    'product ref',
    'product reference',
    'sku',
    'model',
    'model no',
    'model number',
    'cat no',
    'catalogue no',
    'catalogue number',
    'part no',
    'part number',
    'article no',
    'style no',
    'manufacturer code',
    'supplier code',
    'supplier ref',
  ],
  finish: ['finish', 'colour', 'color', 'material', 'materials', 'fabric', 'finish colour', 'colour finish'],
  dimensions: [
    'dimensions',
    'dims',
    'size',
    'sizes',
    'dimension',
    'w x d x h',
    'wxdxh',
    'measurements',
    'overall size',
  ],
  leadTimeDays: ['lead time', 'lead', 'leadtime', 'lead times', 'delivery time', 'lt'],
  url: ['link', 'url', 'website', 'web', 'web link', 'product link', 'weblink', 'hyperlink'],
  tradePrice: [
    'trade',
    'trade price',
    'net',
    'nett',
    'net price',
    'cost',
    'cost price',
    'buy',
    'buy price',
    'trade cost',
    'net cost',
    'supplier price',
    'our cost',
  ],
  retailPrice: ['rrp', 'retail', 'retail price', 'list', 'list price', 'recommended retail price', 'msrp'],
  clientPrice: [
    'sell',
    'sell price',
    'selling price',
    'client price',
    'price',
    'client unit price',
    'sale price',
    'price to client',
    'client sell',
  ],
  deliveryPrice: [
    'delivery',
    'delivery cost',
    'delivery price',
    'delivery charge',
    'carriage',
    'shipping',
    'freight',
    'p and p',
  ],
  markup: ['markup', 'mark up', 'uplift', 'mu'],
};

const BY_HEADING = new Map<string, ImportField>(
  (Object.entries(SYNONYMS) as Array<[ImportField, readonly string[]]>).flatMap(([field, names]) =>
    names.map((n) => [n, field] as [string, ImportField]),
  ),
);

/** Headings of figures the schedule works out itself (totals, VAT): recognised, so they are left out on purpose. */
const DERIVED = new Set([
  'total',
  'line total',
  'total price',
  'subtotal',
  'sub total',
  'ext',
  'extended',
  'amount',
  'vat',
  'margin',
]);

/** The field a heading names, if any: its exact words first, then without words about currency, VAT or units. */
export function fieldForHeading(heading: string): ImportField | undefined {
  const exact = normaliseHeading(heading);
  if (!exact) return undefined;
  const found = BY_HEADING.get(exact);
  if (found) return found;
  const plain = exact.replace(NOISE, ' ').replace(/\s+/g, ' ').trim();
  return plain ? BY_HEADING.get(plain) : undefined;
}

/** Whether a heading names a figure the schedule derives (a total), which an import leaves out. */
export const isDerivedHeading = (heading: string) => {
  const n = normaliseHeading(heading);
  return DERIVED.has(n) || /^total\b/.test(n);
};

/** How many rows from the top are searched for the headings (title rows may come first). */
const HEADER_SEARCH = 30;

/**
 * The row holding the headings: among the first rows, the one naming the most known fields (the first of equals);
 * if none names any, the first row with two or more cells filled.
 */
export function findHeaderRow(rows: readonly Row[]): number {
  let best = { row: 0, score: 0 };
  for (const [i, row] of rows.slice(0, HEADER_SEARCH).entries()) {
    const score = new Set(row.map(fieldForHeading).filter(Boolean)).size;
    if (score > best.score) best = { row: i + 1, score };
  }
  if (best.score > 0) return best.row;
  const wide = rows.findIndex((r) => r.filter((c) => c.trim() !== '').length >= 2);
  return wide >= 0 ? wide + 1 : 1;
}

/**
 * A mapping proposed from the headings alone: each heading's field, the first column winning where two name the
 * same one-column field (the later ones are left out), and, when no column names the heading, the first description
 * column taking its place (every line needs a heading).
 */
export function proposeMapping(rows: readonly Row[], headerRow = findHeaderRow(rows)): ImportMapping {
  const headings = rows[headerRow - 1] ?? [];
  const taken = new Set<ImportField>();
  const columns: MappedColumn[] = headings.map((heading, i) => {
    const field = fieldForHeading(heading) ?? null;
    const free = field !== null && (MULTI_COLUMN_FIELDS.has(field) || !taken.has(field));
    if (field && free) taken.add(field);
    return { column: columnLetter(i), heading: heading.trim(), field: free ? field : null };
  });
  if (!taken.has('heading')) {
    const description = columns.find((c) => c.field === 'description');
    if (description) description.field = 'heading';
  }
  return { headerRow, columns, headingRows: true };
}

/**
 * The headings a saved mapping is recognised by: the sheet's non-empty headings, normalised, each once, sorted. Two
 * files with the same headings in another order share it.
 */
export function headingsKey(headings: readonly string[]): string {
  return [...new Set(headings.map(normaliseHeading).filter(Boolean))].sort().join('|');
}
