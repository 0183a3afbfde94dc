import { OPERATION_RECORD } from '../../src/jobs/record.js';

export { OperationStatus } from '../../src/jobs/record.js';

/** An operation as the API answers it (declared once, in src/jobs/record.ts). */
export const Operation = OPERATION_RECORD.output;
