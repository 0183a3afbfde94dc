import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { ESTIMATE } from '../../src/domain/estimates/entity.js';
import {
  duplicateEstimate as duplicate,
  voidEstimate as voidIt,
  voidQuestion,
} from '../../src/domain/estimates/lifecycle.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { EXAMPLE } from '../projects/shapes.js';
import { CONFIRMED } from '../shared/confirmation.js';
import { EstimateId, EstimateRevisionId, ProjectId } from '../shared/refs.js';
import { ESTIMATE_EX, EstimateWithLines } from './records.js';

export const voidEstimate = defineAction({
  name: 'void_estimate',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'estimates',
  summary: 'Withdraw an estimate: its current revision can no longer be decided.',
  description: `Voids a draft or issued estimate with a reason: its current revision becomes voided (a decision on it answers REVISION_SUPERSEDED, and its decision link stops taking decisions), and the estimate is closed for good. A decided estimate cannot be voided (ESTIMATE_CLOSED). To offer something else instead, duplicate_estimate first. Needs expectedVersion. ${CONFIRMED}`,
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  versioned: { entity: ESTIMATE, idField: 'estimateId' },
  confirmation: { ask: voidQuestion },
  input: z.strictObject({
    projectId: ProjectId,
    estimateId: EstimateId.describe('From list_estimates.'),
    reason: z.string().trim().min(1).max(1000).describe('Why it is withdrawn, kept with it.'),
  }),
  output: EstimateWithLines,
  errors: ['NOT_FOUND', 'ESTIMATE_CLOSED', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    estimateId: ESTIMATE_EX.estimateId,
    expectedVersion: 6,
    reason: 'The client chose another scheme.',
    confirm: true,
  },
  handler: (ctx, input) => voidIt(ctx, input.projectId, input.estimateId, input.reason),
});

export const duplicateEstimate = defineAction({
  name: 'duplicate_estimate',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'estimates',
  summary: 'Start a new draft estimate from an estimate or from one of its issued revisions.',
  description:
    "Makes a new draft in the same project, numbered next, with the source's terms and lines: from estimateId, its draft as it stands; from revisionId, the pieces exactly as that revision issued them (prices, tax rates, wording). Use it to offer again after a decision, a decline or a void, or to try a variant; the source never changes. Send exactly one of estimateId and revisionId, and a fresh commandKey.",
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  keyed: true,
  input: z.strictObject({
    projectId: ProjectId,
    estimateId: EstimateId.optional().describe('Start from this estimate’s draft.'),
    revisionId: EstimateRevisionId.optional().describe('Or from this issued revision.'),
    title: z.string().trim().min(1).max(200).optional().describe("Default: the source's title."),
  }),
  output: EstimateWithLines,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    revisionId: ESTIMATE_EX.revisionId,
    title: 'Living room furniture, option B',
    commandKey: '2c8e4a6b-1d3f-4e5a-8b7c-6d9e0f1a2b3c',
  },
  handler: (ctx, input) => duplicate(ctx, input),
});
