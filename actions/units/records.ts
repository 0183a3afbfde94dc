import { UNIT_RECORD } from '../../src/domain/units/record.js';

/** A unit as the API answers it (declared once, in src/domain/units/record.ts). */
export const Unit = UNIT_RECORD.output;
