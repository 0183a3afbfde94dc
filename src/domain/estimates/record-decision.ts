import type { ActionContext } from '../../core/context.js';
import { displayAmount, minorUnits } from '../../core/money.js';
import { decidableRevision, pieceOutcomes } from './decide.js';

/** The question put to the person before the studio records a client's decision. */
export async function decisionQuestion(
  ctx: Pick<ActionContext, 'queryRow' | 'studioId'>,
  input: {
    revisionId: string;
    digest: string;
    outcome: 'accepted' | 'declined' | 'by_line';
    lines?: ReadonlyArray<{ estimateLineId: string; outcome: 'accepted' | 'declined' }> | undefined;
    deciderName: string;
    method: string;
  },
) {
  const { row, content } = await decidableRevision(ctx, input.revisionId, input.digest, new Date().toISOString());
  const outcomes = pieceOutcomes(content, input);
  const accepted = outcomes.filter((o) => o.outcome === 'accepted').length;
  const gross = `${content.currency} ${displayAmount(BigInt(content.totals.gross.amount4), minorUnits(content.currency))}`;
  const what =
    input.outcome === 'by_line'
      ? `accepted ${accepted} of ${outcomes.length} pieces`
      : `${input.outcome} all ${outcomes.length} pieces`;
  return `Record that ${input.deciderName.trim()} ${what} of revision ${row.number} of "${row.title}" (${gross} as issued), as told to the studio (${input.method.replace('_', ' ')})? A decision is final and never changes.`;
}
