import { z } from 'zod';
import { DECISION_METHODS, LINE_OUTCOMES } from '../../db/vocabulary.js';
import { defineAction } from '../../src/core/define-action.js';
import { page } from '../../src/core/values.js';
import { DeciderName, DecisionComment, decideRevision } from '../../src/domain/estimates/decide.js';
import { ESTIMATE } from '../../src/domain/estimates/entity.js';
import { issueEstimateRevision as issue, issueQuestion } from '../../src/domain/estimates/issue.js';
import { decisionQuestion } from '../../src/domain/estimates/record-decision.js';
import * as revisions from '../../src/domain/estimates/revisions.js';
import { Digest } from '../../src/domain/estimates/shapes.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { EXAMPLE } from '../projects/shapes.js';
import { CONFIRMED } from '../shared/confirmation.js';
import { pageQuery } from '../shared/queries.js';
import { EstimateId, EstimateLineId, EstimateRevisionId, ProjectId } from '../shared/refs.js';
import { ESTIMATE_EX, EstimateDecision, EstimateRevision, EstimateRevisionSummary } from './records.js';

const inEstimate = { projectId: ProjectId, estimateId: EstimateId.describe('From list_estimates.') };
const EX = { projectId: EXAMPLE.projectId, estimateId: ESTIMATE_EX.estimateId };

export const issueEstimateRevision = defineAction({
  name: 'issue_estimate_revision',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'estimates',
  summary: 'Issue the draft to the client as its next numbered revision, frozen and never changed.',
  description: `Freezes the estimate's draft into revision N+1: its pieces, client prices, per-line tax (rounded once per line, then summed), totals, deposit and terms as the client will see them, with a SHA-256 digest a decision must name. The revision before it becomes superseded and can no longer be decided; the estimate becomes issued. Refused while an offered line has no set client price and is not excludedFromTotal, or the draft offers nothing (ESTIMATE_INCOMPLETE), and on a decided or voided estimate (ESTIMATE_CLOSED). Needs expectedVersion from get_estimate, so the person agrees to what you read. To let the client decide, issue_project_share names the revision. ${CONFIRMED}`,
  intents: ['send the client a fresh version of the quote', 'issue the estimate', 'freeze the quote for the client'],
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  versioned: { entity: ESTIMATE, idField: 'estimateId' },
  confirmation: { ask: issueQuestion },
  input: z.strictObject(inEstimate),
  output: EstimateRevision,
  errors: ['NOT_FOUND', 'ESTIMATE_CLOSED', 'ESTIMATE_INCOMPLETE', 'ARCHIVED'],
  example: { ...EX, expectedVersion: 5, confirm: true },
  handler: (ctx, input) => issue(ctx, input.projectId, input.estimateId),
});

export const listEstimateRevisions = defineAction({
  name: 'list_estimate_revisions',
  kind: 'procedure',
  effect: 'query',
  domain: 'estimates',
  summary: "List an estimate's issued revisions with their state, totals and digest.",
  description:
    "Every revision issued of the estimate, first issued first ('-number' for newest first), without its content: number, state (current, superseded, decided, expired: current but past validUntil, voided), when and by whom it was issued, its totals, deposit and digest. get_estimate_revision reads one whole, with its decision.",
  intents: ['which versions of the quote did we send', "list the estimate's revisions", 'history of the quote'],
  scope: 'procurement:read',
  input: z.strictObject({
    ...inEstimate,
    sort: z.enum(revisions.REVISION_SORT_NAMES).optional().describe('Default: number.'),
    ...pageQuery(),
  }),
  output: page(EstimateRevisionSummary),
  errors: ['NOT_FOUND'],
  example: EX,
  handler: (ctx, input) => revisions.listEstimateRevisions(ctx, input),
});

export const getEstimateRevision = defineAction({
  name: 'get_estimate_revision',
  kind: 'procedure',
  effect: 'query',
  domain: 'estimates',
  summary: 'Read one issued estimate revision exactly as issued, with its digest and decision.',
  description:
    "The revision's frozen content (what the client sees: pieces with their pieceId, client prices, tax, totals, deposit, the pieces left out of the total by name, terms), its state as of now, its digest, and its decision (null until decided). A decision names the revision's id and digest.",
  intents: ['show the quote exactly as issued', 'read revision 2 of the estimate', 'what did the client receive'],
  scope: 'procurement:read',
  input: z.strictObject({
    projectId: ProjectId,
    revisionId: EstimateRevisionId.describe('From list_estimate_revisions.'),
  }),
  output: EstimateRevision,
  errors: ['NOT_FOUND'],
  example: { projectId: EX.projectId, revisionId: ESTIMATE_EX.revisionId },
  handler: (ctx, input) => revisions.getEstimateRevision(ctx, input.projectId, input.revisionId),
});

export const recordEstimateDecision = defineAction({
  name: 'record_estimate_decision',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'estimates',
  summary: "Record the client's decision on an issued revision, as they told the studio.",
  description: `For a decision the client gave the studio itself (in person, by phone, email or letter) rather than through their decision link: names the exact revision by revisionId and digest (from get_estimate_revision), and says accepted, declined, or by_line with an answer for every piece (lines: estimateLineId is the piece's pieceId). The decision is appended, marked as recorded by the studio with how the client told you and a note, and never changes; the estimate becomes accepted, partly_accepted or declined. Refused on a superseded or voided revision (REVISION_SUPERSEDED), past its validUntil (REVISION_EXPIRED), with another digest (REVISION_DIGEST_MISMATCH) or when already decided (REVISION_ALREADY_DECIDED). Send a fresh commandKey. ${CONFIRMED}`,
  intents: [
    'the client said yes on the phone',
    'record that the client accepted the quote',
    'the client declined some pieces',
  ],
  scope: 'procurement:write',
  guards: [frozenWhenArchived],
  keyed: true,
  confirmation: { ask: decisionQuestion },
  input: z.strictObject({
    projectId: ProjectId,
    revisionId: EstimateRevisionId.describe('From get_estimate_revision.'),
    digest: Digest,
    outcome: z.enum(['accepted', 'declined', 'by_line']).describe('by_line: answer each piece in lines.'),
    lines: z
      .array(
        z.strictObject({
          estimateLineId: EstimateLineId.describe("The piece's pieceId."),
          outcome: z.enum(LINE_OUTCOMES),
        }),
      )
      .max(5000)
      .optional()
      .describe('by_line only: every piece of the revision, once.'),
    comment: DecisionComment.optional(),
    deciderName: DeciderName,
    method: z.enum(DECISION_METHODS).describe('How the client told the studio.'),
    note: z.string().max(5000).optional().describe('Anything worth keeping about how it was given.'),
  }),
  output: EstimateDecision,
  errors: [
    'NOT_FOUND',
    'REVISION_SUPERSEDED',
    'REVISION_EXPIRED',
    'REVISION_DIGEST_MISMATCH',
    'REVISION_ALREADY_DECIDED',
    'ARCHIVED',
  ],
  example: {
    projectId: EX.projectId,
    revisionId: ESTIMATE_EX.revisionId,
    digest: ESTIMATE_EX.digest,
    outcome: 'accepted',
    deciderName: 'Clara Penhaligon',
    method: 'phone',
    note: 'Called on Tuesday morning.',
    commandKey: '3e9a1c5b-7d2f-4b8e-a6c0-9d1e2f3a4b5c',
    confirm: true,
  },
  handler: (ctx, { projectId: _p, method, note, ...input }) =>
    decideRevision(ctx, { ...input, by: { kind: 'studio', method, note: note ?? null } }),
});
