/**
 * Stable exports (other domains build on them):
 *   ClientEstimateRevision: zod schema, the client-facing projection of one revision.
 *   RevisionContent: zod schema, what a revision freezes (ClientEstimateRevision without revisionId, state, digest).
 *   readClientRevision(db, revisionId, now?): Promise<ClientEstimateRevision | undefined>.
 *
 * What the client sees of an issued revision: pieces in the estimate's own words with their client prices, tax and
 * totals, the deposit and the terms. It is the frozen content itself (the digest covers exactly it) plus the
 * revision's id, state and digest; an estimate holds no trade price, markup, margin or supplier price at all, and no
 * name in this schema says line, item, trade, markup, margin or cost (test/client-document/margin-leak.test.ts).
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../../db/schema.js';
import { Amount4, Currency, Id, named, Ratio, Timestamp, ValueState } from '../../core/values.js';
import { shownRevisionState } from '../kit/revisions.js';
import { CalendarDate, Digest, RevisionState, ShownMoney } from './shapes.js';

export const RevisionPiece = z.strictObject({
  pieceId: Id.describe('Names this piece in a decision made line by line (the estimate line it froze).'),
  reference: z.string().nullable().describe("The studio's code for it, e.g. FF-012."),
  wording: z.string().describe('What the client reads it as.'),
  description: z.string(),
  quantity: z.strictObject({ amount4: Amount4, unit: z.string().nullable() }),
  priceState: ValueState,
  unitPrice: ShownMoney.nullable().describe('The client unit price; null unless priceState is set.'),
  taxRate: Ratio,
  net: ShownMoney.nullable().describe('Quantity × unit price, rounded once to the minor unit.'),
  tax: ShownMoney.nullable().describe('Net × tax rate, rounded once.'),
  gross: ShownMoney.nullable(),
  excludedFromTotal: z.boolean().describe('Shown but not counted in the totals (an option, or a price to confirm).'),
});

export const RevisionContent = z.strictObject({
  estimateId: Id,
  estimateNumber: z.int().min(1),
  revisionNumber: z.int().min(1),
  title: z.string(),
  introduction: z.string(),
  projectName: z.string(),
  studioName: z.string(),
  currency: Currency,
  issuedAt: Timestamp,
  validUntil: CalendarDate.nullable().describe('The last day the offer may be accepted; null: no end date.'),
  pieces: z.array(RevisionPiece),
  leftOutOfTotal: z
    .array(
      z.strictObject({
        pieceId: Id,
        wording: z.string(),
        reason: z
          .enum(['tbc', 'poa', 'excluded'])
          .describe('tbc or poa: its price is still to come; excluded: by choice.'),
      }),
    )
    .describe('The pieces the totals do not count, named.'),
  totals: z.strictObject({ net: ShownMoney, tax: ShownMoney, gross: ShownMoney }),
  deposit: z.strictObject({
    percent: Ratio,
    amount: ShownMoney.describe('percent of the gross total, rounded once.'),
  }),
  paymentTerms: z.string(),
});
export type RevisionContent = z.output<typeof RevisionContent>;

export const ClientEstimateRevision = named(
  RevisionContent.extend({
    revisionId: Id,
    state: RevisionState,
    digest: Digest,
  }).describe(
    'One issued estimate revision as the client sees it: pieces, client prices, tax, totals, deposit, terms.',
  ),
  'ClientEstimateRevision',
);
export type ClientEstimateRevision = z.output<typeof ClientEstimateRevision>;

/** The client's projection of one revision, or undefined when there is none with that id. */
export async function readClientRevision(
  db: Kysely<Database>,
  revisionId: string,
  now: string = new Date().toISOString(),
): Promise<ClientEstimateRevision | undefined> {
  const row = await db
    .selectFrom('estimate_revisions')
    .select(['id', 'state', 'valid_until', 'content', 'digest'])
    .where('id', '=', revisionId)
    .executeTakeFirst();
  if (!row) return undefined;
  const content = JSON.parse(row.content) as RevisionContent;
  return { ...content, revisionId: row.id, state: shownRevisionState(row, now), digest: row.digest };
}
