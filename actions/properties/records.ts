import { z } from 'zod';
import { CUSTOM_PROPERTY_RECORD, PROPERTY_OPTION_RECORD } from '../../src/domain/properties/record.js';

export { OptionLabel } from '../../src/domain/properties/record.js';

/** A custom property as the API answers it (declared once, in src/domain/properties/record.ts). */
export const CustomProperty = CUSTOM_PROPERTY_RECORD.output;

/** An option of a choice property as the API answers it (declared once, in src/domain/properties/record.ts). */
export const PropertyOption = PROPERTY_OPTION_RECORD.output;

/** A custom property value as callers send it (set_custom_property_value, and a line patch's properties). */
export const SentValue = z
  .union([
    z.string().max(20_000),
    z.boolean(),
    z.array(z.string().max(64)).max(100),
    z.strictObject({ amount4: z.string().max(64).describe('A scale-4 integer string: "125000" = 12.5.') }),
  ])
  .nullable()
  .describe(
    'By the property\'s kind: text, long_text, url: a string; date: "YYYY-MM-DD"; yes_no: true or false; number and money: { amount4 } (money in the project currency); single_choice: an option id; multiple_choice: a list of option ids. null clears the value.',
  );
