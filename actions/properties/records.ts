import { z } from 'zod';
import { PROPERTY_KINDS } from '../../db/vocabulary.js';
import { Id, named, Timestamp } from '../../src/core/values.js';

export const PropertyKind = z
  .enum(PROPERTY_KINDS)
  .describe(
    'What each line holds: text, long_text, number (scale-4 string), money (scale-4 string in the project currency), date (YYYY-MM-DD), yes_no, single_choice or multiple_choice (among the options), url. Fixed at creation.',
  );
named(PropertyKind, 'PropertyKind');

export const PropertyName = z.string().trim().min(1).max(100).describe('The column heading, e.g. "Fire rating".');
export const OptionLabel = z.string().trim().min(1).max(100).describe('As the choice reads, e.g. "Class 1".');

export const CustomProperty = z
  .strictObject({
    id: Id,
    projectId: Id,
    name: z.string(),
    kind: PropertyKind,
    clientVisible: z.boolean().describe('Shown to the client in the client document when true.'),
    position: z.int().min(1).describe("1-based place among the project's properties."),
    options: z
      .array(z.strictObject({ id: Id, label: z.string() }))
      .describe('Choice properties: the active options in order. Empty for other kinds.'),
    version: z.int().min(1),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archived_at: Timestamp.nullable().describe('Set when archived; properties are never deleted.'),
  })
  .describe("A custom property: one of a project's own schedule columns, with a value on each line.");
named(CustomProperty, 'CustomProperty');

export const PropertyOption = z
  .strictObject({
    id: Id,
    propertyId: Id,
    label: z.string(),
    position: z.int().min(1),
    version: z.int().min(1),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archived_at: Timestamp.nullable().describe('Set when archived; lines that chose it keep the choice.'),
  })
  .describe('One choice of a single_choice or multiple_choice custom property.');
named(PropertyOption, 'PropertyOption');
