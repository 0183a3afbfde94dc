import type { CustomPropertyRow } from './record.js';
import type { ActionContext } from '../../core/context.js';
import { canonicalJson } from '../../core/canonical-json.js';
import { ServiceError } from '../../core/errors.js';
import { isAmount4, MAX_PRICE4 } from '../../core/money.js';
import { applyPatch, assertActive, type ChangesBeside, loadLine, presentationFor } from '../schedule/lines.js';
import type { PresentedLine } from '../schedule/line-record.js';
import { shownValue } from '../schedule/line-values.js';
import { loadProperty } from './properties.js';

/** A value as callers send it; which shape fits depends on the property's kind (see `storedValue`). */
export type SentValue = string | boolean | string[] | { amount4: string };

const TEXT_LIMIT: Record<string, number> = { text: 500, long_text: 20_000, url: 2000 };

/** Refuses a value, naming where it was sent (`value`, or `lines.3.patch.properties.<id>` in a bulk update). */
const refuser =
  (path: string) =>
  (message: string, detail: string): never => {
    throw new ServiceError('VALIDATION_FAILED', message, { errors: [{ path, message: detail }] });
  };

/** A real calendar date written YYYY-MM-DD (no 2026-02-30). */
function isCalendarDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/**
 * The value checked against the property's kind, as it is stored: canonical JSON of its API form. Choices must name
 * active options of this property; amounts are scale-4 strings within the price bound.
 */
async function storedValue(
  ctx: ActionContext,
  property: CustomPropertyRow,
  value: SentValue,
  path: string,
): Promise<string> {
  const { kind, name } = property;
  const refuse = refuser(path);
  const expect = (shape: string) => refuse(`${name} is a ${kind} property: send ${shape}.`, `Expected ${shape}.`);
  switch (kind) {
    case 'text':
    case 'long_text':
    case 'url': {
      if (typeof value !== 'string') return expect('a string');
      const text = (value as string).trim();
      if (!text) refuse(`An empty ${kind} is no value; send null to clear it.`, 'Empty.');
      if (text.length > TEXT_LIMIT[kind]!) refuse(`${name} takes at most ${TEXT_LIMIT[kind]} characters.`, 'Too long.');
      if (kind === 'url' && !(/^https?:\/\/\S+$/i.test(text) && URL.canParse(text)))
        refuse(`${name} takes a web address starting http:// or https://.`, 'Not a web address.');
      return canonicalJson(text);
    }
    case 'date':
      if (typeof value !== 'string' || !isCalendarDate(value)) return expect('a date as YYYY-MM-DD, e.g. "2026-11-23"');
      return canonicalJson(value);
    case 'yes_no':
      if (typeof value !== 'boolean') return expect('true or false');
      return canonicalJson(value);
    case 'number':
    case 'money': {
      const amount4 = typeof value === 'object' && !Array.isArray(value) ? value.amount4 : undefined;
      if (typeof amount4 !== 'string' || !isAmount4(amount4)) {
        return expect('{ amount4 }, a scale-4 integer string ("125000" = 12.5)');
      }
      if (BigInt(amount4 as string) > MAX_PRICE4 || BigInt(amount4 as string) < -MAX_PRICE4)
        refuse(`${name} is at most ${MAX_PRICE4} (scale 4) either way.`, 'Out of range.');
      return canonicalJson({ amount4: BigInt(amount4 as string).toString() });
    }
    case 'single_choice':
    case 'multiple_choice': {
      const ids =
        kind === 'single_choice' ? (typeof value === 'string' ? [value] : null) : Array.isArray(value) ? value : null;
      if (!ids) return expect(kind === 'single_choice' ? 'one option id' : 'a list of option ids');
      if (new Set(ids).size !== ids!.length) refuse('An option is named more than once; name each once.', 'Repeated.');
      if (!ids!.length) refuse(`Send at least one option, or null to clear ${name}.`, 'Empty.');
      const found = await ctx.db
        .selectFrom('custom_property_options')
        .select(['id', 'archived_at'])
        .where('property_id', '=', property.id)
        .where('id', 'in', ids!)
        .execute();
      const active = new Set(found.filter((o) => o.archived_at === null).map((o) => o.id));
      const bad = ids!.filter((id) => !active.has(id));
      if (bad.length) {
        refuse(
          `${bad.join(', ')} is not an active option of ${name}; get_custom_property lists its options.`,
          'Unknown or archived option.',
        );
      }
      return canonicalJson(kind === 'single_choice' ? ids![0] : ids);
    }
  }
  return expect('a value');
}

export interface SetValueInput {
  projectId: string;
  lineId: string;
  propertyId: string;
  value: SentValue | null;
}

/**
 * Sets (or, with null, clears) a line's value for a property: the line's patch with that one value, so the line gains
 * a version and the change is audited on the line in API terms; the same value again changes nothing.
 */
export async function setPropertyValue(ctx: ActionContext, input: SetValueInput): Promise<PresentedLine> {
  const line = await loadLine(ctx, input.projectId, input.lineId);
  assertActive(line);
  const written = await writeLineValues(ctx, line, { [input.propertyId]: input.value }, () => 'value');
  return applyPatch(ctx, line, {}, written);
}

/** Custom property values as a line's patch carries them: by property id, null clearing one. */
export type SentValues = Readonly<Record<string, SentValue | null>>;

/**
 * Checks the values sent for one line against their properties (each active and of the line's project: NOT_FOUND,
 * ARCHIVED, VALIDATION_FAILED at `pathOf(propertyId)` otherwise), then writes those that differ from what the line
 * holds. The line itself is left alone: its caller moves it one version on for all of them and audits the changes
 * returned (applyPatch), so fields and values changed together are one version and one event.
 */
export async function writeLineValues(
  ctx: ActionContext,
  line: { id: string; project_id: string },
  sent: SentValues,
  pathOf: (propertyId: string) => string,
): Promise<ChangesBeside> {
  const checked: Checked[] = [];
  for (const [propertyId, value] of Object.entries(sent))
    checked.push(await checkedValue(ctx, line.project_id, propertyId, value, pathOf(propertyId)));
  const { currency } = await presentationFor(ctx, line.project_id);
  const changes: ChangesBeside = {};
  for (const { property, stored } of checked) {
    const from = await writeValue(ctx, line, property.id, stored);
    if (from === stored) continue;
    const shown = (s: string | null) => (s === null ? null : shownValue(property.kind, s, currency));
    changes[`property:${property.name}`] = { from: shown(from), to: shown(stored) };
  }
  return changes;
}

interface Checked {
  property: CustomPropertyRow;
  stored: string | null;
}

/**
 * Values checked in this request, by project, property and value sent: a bulk update setting one value on 500 lines
 * reads the property (and its options) once. Per request, so nothing outlives its transaction; only values that
 * passed are kept (a refusal ends the request).
 */
const checkedInRequest = new WeakMap<object, Map<string, Checked>>();

async function checkedValue(
  ctx: ActionContext,
  projectId: string,
  propertyId: string,
  value: SentValue | null,
  path: string,
): Promise<Checked> {
  let seen = checkedInRequest.get(ctx);
  if (!seen) checkedInRequest.set(ctx, (seen = new Map()));
  const key = canonicalJson([projectId, propertyId, value]);
  let checked = seen.get(key);
  if (!checked) {
    const property = await activeProperty(ctx, projectId, propertyId, path);
    checked = { property, stored: value === null ? null : await storedValue(ctx, property, value, path) };
    seen.set(key, checked);
  }
  return checked;
}

/** The property a value is sent for, active and of the line's project; a refusal names where it was sent. */
async function activeProperty(ctx: ActionContext, projectId: string, propertyId: string, path: string) {
  const property = await loadProperty(ctx, projectId, propertyId).catch((err: unknown) => {
    if (!(err instanceof ServiceError)) throw err;
    throw new ServiceError(err.code, err.detail, {
      errors: [{ path, message: 'Not a custom property of this project.' }],
    });
  });
  if (property.archived_at) {
    throw new ServiceError('ARCHIVED', `${property.name} is archived, so line values for it no longer change.`, {
      errors: [{ path, message: 'Archived property.' }],
    });
  }
  return property;
}

/** Writes one line's stored value (null removes it) unless it already holds it; answers the value it held. */
async function writeValue(
  ctx: ActionContext,
  line: { id: string; project_id: string },
  propertyId: string,
  stored: string | null,
): Promise<string | null> {
  const current = await ctx.db
    .selectFrom('line_property_values')
    .select('value')
    .where('line_id', '=', line.id)
    .where('property_id', '=', propertyId)
    .executeTakeFirst();
  const from = current?.value ?? null;
  if (from === stored) return from;
  if (stored === null) {
    await ctx.db
      .deleteFrom('line_property_values')
      .where('line_id', '=', line.id)
      .where('property_id', '=', propertyId)
      .execute();
  } else {
    await ctx.db
      .insertInto('line_property_values')
      .values({
        line_id: line.id,
        property_id: propertyId,
        project_id: line.project_id,
        value: stored,
        updated_at: ctx.now,
      })
      .onConflict((oc) => oc.columns(['line_id', 'property_id']).doUpdateSet({ value: stored, updated_at: ctx.now }))
      .execute();
  }
  return from;
}
