import { z } from 'zod';
import { Id, named, Timestamp } from '../../src/core/values.js';

export const Section = z
  .strictObject({
    id: Id,
    projectId: Id,
    title: z.string(),
    position: z.int().min(1),
    lineCount: z.int().describe('Active lines in the section.'),
    version: z.int().min(1),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archived_at: Timestamp.nullable(),
  })
  .describe('A grouping of lines, usually a room.');
named(Section, 'Section');
