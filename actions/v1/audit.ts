import { bindResource } from '../../src/core/define-action.js';
import { listProjectAuditEvents } from '../audit/events.js';

export const listAuditEvents = bindResource(listProjectAuditEvents, {
  name: 'list_audit_events',
  description:
    'Every change to the project, its sections and lines: who, which action, what changed and when. Read-only; filter by target record, action name or member.',
  http: { method: 'GET', path: '/projects/{projectId}/audit', filters: ['targetId', 'action', 'memberId'] },
  example: { projectId: '0000000000000000000000000a', action: 'update_line', limit: 50 },
});
