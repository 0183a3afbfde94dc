import { z } from 'zod';
import { LINE_LISTING } from '../../src/domain/schedule/lines.js';
import { LineId, ProjectId } from '../shared/refs.js';
import { LinePatchFields } from './records.js';
import { SentValue } from '../properties/records.js';

/** A line named inside its project: a line is never addressable outside it (a foreign pair is NOT_FOUND). */
export const inLine = {
  projectId: ProjectId,
  lineId: LineId.describe("The line's id (items in paths)."),
};

/**
 * A line's custom property values in a patch, by property id. Keys are not refs: the property is found in the line's
 * own project when the patch is applied (an id from elsewhere is NOT_FOUND there, naming where it was sent).
 */
const PatchValues = z
  .record(z.string().min(1).max(64), SentValue)
  .refine((v) => Object.keys(v).length > 0, { message: 'Name at least one property, or leave properties out.' })
  .refine((v) => Object.keys(v).length <= 100, { message: 'At most 100 properties in one patch.' })
  .meta({ minProperties: 1, maxProperties: 100 })
  .describe(
    "Custom property values by property id (list_custom_properties): each checked against its property's kind as set_custom_property_value checks it; null clears one. Other properties keep their values.",
  );

const PATCH_RULE =
  'Only the fields to change, at least one. null clears a nullable field; clientPrice: null returns to the derived price. tradePrice and markup need pricing:write.';

/** A merge patch: only the fields to change, at least one. */
const patchOf = <S extends z.ZodObject>(fields: S, rule: string) =>
  fields
    .refine((p) => Object.values(p).some((v) => v !== undefined), { message: 'Give at least one field to change.' })
    // The refinement, as a published JSON Schema says it (every field sent in JSON is defined).
    .meta({ minProperties: 1 })
    .describe(rule);

/** A merge patch of line fields (update_schedule_line). */
export const LinePatch = patchOf(LinePatchFields, PATCH_RULE);

/**
 * A bulk update's patch: the same fields and custom property values, applied in one version of the line. Only the
 * bulk form takes values: update_schedule_line is an advertised MCP tool, and tools/list has no room for them (one
 * line's value has set_custom_property_value).
 */
export const LinePatchWithValues = patchOf(
  LinePatchFields.extend({ properties: PatchValues.optional() }),
  `${PATCH_RULE} properties sets custom property values in the same version of the line.`,
);

/** Fake ids for examples: the shape the API mints, no meaning. */
export const EXAMPLE = {
  projectId: '0000000000000000000000000a',
  lineId: '0000000000000000000000000b',
  sectionId: '0000000000000000000000000c',
  targetProjectId: '0000000000000000000000000d',
  targetSectionId: '0000000000000000000000000e',
  otherLineId: '0000000000000000000000000f',
} as const;

/** One project's schedule lines: filters, sort (none: document order) and paging (the schedule's own listing). */
export const LineListQuery = LINE_LISTING.input;
