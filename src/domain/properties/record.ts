import { z } from 'zod';
import { PROPERTY_KINDS } from '../../../db/vocabulary.js';
import { Id, named } from '../../core/values.js';
import { asFlag, defineRecord, field, type TableOf } from '../kit/record.js';

export const PropertyKind = z
  .enum(PROPERTY_KINDS)
  .describe(
    'What each line holds: text, long_text, number (scale-4 string), money (scale-4 string in the project currency), date (YYYY-MM-DD), yes_no, single_choice or multiple_choice (among the options), url. Fixed at creation.',
  );
named(PropertyKind, 'PropertyKind');

export const OptionLabel = z.string().trim().min(1).max(100).describe('As the choice reads, e.g. "Class 1".');

/** An option of a choice property. Its property and position are the server's: the path names one, order the other. */
export const PROPERTY_OPTION_RECORD = defineRecord({
  name: 'PropertyOption',
  description: 'One choice of a single_choice or multiple_choice custom property.',
  table: 'custom_property_options',
  owner: 'project',
  archivable: true,
  archivedMeans: 'Set when archived; lines that chose it keep the choice.',
  fields: {
    propertyId: field(Id),
    label: field(OptionLabel, { write: 'always', required: true }),
    position: field(z.int().min(1)),
  },
});

export type CustomPropertyOptionRow = TableOf<typeof PROPERTY_OPTION_RECORD>;

/**
 * A custom property: one of a project's own schedule columns. It shows its project; its kind is chosen once; its
 * position is the server's (last on create, then reorder_custom_properties). A choice property shows its options.
 */
export const CUSTOM_PROPERTY_RECORD = defineRecord({
  name: 'CustomProperty',
  description: "A custom property: one of a project's own schedule columns, with a value on each line.",
  table: 'custom_properties',
  owner: 'project',
  archivable: true,
  fields: {
    projectId: field(Id, { owner: true }),
    name: field(z.string().trim().min(1).max(100).describe('The column heading, e.g. "Fire rating".'), {
      write: 'always',
      required: true,
    }),
    kind: field(PropertyKind, { write: 'create', required: true }),
    clientVisible: field(z.boolean().describe('Shown to the client in the client document when true; default false.'), {
      write: 'always',
      default: false,
      codec: asFlag,
    }),
    position: field(z.int().min(1).describe("1-based place among the project's properties.")),
  },
  computed: {
    options: z
      .array(z.strictObject({ id: Id, label: OptionLabel }))
      .describe('Choice properties: the active options in order. Empty for other kinds.'),
  },
});

export type CustomPropertyRow = TableOf<typeof CUSTOM_PROPERTY_RECORD>;

/** A line's value for a custom property, as canonical JSON of its API form. See 013_line_property_values.ts. */
export interface LinePropertyValueRow {
  line_id: string;
  property_id: string;
  project_id: string;
  value: string;
  updated_at: string;
}

declare module '../../../db/schema.js' {
  interface Database {
    line_property_values: LinePropertyValueRow;
    custom_properties: CustomPropertyRow;
    custom_property_options: CustomPropertyOptionRow;
  }
}
