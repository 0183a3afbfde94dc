import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { Id, page } from '../shared/values.js';
import { pageQuery } from '../shared/queries.js';
import { AuditEvent } from '../shared/records.js';
import { listEvents } from '../../src/domain/audit/events.js';

export const listAuditEvents = defineAction({
  name: 'list_audit_events',
  kind: 'resource',
  effect: 'query',
  domain: 'audit',
  summary: "Read a project's audit feed, newest first.",
  description:
    'Every change to the project, its sections and lines: who, which action, what changed and when. Read-only; filter by target record or action name.',
  scope: 'audit:read',
  input: z.strictObject({
    projectId: Id,
    targetId: Id.optional().describe('Only events about this record.'),
    action: z.string().max(80).optional().describe('Only events of this action, e.g. update_line.'),
    ...pageQuery,
  }),
  output: page(AuditEvent),
  errors: ['NOT_FOUND'],
  http: { method: 'GET', path: '/projects/{projectId}/audit', filters: ['targetId', 'action'] },
  example: { projectId: '0000000000000000000000000a', action: 'update_line', limit: 50 },
  handler: (ctx, input) => listEvents(ctx, input),
});
