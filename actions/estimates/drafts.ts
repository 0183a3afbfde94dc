import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { page } from '../../src/core/values.js';
import { ESTIMATE } from '../../src/domain/estimates/entity.js';
import * as estimates from '../../src/domain/estimates/estimates.js';
import { LINES_PER_CALL } from '../../src/domain/estimates/lines.js';
import { ESTIMATE_RECORD } from '../../src/domain/estimates/record.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { EXAMPLE } from '../projects/shapes.js';
import { EstimateId, EstimateLineId, ProjectId } from '../shared/refs.js';
import { ESTIMATE_EX, Estimate, EstimateLinePatch, EstimateWithLines, NewEstimateLine } from './records.js';

const inEstimate = { projectId: ProjectId, estimateId: EstimateId.describe('From list_estimates.') };
const EX = { projectId: EXAMPLE.projectId, estimateId: ESTIMATE_EX.estimateId };

export const listEstimates = defineAction({
  name: 'list_estimates',
  kind: 'procedure',
  effect: 'query',
  domain: 'estimates',
  summary: "List a project's estimates, drafted or sent to its client, with their state and totals.",
  description:
    "The project's estimates by number (or sort by updatedAt; '-' for descending), each with its state (draft, issued, accepted, partly_accepted, declined, voided), its terms, how many revisions were issued and the totals its draft would issue now. Filter by state, or find one by a piece of its title with q. get_estimate shows an estimate's lines; list_estimate_revisions what was issued.",
  intents: ['what quotes have we sent', 'show the estimates on this job', 'which proposals are open'],
  scope: 'procurement:read',
  input: estimates.ESTIMATE_LISTING.input,
  output: page(Estimate),
  errors: ['NOT_FOUND'],
  example: { projectId: EX.projectId, state: 'issued' },
  handler: (ctx, input) => estimates.listEstimates(ctx, input),
});

export const getEstimate = defineAction({
  name: 'get_estimate',
  kind: 'procedure',
  effect: 'query',
  domain: 'estimates',
  summary: 'Read one estimate with the lines its draft offers, their figures and its version.',
  description:
    "The estimate's terms, state and draft totals, with each active line: the schedule line it offers, the client's wording, quantity, unit price, tax rate, whether it is excluded from the total, and its net, tax and gross. Its version is what update_estimate_draft, add_estimate_lines, remove_estimate_lines, issue_estimate_revision and void_estimate take as expectedVersion. What was issued is in get_estimate_revision.",
  intents: ['show the quote and where it stands', 'open an estimate', 'has the client decided'],
  scope: 'procurement:read',
  input: z.strictObject(inEstimate),
  output: EstimateWithLines,
  errors: ['NOT_FOUND'],
  example: EX,
  handler: (ctx, input) => estimates.getEstimate(ctx, input.projectId, input.estimateId),
});

export const createEstimate = defineAction({
  name: 'create_estimate',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'estimates',
  summary: 'Start a draft estimate (an offer to the client) for some of a project’s lines.',
  description:
    "Makes a draft estimate in the project's currency, numbered next in the project, optionally with lines: each names a schedule line (lineId) and copies, unless sent, its heading as wording, its code, description and quantity, its client price as unitPrice (hand-set, or trade × markup rounded to the minor unit) and the studio's tax rate. title defaults to the project's name; depositPercent (of the total including tax) to 0. Nothing reaches the client until issue_estimate_revision. To start from an existing estimate or revision use duplicate_estimate. Send a fresh commandKey so a retry never creates it twice.",
  intents: ['draft a quote for the client', 'start an estimate for these pieces', 'prepare a proposal'],
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  keyed: true,
  input: z.strictObject({
    projectId: ProjectId,
    ...ESTIMATE_RECORD.createInput.shape,
    lines: z.array(NewEstimateLine).max(LINES_PER_CALL).optional().describe('Schedule lines to offer, in order.'),
  }),
  output: EstimateWithLines,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EX.projectId,
    title: 'Living room furniture',
    validUntil: '2027-01-31',
    depositPercent: { ratio4: '3000' },
    paymentTerms: 'Balance due on delivery.',
    lines: [{ lineId: ESTIMATE_EX.lineId }],
    commandKey: '5b2d7c1e-8f3a-4e6b-9c0d-1a2b3c4d5e6f',
  },
  handler: (ctx, { projectId, lines, ...terms }) => estimates.createEstimate(ctx, projectId, terms, lines),
});

export const updateEstimateDraft = defineAction({
  name: 'update_estimate_draft',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'estimates',
  summary: "Change a draft estimate's terms, or what it says about lines it offers.",
  description:
    'A merge patch of the terms (title, introduction, validUntil, depositPercent, paymentTerms) and, in lines, of the lines it offers (by estimateLineId from get_estimate: wording, description, reference, quantity, unitPrice, taxRate, excludedFromTotal), with expectedVersion from your last read. Mark a line whose price is tbc or poa excludedFromTotal, or set its unitPrice, before issuing. What was already issued never changes: issue again to offer the change. A decided or voided estimate is closed (ESTIMATE_CLOSED).',
  intents: ["change the quote's terms or deposit", 'edit the estimate before sending', 'set the valid-until date'],
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  versioned: { entity: ESTIMATE, idField: 'estimateId' },
  input: z.strictObject({
    ...inEstimate,
    ...ESTIMATE_RECORD.patchInput.shape,
    lines: z.array(EstimateLinePatch).max(LINES_PER_CALL).optional().describe('Changes to lines it offers.'),
  }),
  output: EstimateWithLines,
  errors: ['NOT_FOUND', 'ESTIMATE_CLOSED', 'ARCHIVED'],
  example: {
    ...EX,
    expectedVersion: 3,
    depositPercent: { ratio4: '2500' },
    lines: [{ estimateLineId: ESTIMATE_EX.estimateLineId, excludedFromTotal: true }],
  },
  handler: (ctx, { projectId, estimateId, lines, ...patch }) =>
    estimates.updateEstimateDraft(ctx, projectId, estimateId, patch, lines),
});

export const addEstimateLines = defineAction({
  name: 'add_estimate_lines',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'estimates',
  summary: 'Offer more schedule lines in a draft estimate.',
  description:
    "Adds schedule lines to the estimate's draft, after the ones it offers. Each copies, unless sent, the line's heading as wording, its code, description and quantity, its client price as unitPrice (rounded to the minor unit) and the studio's tax rate; later changes to the schedule do not follow (update_estimate_draft). A line the estimate already offers, or an archived one, is refused. Needs expectedVersion; a decided or voided estimate is closed (ESTIMATE_CLOSED).",
  intents: ['add pieces to the quote', 'put more items on the estimate', 'include the lighting in the proposal'],
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  versioned: { entity: ESTIMATE, idField: 'estimateId' },
  input: z.strictObject({
    ...inEstimate,
    lines: z.array(NewEstimateLine).min(1).max(LINES_PER_CALL).describe('Schedule lines to offer, in order.'),
  }),
  output: EstimateWithLines,
  errors: ['NOT_FOUND', 'ARCHIVED', 'ESTIMATE_CLOSED'],
  example: { ...EX, expectedVersion: 2, lines: [{ lineId: ESTIMATE_EX.lineId, taxRate: { ratio4: '2000' } }] },
  handler: (ctx, input) => estimates.addEstimateLines(ctx, input.projectId, input.estimateId, input.lines),
});

export const removeEstimateLines = defineAction({
  name: 'remove_estimate_lines',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'estimates',
  summary: 'Stop offering some lines in a draft estimate.',
  description:
    'Removes lines from the draft (by estimateLineId from get_estimate): they are archived, never deleted, and revisions already issued keep them. The schedule lines themselves are untouched. Needs expectedVersion; a decided or voided estimate is closed (ESTIMATE_CLOSED).',
  intents: ['take a piece off the quote', 'remove items from the estimate', 'drop a line from the proposal'],
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  versioned: { entity: ESTIMATE, idField: 'estimateId' },
  input: z.strictObject({
    ...inEstimate,
    estimateLineIds: z.array(EstimateLineId).min(1).max(LINES_PER_CALL).describe('From get_estimate.'),
  }),
  output: EstimateWithLines,
  errors: ['NOT_FOUND', 'ESTIMATE_CLOSED', 'ARCHIVED'],
  example: { ...EX, expectedVersion: 4, estimateLineIds: [ESTIMATE_EX.estimateLineId] },
  handler: (ctx, input) => estimates.removeEstimateLines(ctx, input.projectId, input.estimateId, input.estimateLineIds),
});
