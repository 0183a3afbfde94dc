import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { setPropertyValue } from '../../src/domain/properties/values.js';
import { LINE } from '../../src/domain/schedule/entity.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { EXAMPLE } from '../projects/shapes.js';
import { Line } from '../schedule/records.js';
import { CustomPropertyId, LineId, ProjectId } from '../shared/refs.js';
import { EX } from './properties.js';
import { SentValue } from './records.js';

export const setCustomPropertyValue = defineAction({
  name: 'set_custom_property_value',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'properties',
  summary: "Set or clear a line's value for a custom property (null clears).",
  description:
    "Sets the line's value for one of its project's custom properties, checked against the property's kind (get_custom_property says the kind and the options), with the line's expectedVersion; null clears it. Returns the line, whose properties list shows the value, at its new version. The same value again changes nothing. Archived lines and properties do not change (ARCHIVED). For many lines at once (or values together with a line's other fields, in one version), bulk_update_schedule_lines takes the same values in each patch's properties.",
  intents: [
    'fill in a custom column for a piece',
    'set our own field on an item',
    'clear a custom value',
    'give one chair its fire rating',
  ],
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
