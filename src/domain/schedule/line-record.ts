import type { Currency } from '../../../db/vocabulary.js';
import { derivePricing } from './pricing.js';
import { newId } from '../../core/ids.js';
import type { ShownPropertyValue } from './line-values.js';
import type { LineSpecification } from '../specifications/on-lines.js';
import type { LineOrdering } from '../purchase-orders/on-lines.js';
import { LINE_RECORD, type LineRow, type LineUpdate } from './record.js';

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

const money = (amount4: bigint | null, currency: Currency) =>
  amount4 === null ? null : { amount4: amount4.toString(), currency };

/**
 * The API shape of a line: its fields from its row (LINE_RECORD), and what is worked out or read beside it. Pricing
 * fields are always built here; `invoke` removes them for callers without pricing:read.
 */
export function presentLine(row: LineRow, p: LinePresentation) {
  const d = derivePricing(row, p.defaultMarkup4);
  return LINE_RECORD.present(
    row,
    {
      supplierName: row.supplier_id === null ? null : p.supplierName(row.supplier_id),
      unitName: p.unitName(row.unit_id),
      clientPrice: { price: money(d.client.price4, p.currency), state: d.client.state, source: d.client.source },
      properties: p.propertiesOf(row.id),
      specifications: p.specificationsOf(row.id),
      ordering: p.orderingOf(row.id),
      margin: money(d.margin4, p.currency),
      clientTotal: money(d.clientTotal4, p.currency),
    },
    p,
  );
}
export type PresentedLine = ReturnType<typeof presentLine>;

/** A line's columns as `LINE_RECORD.patchColumns` gives them from the API's fields (only those given). */
type GivenColumns = Omit<LineUpdate, 'id' | 'project_id' | 'created_at' | 'version'>;

/**
 * A new line's row: where it goes, the columns given (LINE_RECORD.patchColumns of the API's fields) and every other
 * column at a new line's default as LINE_RECORD declares it (a draft, 1 of the unit given, prices to be confirmed, the
 * client price derived, version 1). Every way a line is created from fields (create_schedule_line, imports, paste)
 * builds its row here.
 */
export function newLineRow(
  place: Pick<LineRow, 'project_id' | 'section_id' | 'position' | 'code'>,
  cols: GivenColumns & { heading: string },
  unitId: string,
  now: string,
): LineRow {
  const row = LINE_RECORD.newRow({ heading: cols.heading }, { id: newId(), ownerId: place.project_id, now });
  row.unit_id = unitId;
  return Object.assign(row, cols, place) as LineRow;
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
