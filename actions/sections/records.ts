import { SECTION_RECORD } from '../../src/domain/sections/record.js';

/** A section as every surface answers it: declared once, in its record. */
export const Section = SECTION_RECORD.output;
