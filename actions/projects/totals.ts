import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { Currency, Id, Money, named, ValueState } from '../../src/core/values.js';
import { getProjectTotals as computeTotals } from '../../src/domain/projects/totals.js';
import { EXAMPLE } from './shapes.js';
import { ProjectId } from '../shared/refs.js';
import { LEFT_OUT_LISTED } from '../../src/domain/projects/totals.js';
import { priced, publicMoney } from '../../src/core/schema-marks.js';

const StateCounts = z
  .strictObject({ set: z.int(), tbc: z.int(), poa: z.int(), included: z.int(), by_others: z.int() })
  .describe('Active lines per value state of one priced field.');
named(StateCounts, 'ValueStateCounts');

const Totals = {
  clientTotal: publicMoney(Money).describe(
    'Σ quantity × client unit rate over lines whose client price is set, rounded once; before tax, without delivery.',
  ),
  deliveryTotal: publicMoney(Money).describe(
    'Σ delivery price over lines whose delivery price is set (not in clientTotal).',
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
    linesLeftOutCount: z
      .int()
      .min(0)
      .describe('Active lines whose client or trade price is tbc or poa, so a total leaves them out.'),
    linesLeftOut: z
      .array(
        z.strictObject({
          lineId: Id,
          sectionId: Id,
          code: z.string().nullable(),
          heading: z.string(),
          clientPriceState: ValueState,
          tradePriceState: ValueState,
        }),
      )
      .describe(
        `Those lines in schedule order (the first ${LEFT_OUT_LISTED}); read one with get_schedule_line, or list them all with list_schedule_lines { priceState: "tbc" }.`,
      ),
    sections: z
      .array(z.strictObject({ sectionId: Id, title: z.string(), position: z.int().min(1), ...Totals }))
      .describe('Active sections, in order.'),
    charges: z
      .strictObject({
        count: z.int().min(0).describe('Active charges counted.'),
        net: priced(Money).describe('Σ of each charge’s net, each rounded once to the minor unit.'),
        tax: priced(Money).describe('Σ of each charge’s tax, each rounded once.'),
        gross: priced(Money).describe('net + tax.'),
        otherCurrencyCount: z
          .int()
          .min(0)
          .describe("Active charges in another currency (made before the project's changed): not in these sums."),
      })
      .describe(
        'What the project bills besides goods (list_project_charges), invoiced or not: with tax, unlike the line totals.',
      ),
  })
  .describe("A project's money totals, per section and overall.");
named(ProjectTotals, 'ProjectTotals');

export const getProjectTotals = defineAction({
  name: 'get_project_totals',
  kind: 'procedure',
  effect: 'query',
  domain: 'projects',
  summary: 'Client, trade, margin and delivery totals per section and project, naming unpriced lines.',
  description:
    'Totals over the active lines of the active sections, computed exactly from unrounded factors and rounded once per figure, so a project total need not equal the sum of its section totals or of line totals. Totals are before tax and exclude delivery, which has its own deliveryTotal. Lines whose client or trade price is tbc or poa are left out of that total and listed by name in linesLeftOut, so you can say what the figure does not yet cover; linesByState counts every value state. Charges (fees, time, costs passed on) are summed apart in charges, with their tax. Needs pricing:read.',
  intents: ['how much is the whole job worth', 'what does the client pay in total', 'what is still to be priced'],
  scope: 'pricing:read',
  input: z.strictObject({ projectId: ProjectId }),
  output: ProjectTotals,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId },
  handler: (ctx, input) => computeTotals(ctx, input.projectId),
});
