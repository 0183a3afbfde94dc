import { bindResource } from '../../src/core/define-action.js';
import { getOperationStatus, OPERATION_EXAMPLE } from '../operations/operations.js';

export const getOperation = bindResource(getOperationStatus, {
  name: 'get_operation',
  summary: 'Poll a long act started with 202: status, progress, then result or problem.',
  description:
    'Where a 202 Location points. While status is queued or running, Retry-After says when to look again; then succeeded carries the result, failed a problem with a stable code (stop polling and act on it), canceled neither. Only members whose role may do the act that started it can see it.',
  rename: { opId: 'operationId' },
  http: { method: 'GET', path: '/operations/{opId}', operation: true },
  example: { opId: OPERATION_EXAMPLE },
});
