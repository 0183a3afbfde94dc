import type { LineUpdate } from '../../../db/schema.js';
import type { LineStatus, ValueState } from '../../../db/vocabulary.js';

/** A priced field as callers send it. */
export interface PricedInput {
  amount4?: string | null;
  state: ValueState;
}

export interface LineFieldsInput {
  code?: string | null;
  heading?: string;
  description?: string;
  status?: LineStatus;
  supplierId?: string | null;
  brand?: string | null;
  productCode?: string | null;
  url?: string | null;
  finish?: string | null;
  dimensions?: string | null;
  leadTimeDays?: number | null;
  quantity?: { amount4: string; unitId?: string | undefined };
  markup?: { ratio4: string } | null;
  tradePrice?: PricedInput;
  retailPrice?: PricedInput;
  clientPrice?: PricedInput | null;
  deliveryPrice?: PricedInput;
}

type Columns = Omit<LineUpdate, 'id' | 'project_id' | 'created_at' | 'version'>;

const amountOf = (p: PricedInput) => (p.state === 'set' ? (p.amount4 ?? null) : null);

/** Maps the API's line fields onto columns; only the fields present in the input are returned (merge-patch semantics). */
export function lineColumns(input: LineFieldsInput): Columns {
  const c: Columns = {};
  const plain = [
    ['code', 'code'],
    ['heading', 'heading'],
    ['description', 'description'],
    ['status', 'status'],
    ['supplierId', 'supplier_id'],
    ['brand', 'brand'],
    ['productCode', 'product_code'],
    ['url', 'url'],
    ['finish', 'finish'],
    ['dimensions', 'dimensions'],
    ['leadTimeDays', 'lead_time_days'],
  ] as const;
  for (const [field, column] of plain)
    if (input[field] !== undefined) (c as Record<string, unknown>)[column] = input[field];
  if (input.quantity) {
    c.quantity4 = input.quantity.amount4;
    if (input.quantity.unitId) c.unit_id = input.quantity.unitId;
  }
  if (input.markup !== undefined) c.markup4 = input.markup?.ratio4 ?? null;
  if (input.tradePrice) Object.assign(c, { trade_state: input.tradePrice.state, trade4: amountOf(input.tradePrice) });
  if (input.retailPrice)
    Object.assign(c, { retail_state: input.retailPrice.state, retail4: amountOf(input.retailPrice) });
  if (input.deliveryPrice)
    Object.assign(c, { delivery_state: input.deliveryPrice.state, delivery4: amountOf(input.deliveryPrice) });
  if (input.clientPrice !== undefined) {
    Object.assign(
      c,
      input.clientPrice === null
        ? { client_state: null, client4: null }
        : { client_state: input.clientPrice.state, client4: amountOf(input.clientPrice) },
    );
  }
  return c;
}
