import { z } from 'zod';
import { REVISION_STATES } from '../../../db/vocabulary.js';
import { priced } from '../../core/schema-marks.js';
import { boundedRatio, Id, Money, named, PriceAmount4, QuantityAmount4 } from '../../core/values.js';
import { CalendarDate } from '../kit/calendar-date.js';

/** A trade figure (the supplier's net, its tax, totals): pricing data, withheld from callers without pricing:read. */
export const TradeMoney = priced(Money);

/** A trade price as callers send it: the amount only, in the project's currency (needs pricing:write). */
export const TradePriceInput = priced(
  z.strictObject({ amount4: PriceAmount4 }).describe('The supplier\'s net unit price, scale 4: "1234500" = 123.45.'),
);

export const TradeFigures = priced(
  z
    .strictObject({ net: Money, tax: Money, gross: Money })
    .describe('Per-line net and tax rounded once to the minor unit, then summed (as Xero does).'),
);

/** A quantity, scale 4: "20000" = 2. */
export const Quantity4 = z.strictObject({ amount4: QuantityAmount4 });

export const OrderTaxRate = named(
  boundedRatio(10_000n, 'A tax rate').describe('"2000" = 20 %; between 0 % and 100 %.'),
  'OrderTaxRate',
);

export const PurchaseOrderRevisionState = z
  .enum(REVISION_STATES)
  .describe(
    'current: the one the supplier works from; superseded: a later revision replaced it; voided: the order was cancelled.',
  );

/** Exactly what the supplier was sent: no client price, markup, project or client name. */
export const PurchaseOrderContent = named(
  z
    .strictObject({
      purchaseOrderId: Id,
      orderNumber: z.int().min(1),
      revisionNumber: z.int().min(1),
      studioName: z.string(),
      supplier: z.strictObject({ id: Id, name: z.string() }),
      supplierReference: z.string().nullable(),
      deliveryAddress: z.string(),
      wantedBy: CalendarDate.nullable(),
      notes: z.string(),
      currency: z.string(),
      issuedAt: z.string(),
      lines: z.array(
        z.strictObject({
          orderLineId: Id.describe('The order line: what a delivery names.'),
          reference: z.string().nullable(),
          productCode: z.string().nullable(),
          description: z.string(),
          quantity: z.strictObject({ amount4: z.string(), unit: z.string().nullable() }),
          tradePrice: TradeMoney,
          taxRate: z.strictObject({ ratio4: z.string() }),
          tradeFigures: TradeFigures,
        }),
      ),
      tradeTotals: TradeFigures,
    })
    .describe('A purchase order revision as the supplier reads it; its digest covers it whole, trade prices included.'),
  'PurchaseOrderContent',
);
export type PurchaseOrderContent = z.output<typeof PurchaseOrderContent>;
