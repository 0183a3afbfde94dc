import { SPECIFICATION_RECORD } from '../../src/domain/specifications/record.js';

/** A specification as the API answers it (declared once, in src/domain/specifications/record.ts). */
export const Specification = SPECIFICATION_RECORD.output;

/** Fake ids for examples: the shape the API mints, no meaning. */
export const EX = {
  specificationId: '000000000000000000000000sp',
  projectId: '0000000000000000000000000a',
  lineId: '0000000000000000000000000b',
} as const;
