import type { LineOutcome } from '../../../../db/vocabulary.js';
import { depositOf, sumTaxed } from '../../../core/taxed-lines.js';
import { parseAmount4 } from '../../../core/money.js';
import type { ClientEstimateRevision } from '../../../domain/estimates/client-revision.js';

/** The client's answers on the page, piece by piece (every piece answered; accepted until they say otherwise). */
export type Answers = ReadonlyMap<string, LineOutcome>;

/** The answers a form sent: `piece.<pieceId>` = accepted | declined; a piece not sent is accepted. */
export function answersFrom(form: URLSearchParams, revision: ClientEstimateRevision): Answers {
  return new Map(
    revision.pieces.map((p) => [p.pieceId, form.get(`piece.${p.pieceId}`) === 'declined' ? 'declined' : 'accepted']),
  );
}

/**
 * The running total of the accepted pieces, added up as the decision will record it: each piece's figures as issued
 * (rounded once per piece), summed, and the deposit's percent of that gross, rounded once.
 */
export function acceptedTotals(revision: ClientEstimateRevision, answers: Answers) {
  const lines = revision.pieces
    .filter((p) => answers.get(p.pieceId) === 'accepted' && !p.excludedFromTotal && p.net && p.tax && p.gross)
    .map((p) => ({
      net4: parseAmount4(p.net!.amount4),
      tax4: parseAmount4(p.tax!.amount4),
      gross4: parseAmount4(p.gross!.amount4),
    }));
  const sum = sumTaxed(lines);
  const c = revision.currency;
  const money = (n: bigint) => ({ amount4: n.toString(), currency: c });
  return {
    net: money(sum.net4),
    tax: money(sum.tax4),
    gross: money(sum.gross4),
    deposit: money(depositOf(sum.gross4, parseAmount4(revision.deposit.percent.ratio4), c)),
    acceptedCount: [...answers.values()].filter((o) => o === 'accepted').length,
  };
}
