import { PROJECT_CHARGE_RECORD } from '../../src/domain/charges/record.js';

/** A project charge as the API answers it (declared once, in src/domain/charges/record.ts). */
export const ProjectCharge = PROJECT_CHARGE_RECORD.output;
