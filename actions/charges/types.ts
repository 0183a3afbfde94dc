import { z } from 'zod';
import { CHARGE_BASES, CHARGE_TYPE_GUIDE, CHARGE_TYPES } from '../../db/vocabulary.js';
import { defineAction } from '../../src/core/define-action.js';
import { TAKES } from '../../src/domain/charges/figures.js';
import { ChargeType } from '../../src/domain/charges/record.js';

export const listChargeTypes = defineAction({
  name: 'list_charge_types',
  kind: 'procedure',
  effect: 'query',
  domain: 'charges',
  summary: 'List the kinds of charge a studio bills besides goods, and the figures each takes.',
  description:
    'The closed list of charge types (design_fee, time, reimbursable, disbursement, freight) in the words studios use, each with what it is for and which figures create_project_charge takes for it: fixedAmount for a fee; hours and hourlyRate for time; cost and an optional handlingMarkup for costs passed on. Read it before choosing a type.',
  intents: ['what can we bill besides furniture', 'which kinds of fees are there', 'charge types'],
  scope: 'procurement:read',
  input: z.strictObject({}),
  output: z.strictObject({
    items: z.array(
      z.strictObject({
        type: ChargeType,
        label: z.string().describe('As a studio says it, e.g. "Design fee".'),
        basis: z.enum(CHARGE_BASES).describe('fixed: an amount; hourly: hours × rate; cost: cost × (1 + markup).'),
        takes: z.array(z.string()).describe('The figures a charge of this type takes (handlingMarkup is optional).'),
        description: z.string(),
      }),
    ),
  }),
  errors: [],
  example: {},
  handler: () => ({
    items: CHARGE_TYPES.map((type) => {
      const guide = CHARGE_TYPE_GUIDE[type];
      return {
        type,
        label: guide.label,
        basis: guide.basis,
        takes: [...TAKES[guide.basis].needs, ...TAKES[guide.basis].may],
        description: guide.means,
      };
    }),
  }),
});
