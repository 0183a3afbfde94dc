import { CUSTOM_PROPERTY_RECORD, PROPERTY_OPTION_RECORD } from '../../src/domain/properties/record.js';

export { OptionLabel } from '../../src/domain/properties/record.js';

/** A custom property as the API answers it (declared once, in src/domain/properties/record.ts). */
export const CustomProperty = CUSTOM_PROPERTY_RECORD.output;

/** An option of a choice property as the API answers it (declared once, in src/domain/properties/record.ts). */
export const PropertyOption = PROPERTY_OPTION_RECORD.output;
