import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { setPropertyValue, setPropertyValueOnLines } from '../../src/domain/properties/values.js';
import { LINE } from '../../src/domain/schedule/entity.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { EXAMPLE } from '../projects/shapes.js';
import { Line } from '../schedule/records.js';
import { CustomPropertyId, LineId, ProjectId } from '../shared/refs.js';
import { EX } from './properties.js';

const SentValue = z
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

export const setCustomPropertyValue = defineAction({
  name: 'set_custom_property_value',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'properties',
  summary: "Set or clear a line's value for a custom property (null clears).",
  description:
    "Sets the line's value for one of its project's custom properties, checked against the property's kind (get_custom_property says the kind and the options), with the line's expectedVersion; null clears it. Returns the line, whose properties list shows the value, at its new version. The same value again changes nothing. Archived lines and properties do not change (ARCHIVED).",
  intents: ['fill in a custom column for a piece', 'set our own field on an item', 'clear a custom value'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: { entity: LINE, idField: 'lineId' },
  input: z.strictObject({ projectId: ProjectId, lineId: LineId, propertyId: CustomPropertyId, value: SentValue }),
  output: Line,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    lineId: '0000000000000000000000000b',
    propertyId: EX.propertyId,
    expectedVersion: 4,
    value: EX.optionId,
  },
  handler: (ctx, input) => setPropertyValue(ctx, input),
});

/** As many lines as bulk_update_schedule_lines takes at once. */
const MANY_LINES_MAX = 500;

export const setCustomPropertyOnLines = defineAction({
  name: 'set_custom_property_on_lines',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'properties',
  summary: 'Set one custom property to one value on several lines at once, all or nothing (null clears).',
  description: `Sets the same value of one custom property on up to ${MANY_LINES_MAX} lines of the project in one call, each line with the version of your last read (list_lines with fields ["version"] reads them all at once). Every version is checked before anything is written: a line changed since (VERSION_CONFLICT, naming each such line in errors[]) or archived (ARCHIVED) leaves every line as it was. The value is checked against the property's kind as set_custom_property_value checks it; null clears it. Returns the lines at their new versions, in the order sent; a line that already held the value is returned unchanged. For one line, set_custom_property_value does the same.`,
  intents: [
    'give all these pieces the same value in our own column',
    'fill in a custom column for several items at once',
    'apply one custom value to many lines',
  ],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  input: z.strictObject({
    projectId: ProjectId,
    propertyId: CustomPropertyId,
    value: SentValue,
    lines: z
      .array(
        z.strictObject({
          lineId: LineId,
          expectedVersion: z.int().min(1).describe("The line's version from your last read."),
        }),
      )
      .min(1)
      .max(MANY_LINES_MAX)
      .describe('The lines to set it on, each once, with its version.'),
  }),
  output: z.strictObject({ lines: z.array(Line).describe('The lines, in the order sent.') }),
  errors: ['NOT_FOUND', 'VERSION_CONFLICT', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    propertyId: EX.propertyId,
    value: EX.optionId,
    lines: [
      { lineId: '0000000000000000000000000b', expectedVersion: 3 },
      { lineId: '0000000000000000000000000d', expectedVersion: 1 },
    ],
  },
  handler: (ctx, input) => setPropertyValueOnLines(ctx, input),
});
