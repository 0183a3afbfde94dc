import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { Currency, Id, Money, named } from '../shared/values.js';
import { getProjectTotals as computeTotals } from '../../src/domain/projects/totals.js';
import { EXAMPLE } from './shapes.js';
import { ProjectId } from '../shared/refs.js';
import { priced, publicMoney } from '../../src/core/schema-marks.js';

const StateCounts = z
  .strictObject({ set: z.int(), tbc: z.int(), poa: z.int(), included: z.int(), by_others: z.int() })
  .describe('Active lines per value state of one priced field.');
named(StateCounts, 'ValueStateCounts');

const Totals = {
  clientTotal: publicMoney(Money).describe(
    'Σ quantity × client unit rate over lines whose client price is set, rounded once.',
  ),
  tradeTotal: priced(Money).describe(
    'Σ quantity × trade unit price over lines whose trade price is set, rounded once.',
  ),
  marginTotal: priced(Money).describe(
    'Σ (client − trade) over lines where both are set, rounded once; need not equal clientTotal − tradeTotal.',
  ),
  lineCount: z.int().describe('Active lines counted.'),
  linesByState: z.strictObject({ clientPrice: StateCounts, tradePrice: StateCounts }),
};

const ProjectTotals = z
  .strictObject({
    projectId: Id,
    currency: Currency,
    ...Totals,
    sections: z
      .array(z.strictObject({ sectionId: Id, title: z.string(), position: z.int(), ...Totals }))
      .describe('Active sections, in order.'),
  })
  .describe("A project's money totals, per section and overall.");
named(ProjectTotals, 'ProjectTotals');

export const getProjectTotals = defineAction({
  name: 'get_project_totals',
  kind: 'procedure',
  effect: 'query',
  domain: 'projects',
  summary: 'Client total, trade total and margin per section and for the project.',
  description:
    'Totals over the active lines of the active sections, computed exactly from unrounded factors and rounded once per figure, so a project total need not equal the sum of its section totals or of line totals. Also counts lines by the value state of their client and trade prices (set, tbc, poa, included, by_others), so you can see how much of the schedule is still unpriced. Needs pricing:read.',
  scope: 'pricing:read',
  input: z.strictObject({ projectId: ProjectId }),
  output: ProjectTotals,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId },
  handler: (ctx, input) => computeTotals(ctx, input.projectId),
});
