import { z } from 'zod';
import { defineRecord, field, type TableOf } from '../kit/record.js';

/** A unit of quantity: studio-level reference data a line's quantity names. Both fields are required to create one. */
export const UNIT_RECORD = defineRecord({
  name: 'Unit',
  description: "A unit of quantity: studio-level reference data a line's quantity names.",
  table: 'units',
  owner: 'studio',
  archivable: true,
  fields: {
    name: field(z.string().trim().min(1).max(100).describe('In words, e.g. "square metre".'), {
      write: 'always',
      required: true,
    }),
    symbol: field(z.string().trim().min(1).max(20).describe('As schedules print it, e.g. "m²".'), {
      write: 'always',
      required: true,
    }),
  },
  computed: {
    isDefault: z.boolean().describe('The studio default: lines that name no unit take it (update_studio_settings).'),
    lineCount: z.int().min(0).describe('Active schedule lines measured in this unit, in any project.'),
  },
});

export type UnitRow = TableOf<typeof UNIT_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    units: UnitRow;
  }
}
