import { z } from 'zod';
import { closestActionNames, isRecordedActionName } from '../../src/core/action-names.js';
import { defineAction } from '../../src/core/define-action.js';
import { Id, page } from '../../src/core/values.js';
import { pageQuery } from '../shared/queries.js';
import { verifyAuditChain } from '../../src/core/audit.js';
import { AuditEvent, AuditTargetKind, ChainCheck } from './records.js';
import { getReachableEvent, listEvents, listLineEvents } from '../../src/domain/audit/events.js';
import { AuditEventId, LineId, MemberId, ProjectId } from '../shared/refs.js';
import { EVENT_SORT_NAMES } from '../../src/domain/audit/events.js';

const EX = {
  projectId: '0000000000000000000000000a',
  lineId: '0000000000000000000000000b',
  eventId: '0000000000000000000000000c',
} as const;

const actionFilter = z
  .string()
  .min(1)
  .max(80)
  .superRefine((name, ctx) => {
    if (isRecordedActionName(name)) return;
    const closest = closestActionNames(name);
    ctx.addIssue({
      code: 'custom',
      message: `No action is named ${name}${closest.length ? `; the closest are ${closest.join(', ')}` : ''}. Audit events name catalog actions (search_actions finds them).`,
    });
  })
  .optional()
  .describe('Only events of this action, e.g. update_schedule_line (a catalog action name).');
const eventSort = z.enum(EVENT_SORT_NAMES).optional().describe('at: oldest first; -at: newest first (the default).');
const memberFilter = MemberId.optional().describe('Only events made by this studio member.');

export const listProjectAuditEvents = defineAction({
  name: 'list_project_audit_events',
  kind: 'procedure',
  effect: 'query',
  domain: 'audit',
  summary: "Read a project's audit feed, newest first.",
  description:
    'Every recorded change to the project, its sections and its lines: who (member, share client or system), which action, the target, when, a summary and the fields changed. Read-only; filter by target record, action or member. Trade price, markup and margin changes are left out for callers without pricing:read.',
  intents: ['what changed on this project', 'who did what on the job', 'project history'],
  scope: 'audit:read',
  input: z.strictObject({
    projectId: ProjectId,
    targetId: Id.optional().describe('Only events about this record.'),
    action: actionFilter,
    memberId: memberFilter,
    sort: eventSort,
    ...pageQuery(),
  }),
  output: page(AuditEvent),
  errors: ['NOT_FOUND'],
  example: { projectId: EX.projectId, action: 'archive_schedule_line' },
  handler: (ctx, input) => listEvents(ctx, input),
});

export const listStudioAuditEvents = defineAction({
  name: 'list_studio_audit_events',
  kind: 'procedure',
  effect: 'query',
  domain: 'audit',
  summary: "Read the studio's whole audit feed, newest first.",
  description:
    "Every recorded change across the studio, newest first: projects, schedules, members, settings. Members who manage the workspace see all of it; others see the events of the projects granted to them. Filter by target kind (line, section, project, member …), action or member. With verifyChain: true the answer also says whether the studio's hash-chained feed still verifies from its first event (chain.intact), and where it breaks if not: an edited or removed event breaks it.",
  scope: 'audit:read',
  input: z.strictObject({
    targetKind: AuditTargetKind.optional().describe('Only events about this kind of record, e.g. line.'),
    action: actionFilter,
    memberId: memberFilter,
    verifyChain: z.boolean().optional().describe("Also recompute the studio's whole hash chain and report chain."),
    sort: eventSort,
    ...pageQuery(),
  }),
  output: page(AuditEvent).extend({ chain: ChainCheck.optional().describe('Only with verifyChain: true.') }),
  errors: [],
  example: { targetKind: 'line', limit: 50, verifyChain: true },
  handler: async (ctx, { verifyChain, ...query }) => ({
    ...(await listEvents(ctx, { ...query, reachableOnly: true })),
    ...(verifyChain ? { chain: await verifyAuditChain(ctx.db, ctx.studioId) } : {}),
  }),
});

export const getAuditEvent = defineAction({
  name: 'get_audit_event',
  kind: 'procedure',
  effect: 'query',
  domain: 'audit',
  summary: 'Read one audit event.',
  description:
    'One recorded change by its id, as the feeds list it. An event of a project you cannot reach is NOT_FOUND.',
  scope: 'audit:read',
  input: z.strictObject({ eventId: AuditEventId.describe('An event id from an audit feed.') }),
  output: AuditEvent,
  errors: ['NOT_FOUND'],
  example: { eventId: EX.eventId },
  handler: (ctx, input) => getReachableEvent(ctx, input.eventId),
});

export const listLineAuditEvents = defineAction({
  name: 'list_line_audit_events',
  kind: 'procedure',
  effect: 'query',
  domain: 'audit',
  summary: "One line's audit events, newest first.",
  description:
    'The audit feed narrowed to one line of a project: its creation (or duplication, or copy), each edit with the fields changed, status changes, moves, archival and restoration. The line must belong to the project.',
  intents: ['who changed the price of this piece', 'what happened to this item', 'history of a line'],
  scope: 'audit:read',
  input: z.strictObject({ projectId: ProjectId, lineId: LineId, sort: eventSort, ...pageQuery() }),
  output: page(AuditEvent),
  errors: ['NOT_FOUND'],
  example: { projectId: EX.projectId, lineId: EX.lineId },
  handler: (ctx, input) => listLineEvents(ctx, input),
});
