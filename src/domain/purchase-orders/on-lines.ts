/**
 * What a schedule line shows of its ordering: read from the purchase orders that name it, never stored on the line.
 * Orders and deliveries are their own records with their own versions; the line's version does not move when they
 * change (see `LineOrdering` below for how its ETag still does).
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../../db/schema.js';
import { LINE_ORDERING_STATES, type LineOrderingState } from '../../../db/vocabulary.js';
import { Id, named } from '../../core/values.js';
import { receivedByLine } from './draft.js';
import { type PurchaseOrderContent, Quantity4 } from './shapes.js';

/**
 * A line's ordering as the line record shows it: read-only, moved only by purchase orders and their deliveries.
 *
 * Version and ETag: these acts never change the line's version, so a studio's edit sent with `expectedVersion`, or
 * with If-Match holding an ETag read before a delivery, is not refused for a change it did not make and cannot
 * overwrite (the line's writes take no ordering field). The ETag still covers the ordering: the Line schema keeps
 * `ordering` apart from its version (`keptApartFromVersion`, src/core/etag.ts), so a line's ETag is
 * `"version-digest-digest"`, the last digest over the ordering alone. If-None-Match compares the whole tag, so a
 * cached copy is never served stale after a delivery; If-Match compares the version and the first digest only.
 */
export const LineOrdering = named(
  z
    .strictObject({
      state: z.enum(LINE_ORDERING_STATES).describe('on_draft: on draft orders only.'),
      ordered: Quantity4.describe('On issued orders.'),
      received: Quantity4.describe('Over all deliveries.'),
      purchaseOrder: z
        .strictObject({ id: Id, number: z.int().min(1) })
        .nullable()
        .describe('The latest order not cancelled; null: none.'),
    })
    .describe("Read-only, from purchase orders: never moves the line's version."),
  'LineOrdering',
);
export type LineOrdering = z.output<typeof LineOrdering>;

/** The most lines whose ordering is read by naming them: the largest page a list answers. */
const NAMED_LINES = 1000;

/** A line no order names. */
export const NOT_ORDERED: LineOrdering = {
  state: 'not_ordered',
  ordered: { amount4: '0' },
  received: { amount4: '0' },
  purchaseOrder: null,
};

interface Tally {
  ordered: bigint;
  received: bigint;
  onDraft: boolean;
  latest: LineOrdering['purchaseOrder'];
}

/** The state a tally reads as: received is compared with what issued orders asked for, not with the line's quantity. */
function stateOf(t: Tally): LineOrderingState {
  if (t.ordered === 0n && t.received === 0n) return t.onDraft ? 'on_draft' : 'not_ordered';
  if (t.received === 0n) return 'ordered';
  return t.received < t.ordered ? 'partly_received' : 'received';
}

/** What each order line asked of the supplier in its order's current revision: order line id → quantity, scale 4. */
async function issuedQuantities(db: Kysely<Database>, revisionIds: readonly string[]) {
  const issued = new Map<string, bigint>();
  if (!revisionIds.length) return issued;
  const revisions = await db
    .selectFrom('purchase_order_revisions')
    .select('content')
    .where('id', 'in', [...revisionIds])
    .execute();
  for (const r of revisions) {
    const content = JSON.parse(r.content as unknown as string) as PurchaseOrderContent;
    for (const l of content.lines) issued.set(l.orderLineId, BigInt(l.quantity.amount4));
  }
  return issued;
}

/**
 * The ordering of some lines of a project, by line id (lines no order names are absent: NOT_ORDERED). `ordered` sums
 * what the current revisions of the lines' orders asked for (what the supplier was sent, not a draft edited since; a
 * cancelled order counts only what it delivered); `received` sums every delivery; a line on a draft, or added to an
 * issued order's draft and not issued yet, is `on_draft` until something is ordered; `purchaseOrder` is the latest
 * order naming the line that is not cancelled.
 */
export async function orderingOfLines(db: Kysely<Database>, projectId: string, lineIds: readonly string[]) {
  const found = new Map<string, LineOrdering>();
  if (!lineIds.length) return found;
  const query = db
    .selectFrom('purchase_order_lines as l')
    .innerJoin('purchase_orders as o', 'o.id', 'l.purchase_order_id')
    .select(['l.id', 'l.line_id', 'l.archived_at', 'o.id as order_id', 'o.number', 'o.state', 'o.current_revision_id'])
    .where('l.project_id', '=', projectId);
  // A page of lines by their ids; more (a whole client document of a 66,000-line project) as the project's order
  // lines, so no statement binds a variable per line (SQLite binds at most 32,766, PostgreSQL 65,535).
  const asked = lineIds.length <= NAMED_LINES ? undefined : new Set(lineIds);
  const all = await (asked ? query : query.where('l.line_id', 'in', [...lineIds])).orderBy('o.number').execute();
  const rows = asked ? all.filter((r) => asked.has(r.line_id)) : all;
  if (!rows.length) return found;
  const live = rows.filter((r) => r.state !== 'draft' && r.state !== 'cancelled' && r.current_revision_id);
  const issued = await issuedQuantities(db, [...new Set(live.map((r) => r.current_revision_id!))]);
  const sent = [...new Set(rows.filter((r) => r.state !== 'draft').map((r) => r.order_id))];
  const deliveries = sent.length
    ? await db.selectFrom('purchase_order_deliveries').selectAll().where('purchase_order_id', 'in', sent).execute()
    : [];
  const received = receivedByLine(deliveries);
  const tallies = new Map<string, Tally>();
  for (const r of rows) {
    const t = tallies.get(r.line_id) ?? { ordered: 0n, received: 0n, onDraft: false, latest: null };
    tallies.set(r.line_id, t);
    const got = received.get(r.id) ?? 0n;
    t.received += got;
    if (r.state === 'cancelled') {
      t.ordered += got;
      continue;
    }
    const asked = r.state === 'draft' ? undefined : issued.get(r.id);
    if (asked !== undefined) t.ordered += asked;
    else if (r.archived_at === null) t.onDraft = true;
    else continue;
    t.latest = { id: r.order_id, number: r.number };
  }
  for (const [lineId, t] of tallies) {
    found.set(lineId, {
      state: stateOf(t),
      ordered: { amount4: t.ordered.toString() },
      received: { amount4: t.received.toString() },
      purchaseOrder: t.latest,
    });
  }
  return found;
}
