import { z } from 'zod';
import { Id } from '../../core/values.js';
import { defineRecord, field, type TableOf } from '../kit/record.js';

export const SectionTitle = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe('The section\'s name, usually a room, e.g. "Living Room".');

/**
 * A section of a project's schedule, usually a room. Its project is the path's; its position is the server's (last on
 * create, then reorder_schedule_sections); its line count is worked out on read.
 */
export const SECTION_RECORD = defineRecord({
  name: 'Section',
  description: 'A grouping of lines, usually a room.',
  table: 'sections',
  owner: 'project',
  archivable: true,
  archivedMeans: 'Set when archived (a section holding active lines cannot be); sections are never deleted.',
  fields: {
    projectId: field(Id, { owner: true }),
    title: field(SectionTitle, { write: 'always', required: true }),
    position: field(z.int().min(1)),
  },
  computed: { lineCount: z.int().describe('Active lines in the section.') },
});

export type SectionRow = TableOf<typeof SECTION_RECORD>;
export type PresentedSection = ReturnType<typeof SECTION_RECORD.present>;

declare module '../../../db/schema.js' {
  interface Database {
    sections: SectionRow;
  }
}
