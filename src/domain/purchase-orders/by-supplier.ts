/**
 * Orders by supplier: from chosen lines, or from the accepted pieces of a decided estimate revision, one draft order
 * per supplier in one call (or, dry run, the orders it would make). A line with no supplier or no set trade price,
 * an archived one, or one already on a live order (unless orderAgain) is named in `skipped`, never guessed.
 */
import type { LineRow } from '../schedule/record.js';
import type { OrderSkipReason } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { figuresOf } from '../kit/line-money.js';
import { loadLine } from '../schedule/lines.js';
import { draftTotals, presentLine } from './draft.js';
import { draftLines, type NewOrderLine, onLiveOrders } from './lines.js';
import { createOrder, orderHead } from './orders.js';

export interface BySupplierInput {
  projectId: string;
  lineIds?: readonly string[] | undefined;
  estimateRevisionId?: string | undefined;
  dryRun?: boolean | undefined;
  orderAgain?: boolean | undefined;
  deliveryAddress?: string | undefined;
  wantedBy?: string | null | undefined;
}

interface Chosen {
  lineId: string;
  quantity?: { amount4: string };
}

/** The accepted pieces of a decided estimate revision, as schedule lines with the quantity the client accepted. */
async function acceptedPieces(ctx: ActionContext, revisionId: string): Promise<Chosen[]> {
  const decision = await ctx.db
    .selectFrom('estimate_decisions')
    .select(['line_outcomes'])
    .where('revision_id', '=', revisionId)
    .executeTakeFirst();
  if (!decision) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      'That estimate revision is not decided yet; order from its lines (lineIds) or record the decision first.',
      { errors: [{ path: 'estimateRevisionId', message: 'Not decided.' }] },
    );
  }
  const revision = await ctx.db
    .selectFrom('estimate_revisions')
    .select('content')
    .where('id', '=', revisionId)
    .executeTakeFirstOrThrow();
  const accepted = new Set(
    (JSON.parse(decision.line_outcomes) as Array<{ pieceId: string; outcome: string }>)
      .filter((o) => o.outcome === 'accepted')
      .map((o) => o.pieceId),
  );
  const pieces = (JSON.parse(revision.content) as { pieces: Array<{ pieceId: string; quantity: { amount4: string } }> })
    .pieces;
  const ids = pieces.filter((p) => accepted.has(p.pieceId)).map((p) => p.pieceId);
  const lineOf = new Map(
    ids.length
      ? (await ctx.db.selectFrom('estimate_lines').select(['id', 'line_id']).where('id', 'in', ids).execute()).map(
          (r) => [r.id, r.line_id],
        )
      : [],
  );
  return pieces
    .filter((p) => accepted.has(p.pieceId))
    .map((p) => ({ lineId: lineOf.get(p.pieceId)!, quantity: { amount4: p.quantity.amount4 } }));
}

function chosenLines(ctx: ActionContext, input: BySupplierInput): Promise<Chosen[]> | Chosen[] {
  if (input.lineIds?.length && !input.estimateRevisionId)
    return [...new Set(input.lineIds)].map((lineId) => ({ lineId }));
  if (input.estimateRevisionId && !input.lineIds) return acceptedPieces(ctx, input.estimateRevisionId);
  throw new ServiceError('VALIDATION_FAILED', 'Send exactly one of lineIds and estimateRevisionId.', {
    errors: [{ path: 'lineIds', message: 'Give the lines to order, or a decided estimate revision, not both.' }],
  });
}

const SKIP_WORDS: Record<OrderSkipReason, string> = {
  no_supplier: 'names no supplier: set one on the line (update_schedule_line), then order it.',
  no_trade_price: 'has no set trade price: set it on the line, then order it.',
  already_ordered: 'is already on a live purchase order: send orderAgain: true to order it again.',
  archived: 'is archived, or its supplier is: restore it first.',
};

/** Why a line is left out, or null when it can be ordered. */
async function skipReason(
  ctx: ActionContext,
  line: LineRow,
  live: ReadonlyMap<string, number>,
): Promise<OrderSkipReason | null> {
  if (line.archived_at) return 'archived';
  if (!line.supplier_id) return 'no_supplier';
  const s = await ctx.queryRow<{ archived_at: string | null }>(
    'SELECT archived_at FROM suppliers WHERE id = ?',
    line.supplier_id,
  );
  if (s?.archived_at) return 'archived';
  if (line.trade_state !== 'set' || line.trade4 === null) return 'no_trade_price';
  if (live.has(line.id)) return 'already_ordered';
  return null;
}

/** An order line as the plan shows it: without the ids and versions a dry run has not made. */
const planned = ({
  id: _id,
  purchaseOrderId: _o,
  received: _r,
  version: _v,
  createdAt: _c,
  updatedAt: _u,
  archived_at: _a,
  ...line
}: ReturnType<typeof presentLine>) => line;

/** Drafts (or, dry run, plans) one order per supplier from the chosen lines. */
export async function ordersBySupplier(ctx: ActionContext, input: BySupplierInput) {
  const chosen = await chosenLines(ctx, input);
  const live = input.orderAgain
    ? new Map<string, number>()
    : await onLiveOrders(
        ctx.db,
        chosen.map((c) => c.lineId),
      );
  const skipped: Array<{
    lineId: string;
    reference: string | null;
    heading: string;
    reason: OrderSkipReason;
    message: string;
  }> = [];
  const bySupplier = new Map<string, NewOrderLine[]>();
  for (const c of chosen) {
    const line = await loadLine(ctx, input.projectId, c.lineId);
    const reason = await skipReason(ctx, line, live);
    if (reason) {
      const message = `${line.code ?? line.heading} ${SKIP_WORDS[reason]}`;
      skipped.push({ lineId: line.id, reference: line.code, heading: line.heading, reason, message });
      continue;
    }
    const group = bySupplier.get(line.supplier_id!) ?? [];
    group.push({ lineId: line.id, ...(c.quantity ? { quantity: c.quantity } : {}) });
    bySupplier.set(line.supplier_id!, group);
  }
  const head = await orderHead(ctx, input.projectId);
  const terms = {
    ...(input.deliveryAddress !== undefined ? { deliveryAddress: input.deliveryAddress } : {}),
    ...(input.wantedBy !== undefined ? { wantedBy: input.wantedBy } : {}),
  };
  const orders = [];
  for (const [supplierId, lines] of bySupplier) {
    const name = (await ctx.queryRow<{ name: string }>('SELECT name FROM suppliers WHERE id = ?', supplierId))!.name;
    if (input.dryRun) {
      const order = { id: newId(), project_id: input.projectId, supplier_id: supplierId, currency: head.currency };
      const rows = await draftLines(ctx, { ...order, taxRate4: head.tax_rate4 }, lines, {
        orderAgain: true,
        insert: false,
      });
      const shown = rows.map((r) => presentLine(r, new Map()));
      orders.push({
        supplierId,
        supplierName: name,
        purchaseOrderId: null,
        number: null,
        lines: shown.map(planned),
        tradeTotals: figuresOf(draftTotals(rows), head.currency),
      });
      continue;
    }
    const made = await createOrder(ctx, input.projectId, { supplierId, ...terms }, lines, true);
    orders.push({
      supplierId,
      supplierName: name,
      purchaseOrderId: made.id,
      number: made.number,
      lines: made.lines.map(planned),
      tradeTotals: made.tradeTotals,
    });
  }
  return { dryRun: input.dryRun === true, orders, skipped };
}
