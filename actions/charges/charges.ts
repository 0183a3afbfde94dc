import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { page } from '../../src/core/values.js';
import * as charges from '../../src/domain/charges/charges.js';
import { PROJECT_CHARGE } from '../../src/domain/charges/entity.js';
import { PROJECT_CHARGE_RECORD } from '../../src/domain/charges/record.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { EXAMPLE } from '../projects/shapes.js';
import { ProjectChargeId, ProjectId } from '../shared/refs.js';
import { ProjectCharge } from './records.js';

/** A fake id for examples: the shape the API mints, no meaning. */
const EX = { chargeId: '0000000000000000000000000h' } as const;
const inCharge = { projectId: ProjectId, chargeId: ProjectChargeId };
const INVOICED_NOTE =
  'Once a charge has been billed it is locked for good: bill more with a new charge, or less with a credit note.';

export const listProjectCharges = defineAction({
  name: 'list_project_charges',
  kind: 'procedure',
  effect: 'query',
  domain: 'charges',
  summary: "List a project's charges (fees, time, costs passed on, freight) with net, tax and gross.",
  description:
    "The project's charges by date (or sort by createdAt; '-' for descending), each with its figures and its net, tax and gross in the project currency (amounts need pricing:read). Filter by type, by invoiced (true: only those already invoiced; false: only those still to bill) and by dateFrom/dateTo (inclusive, YYYY-MM-DD); archived charges are left out unless archived is include or only. For goods, read the schedule lines instead (list_schedule_lines).",
  intents: [
    'what fees and time have we billed on this job',
    'show the charges not billed yet',
    'list our fees and expenses on a project',
  ],
  scope: 'procurement:read',
  input: charges.CHARGE_LISTING.input,
  output: page(ProjectCharge),
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, type: 'time', invoiced: false, dateFrom: '2026-11-01' },
  handler: (ctx, input) => charges.listCharges(ctx, input),
});

export const getProjectCharge = defineAction({
  name: 'get_project_charge',
  kind: 'procedure',
  effect: 'query',
  domain: 'charges',
  summary: 'Read one project charge with its figures, net, tax, gross and version.',
  description:
    'The charge (archived or not) with its type, figures, tax rate, computed net, tax and gross (amounts need pricing:read), whether and when it was invoiced, and its version for update_project_charge and archive_project_charge.',
  intents: ['show one fee or expense with its tax', 'look at a charge', 'what does this charge come to'],
  scope: 'procurement:read',
  input: z.strictObject(inCharge),
  output: ProjectCharge,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, chargeId: EX.chargeId },
  handler: (ctx, input) => charges.getCharge(ctx, input.projectId, input.chargeId),
});

export const createProjectCharge = defineAction({
  name: 'create_project_charge',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'charges',
  summary: 'Bill a project for something besides goods: a design fee, hours, a cost passed on, freight.',
  description:
    'Adds a charge to the project in its currency. Send the figures its type takes (list_charge_types): design_fee takes fixedAmount; time takes hours and hourlyRate; reimbursable, disbursement and freight (costs the studio recharges: samples, couriers, printing, planning fees) take cost and, for a handling charge, handlingMarkup. Amounts are scale-4 strings ({ amount4: "950000" } = 95.0000) and need pricing:write. taxRate defaults to the studio\'s; date defaults to today. The answer shows net, tax and gross, each rounded once to the currency\'s minor unit. Goods belong on schedule lines, not here. Send a fresh commandKey so a retry never bills twice.',
  intents: ['bill the client for our design fee', 'charge for hours on site', 'pass a cost on to the client'],
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  keyed: true,
  input: z.strictObject({ projectId: ProjectId, ...PROJECT_CHARGE_RECORD.createInput.shape }),
  output: ProjectCharge,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    type: 'time',
    description: 'Site visits, November',
    date: '2026-11-27',
    hours: { amount4: '75000' },
    hourlyRate: { amount4: '950000' },
    taxRate: { ratio4: '2000' },
    commandKey: '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c',
  },
  handler: (ctx, input) => charges.createCharge(ctx, input),
});

export const updateProjectCharge = defineAction({
  name: 'update_project_charge',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'charges',
  summary: "Correct a charge's description, date, figures, type or tax rate.",
  description: `A merge patch with expectedVersion from your last read: send only what changes (null clears a figure). The figures must still fit the type (list_charge_types): a time charge becomes a design_fee with fixedAmount given and hours and hourlyRate set to null. Net, tax and gross are worked out again. ${INVOICED_NOTE} Archived charges do not change (ARCHIVED).`,
  intents: ['correct the hours on a charge', 'change the amount of a fee', 'edit a charge'],
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  versioned: { entity: PROJECT_CHARGE, idField: 'chargeId' },
  input: z.strictObject({ ...inCharge, ...PROJECT_CHARGE_RECORD.patchInput.shape }),
  output: ProjectCharge,
  errors: ['NOT_FOUND', 'ARCHIVED', 'CHARGE_INVOICED'],
  example: { projectId: EXAMPLE.projectId, chargeId: EX.chargeId, expectedVersion: 1, hours: { amount4: '80000' } },
  handler: (ctx, { projectId, chargeId, ...patch }) => charges.updateCharge(ctx, projectId, chargeId, patch),
});

export const archiveProjectCharge = defineAction({
  name: 'archive_project_charge',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'charges',
  summary: 'Withdraw a charge so it is no longer billed (kept, never deleted).',
  description: `Archives the charge: it stays readable (list_project_charges with archived include or only) but is no longer billed. Needs expectedVersion; a second archival answers ALREADY_ARCHIVED. ${INVOICED_NOTE}`,
  intents: ['remove a charge added by mistake', 'withdraw a fee', 'take a charge off the project'],
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  versioned: { entity: PROJECT_CHARGE, idField: 'chargeId' },
  input: z.strictObject(inCharge),
  output: ProjectCharge,
  errors: ['NOT_FOUND', 'ALREADY_ARCHIVED', 'ARCHIVED', 'CHARGE_INVOICED'],
  example: { projectId: EXAMPLE.projectId, chargeId: EX.chargeId, expectedVersion: 2 },
  handler: (ctx, input) => charges.archiveCharge(ctx, input.projectId, input.chargeId),
});
