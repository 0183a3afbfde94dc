import { z } from 'zod';
import {
  DECISION_METHODS,
  DECISION_OUTCOMES,
  ESTIMATE_STATES,
  LINE_OUTCOMES,
  STORED_REVISION_STATES,
  type Currency as CurrencyCode,
  type ValueState,
} from '../../../db/vocabulary.js';
import { publicMoney, refTo } from '../../core/schema-marks.js';
import { Currency, Id, PricedField, PricedFieldInput, QuantityAmount4, Timestamp } from '../../core/values.js';
import { asQuantity, asRatio } from '../kit/money-columns.js';
import { asFlag, asJson, type ColumnsCodec, defineRecord, field, type TableOf } from '../kit/record.js';
import { LINE } from '../schedule/entity.js';
import { RevisionContent } from './client-revision.js';
import { CalendarDate, DepositPercent, Digest, RevisionState, ShownMoney, TaxRate } from './shapes.js';

type M = { amount4: string; currency: CurrencyCode };

/** Money kept as a scale-4 column beside the row's currency column. */
const moneyColumn = <C extends string>(column: C) => ({
  toColumns: (m: M) =>
    ({ [column]: m.amount4, currency: m.currency }) as { [K in C]: string } & { currency: CurrencyCode },
  fromRow: (row: Record<string, unknown>): M => ({
    amount4: row[column] as string,
    currency: row.currency as CurrencyCode,
  }),
});

/** Net, tax and gross kept as three scale-4 columns (net4, tax4, gross4 after a prefix) beside the row's currency. */
const figuresColumns = <P extends '' | 'accepted_'>(prefix: P) => {
  const [n, t, g] = [`${prefix}net4`, `${prefix}tax4`, `${prefix}gross4`];
  type Cols = { [K in `${P}net4` | `${P}tax4` | `${P}gross4`]: string } & { currency: CurrencyCode };
  return {
    toColumns: (v: { net: M; tax: M; gross: M }) =>
      ({ [n]: v.net.amount4, [t]: v.tax.amount4, [g]: v.gross.amount4, currency: v.net.currency }) as Cols,
    fromRow: (row: Record<string, unknown>) => {
      const currency = row.currency as CurrencyCode;
      return {
        net: { amount4: row[n] as string, currency },
        tax: { amount4: row[t] as string, currency },
        gross: { amount4: row[g] as string, currency },
      };
    },
  };
};

const Figures = z.strictObject({ net: ShownMoney, tax: ShownMoney, gross: ShownMoney });

export const EstimateState = z
  .enum(ESTIMATE_STATES)
  .describe(
    'draft: never issued; issued: a current revision awaits the client; accepted, partly_accepted, declined: decided on its current revision; voided. Decided and voided estimates are closed.',
  );

/** The draft's figures, computed on read from its active lines as an issue would freeze them. */
export const DraftTotals = z
  .strictObject({
    net: ShownMoney,
    tax: ShownMoney,
    gross: ShownMoney,
    deposit: ShownMoney,
    piecesToPrice: z
      .int()
      .min(0)
      .describe('Offered lines (not excluded) whose price is tbc or poa: issuing is refused while any remain.'),
  })
  .describe('What issuing now would freeze: per-line tax rounded once, summed; the deposit of the gross.');

/** An estimate: a project's offer to its client for some of its lines, edited as a draft, issued as revisions. */
export const ESTIMATE_RECORD = defineRecord({
  name: 'Estimate',
  description:
    "An estimate: a project's offer to its client for some of its lines, edited as a draft and issued as numbered revisions.",
  table: 'estimates',
  owner: 'project',
  archivable: false,
  fields: {
    projectId: field(Id, { owner: true }),
    number: field(z.int().min(1).describe('1, 2, 3 … within the project.')),
    title: field(z.string().trim().min(1).max(200).describe('What the client reads as its heading.'), {
      write: 'always',
    }),
    introduction: field(z.string().max(20_000).describe('A note to the client, above the pieces.'), {
      write: 'always',
      default: '',
    }),
    currency: field(Currency.describe("The project's currency when the estimate was made.")),
    validUntil: field(CalendarDate.nullable().describe('The last day the client may accept; null: no end date.'), {
      write: 'always',
    }),
    depositPercent: field(DepositPercent, {
      write: 'always',
      default: { ratio4: '0' },
      column: 'deposit_percent4',
      codec: asRatio,
    }),
    paymentTerms: field(z.string().max(5000).describe('e.g. "Balance due on delivery."'), {
      write: 'always',
      default: '',
    }),
    state: field(EstimateState),
    currentRevisionId: field(Id.nullable().describe('The latest issued revision; null while a draft.')),
    revisionCount: field(z.int().min(0).describe('Revisions issued so far.')),
    duplicatedFrom: field(Id.nullable().describe('The estimate or revision this draft was started from.')),
    voidReason: field(z.string().nullable()),
    voidedAt: field(Timestamp.nullable()),
    createdBy: field(Id.describe('The member who made it.')),
  },
  computed: { draftTotals: DraftTotals },
});
export type EstimateRow = TableOf<typeof ESTIMATE_RECORD>;

type PricedInput = z.output<typeof PricedFieldInput>;
/** The offered price: a state and an amount (only when set), in the row's currency. */
const offeredPrice: ColumnsCodec<
  PricedInput,
  { price_state: ValueState; price4: string | null },
  z.input<typeof PricedField>
> = {
  toColumns: (p) => ({ price_state: p.state, price4: p.state === 'set' ? (p.amount4 ?? null) : null }),
  fromRow: (row) => ({
    price:
      row.price_state === 'set' && row.price4 !== null
        ? { amount4: row.price4, currency: row.currency as CurrencyCode }
        : null,
    state: row.price_state,
  }),
};

/** A line of an estimate's draft: what the offer says about one schedule line, copied when added, then its own. */
export const ESTIMATE_LINE_RECORD = defineRecord({
  name: 'EstimateLine',
  description:
    "What an estimate offers for one schedule line: the client's wording, quantity, unit price and tax rate, copied from the schedule when added and edited with update_estimate_draft.",
  table: 'estimate_lines',
  owner: 'project',
  archivable: true,
  archivedMeans: 'Set when removed from the draft (remove_estimate_lines); estimate lines are never deleted.',
  fields: {
    estimateId: field(Id),
    lineId: field(refTo(Id, LINE).describe('The schedule line it offers.'), { write: 'create', required: true }),
    position: field(z.int().min(1).describe('1-based order in the estimate.')),
    reference: field(z.string().max(40).nullable().describe("The line's code when added, e.g. FF-012."), {
      write: 'always',
    }),
    wording: field(
      z.string().trim().min(1).max(500).describe("What the client reads: the line's heading by default."),
      {
        write: 'always',
      },
    ),
    description: field(z.string().max(20_000).describe("The line's description by default."), { write: 'always' }),
    quantity: field(z.strictObject({ amount4: QuantityAmount4 }).describe("The line's quantity by default."), {
      write: 'always',
      column: 'quantity4',
      codec: asQuantity,
    }),
    unitName: field(z.string().nullable().describe("The line's unit when added.")),
    currency: field(Currency),
    unitPrice: field(
      PricedFieldInput.describe(
        "The client unit price offered: the schedule's client price when added (hand-set, or trade × markup rounded to the minor unit).",
      ),
      { write: 'always', output: publicMoney(PricedField), columns: offeredPrice },
    ),
    taxRate: field(TaxRate.describe("The studio's tax rate by default."), {
      write: 'always',
      column: 'tax_rate4',
      codec: asRatio,
    }),
    excludedFromTotal: field(
      z.boolean().describe('Shown to the client but not counted (an option; a price to come).'),
      {
        write: 'always',
        default: false,
        column: 'excluded',
        codec: asFlag,
      },
    ),
  },
  computed: {
    net: ShownMoney.nullable().describe('Quantity × unit price rounded once; null unless the price is set.'),
    tax: ShownMoney.nullable(),
    gross: ShownMoney.nullable(),
  },
});
export type EstimateLineRow = TableOf<typeof ESTIMATE_LINE_RECORD>;

/** An issued revision: frozen content, its digest and totals; only its state ever changes. */
export const ESTIMATE_REVISION_RECORD = defineRecord({
  name: 'EstimateRevision',
  description:
    'An issued estimate revision: a numbered, immutable offer with its content as the client sees it, its totals and the SHA-256 digest a decision names.',
  table: 'estimate_revisions',
  owner: 'project',
  archivable: false,
  fields: {
    projectId: field(Id, { owner: true }),
    estimateId: field(Id),
    number: field(z.int().min(1).describe('1 for the first issue, then one more each time.')),
    state: field(z.enum(STORED_REVISION_STATES), { output: RevisionState }),
    issuedAt: field(Timestamp),
    issuedBy: field(Id.describe('The member who issued it.')),
    validUntil: field(CalendarDate.nullable()),
    digest: field(Digest),
    currency: field(Currency),
    totals: field(Figures, { columns: figuresColumns('') }),
    deposit: field(ShownMoney, { columns: moneyColumn('deposit4') }),
    content: field(RevisionContent.describe('Exactly what was issued, as the client sees it; the digest covers it.'), {
      codec: asJson<z.output<typeof RevisionContent>>(),
    }),
  },
});
export type EstimateRevisionRow = TableOf<typeof ESTIMATE_REVISION_RECORD>;

export const DecidedBy = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('client'),
      shareId: Id.describe('The decision link it came through.'),
      verifiedEmail: z
        .string()
        .describe('The mailbox the decider proved control of, by a one-time code, at the time of the decision.'),
    }),
    z.strictObject({
      kind: z.literal('studio'),
      memberId: Id.describe('The member who recorded it.'),
      method: z.enum(DECISION_METHODS).describe('How the client told the studio.'),
      note: z.string().nullable(),
    }),
  ])
  .describe('Who recorded the decision: the client through their link, or the studio on their word.');
type DecidedByValue = z.output<typeof DecidedBy>;

/** A decision: appended once per revision, never changed. */
export const ESTIMATE_DECISION_RECORD = defineRecord({
  name: 'EstimateDecision',
  description:
    "The client's decision on one exact estimate revision (named by id and digest): appended once, never changed.",
  table: 'estimate_decisions',
  owner: 'project',
  archivable: false,
  fields: {
    projectId: field(Id, { owner: true }),
    estimateId: field(Id),
    revisionId: field(Id),
    revisionDigest: field(Digest),
    outcome: field(z.enum(DECISION_OUTCOMES)),
    pieces: field(
      z
        .array(z.strictObject({ pieceId: Id, outcome: z.enum(LINE_OUTCOMES) }))
        .describe("Each piece of the revision and the client's answer to it."),
      { column: 'line_outcomes', codec: asJson<Array<{ pieceId: string; outcome: 'accepted' | 'declined' }>>() },
    ),
    currency: field(Currency),
    accepted: field(Figures.describe('The accepted pieces counted in the total, summed as issued.'), {
      columns: figuresColumns('accepted_'),
    }),
    deposit: field(ShownMoney.describe('The deposit percent of the accepted gross, rounded once.'), {
      columns: moneyColumn('deposit4'),
    }),
    comment: field(z.string()),
    deciderName: field(z.string().describe('The name the decider typed.')),
    decidedBy: field(DecidedBy, {
      columns: {
        toColumns: (b: DecidedByValue) => ({
          decided_by_kind: b.kind,
          share_id: b.kind === 'client' ? b.shareId : null,
          verified_email: b.kind === 'client' ? b.verifiedEmail : null,
          recorded_by: b.kind === 'studio' ? b.memberId : null,
          method: b.kind === 'studio' ? b.method : null,
          note: b.kind === 'studio' ? b.note : null,
        }),
        fromRow: (row: Record<string, unknown>): DecidedByValue =>
          row.decided_by_kind === 'client'
            ? { kind: 'client', shareId: row.share_id as string, verifiedEmail: row.verified_email as string }
            : {
                kind: 'studio',
                memberId: row.recorded_by as string,
                method: row.method as DecidedByValue & { kind: 'studio' } extends { method: infer M } ? M : never,
                note: (row.note as string | null) ?? null,
              },
      },
    }),
    decidedAt: field(Timestamp),
  },
});
export type EstimateDecisionRow = TableOf<typeof ESTIMATE_DECISION_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    estimates: EstimateRow;
    estimate_lines: EstimateLineRow;
    estimate_revisions: EstimateRevisionRow;
    estimate_decisions: EstimateDecisionRow;
  }
}
