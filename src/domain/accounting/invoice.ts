/**
 * The invoice a push sends, built from what the studio chose to bill with exact amounts: each line's net and tax are
 * the figures the studio already issued (an estimate piece's, a charge's: rounded once per line, src/core/taxed-lines),
 * so the invoice's totals are plain sums and agree with what the client was shown. A deposit is split by tax rate so
 * each part carries its own tax; the parts add up to the deposit recorded with the decision, to the penny.
 */
import type { AccountingBilledKind, AccountingRevisionPart, Currency } from '../../../db/vocabulary.js';
import { ServiceError } from '../../core/errors.js';
import { ONE, divRound, minorUnits, parseAmount4, roundToPlaces } from '../../core/money.js';
import { chargeMoney } from '../charges/figures.js';
import type { ProjectChargeRow } from '../charges/record.js';
import type { RevisionContent } from '../estimates/client-revision.js';

export interface InvoiceLine {
  description: string;
  kind: AccountingBilledKind;
  quantity4: string;
  unitAmount4: string;
  net4: string;
  tax4: string;
  accountCode: string;
  taxType: string;
}

export interface BuiltInvoice {
  reference: string;
  currency: Currency;
  date: string;
  lines: InvoiceLine[];
  totals: { net4: string; tax4: string; gross4: string };
}

export type Mapped = (kind: AccountingBilledKind) => { accountCode: string; taxType: string };

/** The revision part billed: the deposit split by tax rate, or each accepted piece as issued. */
export function revisionLines(
  content: RevisionContent,
  accepted: ReadonlySet<string>,
  part: AccountingRevisionPart,
  deposit4: bigint,
  mapped: Mapped,
): InvoiceLine[] {
  const pieces = content.pieces.filter((p) => accepted.has(p.pieceId) && !p.excludedFromTotal && p.net && p.tax);
  const where = `estimate ${content.estimateNumber} "${content.title}", revision ${content.revisionNumber}`;
  if (part === 'accepted_pieces') {
    return pieces.map((p) => ({
      description: [p.reference, p.wording].filter(Boolean).join(' '),
      kind: 'goods',
      quantity4: p.quantity.amount4,
      unitAmount4: p.unitPrice!.amount4,
      net4: p.net!.amount4,
      tax4: p.tax!.amount4,
      ...mapped('goods'),
    }));
  }
  // The deposit's share of each tax rate's gross, the last share taking what rounding left so the parts sum exactly.
  const byRate = new Map<string, bigint>();
  for (const p of pieces)
    byRate.set(p.taxRate.ratio4, (byRate.get(p.taxRate.ratio4) ?? 0n) + parseAmount4(p.gross!.amount4));
  const gross = [...byRate.values()].reduce((a, b) => a + b, 0n);
  const places = minorUnits(content.currency);
  let left = deposit4;
  const rates = [...byRate.entries()];
  return rates.map(([ratio4, rateGross], i) => {
    const share = i === rates.length - 1 ? left : roundToPlaces(divRound(deposit4 * rateGross * ONE, gross), 8, places);
    left -= share;
    const net = roundToPlaces(divRound(share * ONE * ONE, ONE + BigInt(ratio4)), 8, places);
    return {
      description: `Deposit on ${where}${rates.length > 1 ? ` (at ${Number(ratio4) / 100} % tax)` : ''}`,
      kind: 'goods' as const,
      quantity4: String(ONE),
      unitAmount4: String(net),
      net4: String(net),
      tax4: String(share - net),
      ...mapped('goods'),
    };
  });
}

/** A charge billed as one line: its net and tax as the charge shows them. */
export function chargeLine(row: ProjectChargeRow, mapped: Mapped): InvoiceLine {
  const money = chargeMoney(row);
  return {
    description: row.description,
    kind: row.type,
    quantity4: String(ONE),
    unitAmount4: String(money.net4),
    net4: String(money.net4),
    tax4: String(money.tax4),
    ...mapped(row.type),
  };
}

export function invoiceOf(head: Omit<BuiltInvoice, 'totals'>): BuiltInvoice {
  if (!head.lines.length)
    throw new ServiceError('VALIDATION_FAILED', 'Nothing to bill: choose a revision part or charges.');
  let net = 0n;
  let tax = 0n;
  for (const l of head.lines) {
    net += BigInt(l.net4);
    tax += BigInt(l.tax4);
  }
  return { ...head, totals: { net4: String(net), tax4: String(tax), gross4: String(net + tax) } };
}

/** A scale-4 amount as the decimal Xero's JSON takes (its API speaks numbers; the text is exact to 4 places). */
export const xeroNumber = (amount4: string): number => Number(amount4) / 10_000;

/** Xero's JSON number back to scale 4 (it answers at most 4 decimal places with unitdp=4). */
export const fromXeroNumber = (n: unknown): bigint => BigInt(Math.round(Number(n) * 10_000));
