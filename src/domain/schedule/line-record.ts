import type { LineRow, LineUpdate } from '../../../db/schema.js';
import type { Currency, ValueState } from '../../../db/vocabulary.js';
import { derivePricing } from './pricing.js';
import { newId } from '../../core/ids.js';
import type { ShownPropertyValue } from './line-values.js';
import type { LineSpecification } from '../specifications/on-lines.js';
import type { LineOrdering } from '../purchase-orders/on-lines.js';

/**
 * Whether any of the lines asked about has specifications attached, and whether a purchase order names any, as read in
 * the same snapshot as the lines with nothing written since: false skips that read. Omitted: both are read.
 */
export interface Attached {
  specifications: boolean;
  ordering: boolean;
}

/**
 * Everything needed to present a line besides its row: the project's currency, the markup default in force, and the
 * names of the suppliers and units lines name (shown beside their ids, so nobody has to look them up).
 */
export interface LinePresentation {
  currency: Currency;
  defaultMarkup4: string;
  /**
   * Reads the names of the suppliers and units these lines name (once each), and the custom property values they
   * hold, so presentLine can show them.
   */
  know(rows: ReadonlyArray<Pick<LineRow, 'id' | 'supplier_id' | 'unit_id'>>, attached?: Attached): Promise<void>;
  supplierName(id: string): string | null;
  unitName(id: string): string | null;
  /** The line's values for the project's active custom properties, in their display order. */
  propertiesOf(lineId: string): ShownPropertyValue[];
  /** The library specifications attached to the line, in its order. */
  specificationsOf(lineId: string): LineSpecification[];
  /** What its purchase orders and deliveries say of the line (read-only; never moves its version). */
  orderingOf(lineId: string): LineOrdering;
}

const money = (amount4: string | bigint | null, currency: Currency) =>
  amount4 === null ? null : { amount4: amount4.toString(), currency };

const priced = (state: ValueState, amount4: string | null, currency: Currency) => ({
  price: state === 'set' ? money(amount4, currency) : null,
  state,
});

/** The API shape of a line. Pricing fields are always built here; `invoke` removes them for callers without pricing:read. */
export function presentLine(row: LineRow, p: LinePresentation) {
  const d = derivePricing(row, p.defaultMarkup4);
  return {
    id: row.id,
    projectId: row.project_id,
    sectionId: row.section_id,
    position: row.position,
    code: row.code,
    heading: row.heading,
    description: row.description,
    status: row.status,
    supplierId: row.supplier_id,
    supplierName: row.supplier_id === null ? null : p.supplierName(row.supplier_id),
    brand: row.brand,
    productCode: row.product_code,
    url: row.url,
    finish: row.finish,
    dimensions: row.dimensions,
    leadTimeDays: row.lead_time_days,
    quantity: { amount4: row.quantity4, unitId: row.unit_id },
    unitName: p.unitName(row.unit_id),
    markup: row.markup4 === null ? null : { ratio4: row.markup4 },
    tradePrice: priced(row.trade_state, row.trade4, p.currency),
    retailPrice: priced(row.retail_state, row.retail4, p.currency),
    clientPrice: { price: money(d.client.price4, p.currency), state: d.client.state, source: d.client.source },
    deliveryPrice: priced(row.delivery_state, row.delivery4, p.currency),
    properties: p.propertiesOf(row.id),
    specifications: p.specificationsOf(row.id),
    ordering: p.orderingOf(row.id),
    margin: money(d.margin4, p.currency),
    clientTotal: money(d.clientTotal4, p.currency),
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    archived_at: row.archived_at,
  };
}
export type PresentedLine = ReturnType<typeof presentLine>;

/** A line's columns as `lineColumns` gives them from the API's fields (only those given). */
type GivenColumns = Omit<LineUpdate, 'id' | 'project_id' | 'created_at' | 'version'>;

/**
 * A new line's row: where it goes, the columns given (lineColumns of the API's fields) and every other column at a
 * new line's default: a draft, 1 of the unit given, prices to be confirmed, the client price derived, version 1. Every
 * way a line is created from fields (create_schedule_line, imports, paste) builds its row here.
 */
export function newLineRow(
  place: Pick<LineRow, 'project_id' | 'section_id' | 'position' | 'code'>,
  cols: GivenColumns & { heading: string },
  unitId: string,
  now: string,
): LineRow {
  return {
    id: newId(),
    ...place,
    heading: cols.heading,
    description: cols.description ?? '',
    status: cols.status ?? 'draft',
    supplier_id: cols.supplier_id ?? null,
    brand: cols.brand ?? null,
    product_code: cols.product_code ?? null,
    url: cols.url ?? null,
    finish: cols.finish ?? null,
    dimensions: cols.dimensions ?? null,
    lead_time_days: cols.lead_time_days ?? null,
    quantity4: cols.quantity4 ?? '10000',
    unit_id: cols.unit_id ?? unitId,
    markup4: cols.markup4 ?? null,
    trade_state: cols.trade_state ?? 'tbc',
    trade4: cols.trade4 ?? null,
    retail_state: cols.retail_state ?? 'tbc',
    retail4: cols.retail4 ?? null,
    client_state: cols.client_state ?? null,
    client4: cols.client4 ?? null,
    delivery_state: cols.delivery_state ?? 'tbc',
    delivery4: cols.delivery4 ?? null,
    created_at: now,
    updated_at: now,
    archived_at: null,
    version: 1,
  };
}

/**
 * A new line made from an existing one, wherever it lands: a new id, version 1, active, a draft, created now; every field of
 * substance is the source's. The caller places it (project, section, position) and gives its code.
 */
export function copyOfLine(
  source: LineRow,
  now: string,
  place: Pick<LineRow, 'project_id' | 'section_id' | 'position' | 'code'>,
): LineRow {
  // A copy is a new line: nothing has been approved or ordered for it yet, so it starts as a draft.
  return {
    ...source,
    ...place,
    id: newId(),
    status: 'draft',
    created_at: now,
    updated_at: now,
    archived_at: null,
    version: 1,
  };
}
