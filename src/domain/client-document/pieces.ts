import type { LineRow } from '../schedule/record.js';
import type { ClientDocumentColumn, Currency } from '../../../db/vocabulary.js';
import type { LinePresentation } from '../schedule/line-record.js';
import type { PhotographSources } from './photographs.js';
import { shownPhotograph } from './photographs.js';
import { piecePrice, shownMoney } from './prices.js';
import type { PieceProperty } from './properties.js';
import type { ClientSpecification } from '../specifications/client-view.js';

/** What turning lines into pieces needs: names, settings and the photographs to show. */
export interface PieceContext {
  presentation: LinePresentation;
  currency: Currency;
  showPrices: boolean;
  columns: readonly ClientDocumentColumn[];
  propertiesOf: (lineId: string) => PieceProperty[];
  /** The client-visible fields of the library specifications attached to a line, in its order. */
  specificationsOf: (lineId: string) => ClientSpecification[];
  photographs: PhotographSources;
}

/** A column's field on a piece, and its value from the line. */
const COLUMN_FIELDS: Record<ClientDocumentColumn, [string, (l: LineRow, c: PieceContext) => unknown]> = {
  supplier: ['supplier', (l, c) => (l.supplier_id === null ? null : c.presentation.supplierName(l.supplier_id))],
  brand: ['brand', (l) => l.brand],
  productCode: ['productCode', (l) => l.product_code],
  finish: ['finish', (l) => l.finish],
  dimensions: ['dimensions', (l) => l.dimensions],
  leadTime: ['leadTimeDays', (l) => l.lead_time_days],
};

/**
 * A line as the client reads it: a piece, in the client document's own words. It carries the client price only (the
 * schedule's derivation, rounded for display), never the trade price, markup or margin it may come from; when the
 * settings hide prices it carries no price field at all. Columns appear only when the settings show them.
 */
export function pieceOf(line: LineRow, c: PieceContext) {
  const price = piecePrice(line, c.presentation.defaultMarkup4);
  const priced = c.showPrices
    ? {
        priceState: price.state,
        unitPrice: price.rate8 === null ? null : shownMoney(price.rate8, 8, c.currency),
        total: price.total12 === null ? null : shownMoney(price.total12, 12, c.currency),
      }
    : {};
  const columns = Object.fromEntries(c.columns.map((col) => [COLUMN_FIELDS[col][0], COLUMN_FIELDS[col][1](line, c)]));
  const specifications = c.specificationsOf(line.id);
  return {
    piece: {
      reference: line.code,
      heading: line.heading,
      description: line.description,
      quantity: { amount4: line.quantity4, unit: c.presentation.unitName(line.unit_id) },
      ...priced,
      ...columns,
      properties: c.propertiesOf(line.id),
      // Only on pieces that have any, so documents of schedules without specifications read as they always did.
      ...(specifications.length ? { specifications } : {}),
      photographs: (c.photographs[line.id] ?? []).map((p) => shownPhotograph(p, line.heading)),
    },
    price,
  };
}

/** A removed piece: an archived line, since archival is visible to the client. */
export const removedPieceOf = (line: LineRow) => ({
  reference: line.code,
  heading: line.heading,
  removedAt: line.archived_at!,
});
