import { z } from 'zod';
import { named } from '../../src/core/values.js';
import { EstimateDecision } from '../../src/domain/estimates/decide.js';
import { ESTIMATE_LINE_RECORD, ESTIMATE_RECORD, ESTIMATE_REVISION_RECORD } from '../../src/domain/estimates/record.js';
import { EstimateLineId } from '../shared/refs.js';

/** An estimate as lists answer it: its terms, state and draft totals (declared in src/domain/estimates/record.ts). */
export const Estimate = ESTIMATE_RECORD.output;
export const EstimateLine = ESTIMATE_LINE_RECORD.output;

/** An estimate whole: with its active lines and each line's figures. */
export const EstimateWithLines = named(
  Estimate.extend({ lines: z.array(EstimateLine).describe('The lines it offers now, in order.') }).describe(
    'An estimate with the lines its draft offers.',
  ),
  'EstimateWithLines',
);

/** A revision whole, with its decision once there is one. */
export const EstimateRevision = named(
  ESTIMATE_REVISION_RECORD.output
    .extend({ decision: EstimateDecision.nullable().describe('The decision on it; null until decided.') })
    .describe('An issued estimate revision with its frozen content and its decision.'),
  'EstimateRevisionWithDecision',
);

/** A revision as lists show it: everything but its content. */
export const EstimateRevisionSummary = named(
  ESTIMATE_REVISION_RECORD.output.omit({ content: true }).describe('An issued estimate revision, without its content.'),
  'EstimateRevisionSummary',
);

export { EstimateDecision };

/** A new line of an estimate: a schedule line, with what the estimate says about it when not the line's own. */
export const NewEstimateLine = ESTIMATE_LINE_RECORD.createInput;

/** A change to a line the estimate offers: only the fields sent change. */
export const EstimateLinePatch = ESTIMATE_LINE_RECORD.patchInput.extend({ estimateLineId: EstimateLineId });

/** Fake ids for examples: the shape the API mints, no meaning. */
export const ESTIMATE_EX = {
  estimateId: '0000000000000000000000000e',
  estimateLineId: '0000000000000000000000000f',
  revisionId: '0000000000000000000000000r',
  lineId: '0000000000000000000000000l',
  digest: '9f2c4b1e7d3a6058c1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4',
} as const;
