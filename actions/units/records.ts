import { z } from 'zod';
import { Id, named, Timestamp } from '../../src/core/values.js';

/** What a studio keeps about a unit of quantity; both fields are required to create one. */
export const UnitFields = z.strictObject({
  name: z.string().trim().min(1).max(100).describe('In words, e.g. "square metre".'),
  symbol: z.string().trim().min(1).max(20).describe('As schedules print it, e.g. "m²".'),
});

export const Unit = z
  .strictObject({
    id: Id,
    name: z.string(),
    symbol: z.string(),
    isDefault: z.boolean().describe('The studio default: lines that name no unit take it (update_studio_settings).'),
    lineCount: z.int().min(0).describe('Active schedule lines measured in this unit, in any project.'),
    version: z.int().min(1),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archived_at: Timestamp.nullable().describe('Set when archived; units are never deleted.'),
  })
  .describe("A unit of quantity: studio-level reference data a line's quantity names.");
named(Unit, 'Unit');
