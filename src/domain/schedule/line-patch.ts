import type { LineFieldsInput, LineRow } from './record.js';
import type { ActionContext } from '../../core/context.js';
import { type SentValues, writeLineValues } from '../properties/values.js';
import type { PresentedLine } from './line-record.js';
import { applyPatch, assertActive } from './lines.js';

/** A line's merge patch as bulk_update_schedule_lines takes it: fields and custom property values. */
export interface LinePatchInput extends LineFieldsInput {
  properties?: SentValues;
}

/**
 * Applies a patch to a loaded line: its custom property values first (checked as set_custom_property_value checks
 * them, refusals naming `<at>.properties.<propertyId>`), then its fields, so a line whose fields and values both change
 * moves one version on, with one audit event naming every change.
 */
export async function patchLine(
  ctx: ActionContext,
  before: LineRow,
  patch: LinePatchInput,
  at: string,
): Promise<PresentedLine> {
  const { properties, ...fields } = patch;
  assertActive(before);
  const beside = properties
    ? await writeLineValues(ctx, before, properties, (propertyId) => `${at}.properties.${propertyId}`)
    : undefined;
  return applyPatch(ctx, before, fields, beside);
}
