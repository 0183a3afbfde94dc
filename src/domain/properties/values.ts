import type { LineRow } from '../../../db/schema.js';
import type { CustomPropertyRow } from './record.js';
import type { ActionContext } from '../../core/context.js';
import { canonicalJson } from '../../core/canonical-json.js';
import { ServiceError } from '../../core/errors.js';
import { isAmount4, MAX_PRICE4 } from '../../core/money.js';
import { assertActive, loadLine, presentationFor } from '../schedule/lines.js';
import { presentLine, type PresentedLine } from '../schedule/line-record.js';
import { shownValue } from '../schedule/line-values.js';
import { bumpLineVersion } from '../schedule/line-version.js';
import { loadProperty } from './properties.js';

/** A value as callers send it; which shape fits depends on the property's kind (see `storedValue`). */
export type SentValue = string | boolean | string[] | { amount4: string };

const TEXT_LIMIT: Record<string, number> = { text: 500, long_text: 20_000, url: 2000 };

const refuse = (message: string, detail: string): never => {
  throw new ServiceError('VALIDATION_FAILED', message, { errors: [{ path: 'value', message: detail }] });
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
async function storedValue(ctx: ActionContext, property: CustomPropertyRow, value: SentValue): Promise<string> {
  const { kind, name } = property;
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
 * Sets (or, with null, clears) a line's value for a property. The line gains a version and the change is audited on
 * the line in API terms; the same value again changes nothing.
 */
export async function setPropertyValue(ctx: ActionContext, input: SetValueInput): Promise<PresentedLine> {
  const line = await loadLine(ctx, input.projectId, input.lineId);
  assertActive(line);
  const property = await activeProperty(ctx, input.projectId, input.propertyId);
  const stored = input.value === null ? null : await storedValue(ctx, property, input.value);
  const p = await presentationFor(ctx, input.projectId);
  const written = await writeValue(ctx, input.projectId, line, property, stored);
  if (!written.changed) ctx.unchanged();
  await p.know([written.line]);
  return presentLine(written.line, p);
}

export interface SetValueOnLinesInput {
  projectId: string;
  propertyId: string;
  value: SentValue | null;
  lines: ReadonlyArray<{ lineId: string; expectedVersion: number }>;
}

/**
 * One value for one property on several lines, all or nothing: every line is read and its version checked before any
 * is written (a line changed since it was read: VERSION_CONFLICT naming each one; archived: ARCHIVED). Each line that
 * changes gains a version and an audit event of its own, as when set one at a time.
 */
export async function setPropertyValueOnLines(
  ctx: ActionContext,
  input: SetValueOnLinesInput,
): Promise<{ lines: PresentedLine[] }> {
  const ids = input.lines.map((l) => l.lineId);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice)
    throw new ServiceError('VALIDATION_FAILED', `Line ${twice} is named twice; name each line once.`, {
      errors: [{ path: 'lines', message: `${twice} appears more than once.` }],
    });
  const property = await activeProperty(ctx, input.projectId, input.propertyId);
  const stored = input.value === null ? null : await storedValue(ctx, property, input.value);
  const rows = [];
  for (const sent of input.lines) rows.push({ row: await loadLine(ctx, input.projectId, sent.lineId), sent });
  const stale = rows.filter(({ row, sent }) => row.version !== sent.expectedVersion);
  if (stale.length) {
    const first = stale[0]!.row;
    throw new ServiceError(
      'VERSION_CONFLICT',
      `Line ${first.id} (${first.code ?? first.heading}) has changed since you read it (it is at version ${first.version})${stale.length > 1 ? `, and ${stale.length - 1} more` : ''}; nothing was set. Read the lines again (list_lines with fields version) and send their versions.`,
      {
        errors: stale.map(({ row, sent }) => ({
          path: `lines/${input.lines.indexOf(sent)}/expectedVersion`,
          message: `Line ${row.id} is at version ${row.version}, not ${sent.expectedVersion}.`,
        })),
        extra: { lineId: first.id, currentVersion: first.version },
      },
    );
  }
  for (const { row } of rows) assertActive(row);
  const p = await presentationFor(ctx, input.projectId);
  const written = [];
  for (const { row } of rows) written.push(await writeValue(ctx, input.projectId, row, property, stored));
  if (!written.some((w) => w.changed)) ctx.unchanged();
  await p.know(written.map((w) => w.line));
  return { lines: written.map((w) => presentLine(w.line, p)) };
}

async function activeProperty(ctx: ActionContext, projectId: string, propertyId: string) {
  const property = await loadProperty(ctx, projectId, propertyId);
  if (property.archived_at) {
    throw new ServiceError('ARCHIVED', `${property.name} is archived, so line values for it no longer change.`);
  }
  return property;
}

/** Writes one line's value (nothing when it already holds it), bumping the line's version and auditing the change. */
async function writeValue<L extends LineRow>(
  ctx: ActionContext,
  projectId: string,
  line: L,
  property: CustomPropertyRow,
  stored: string | null,
): Promise<{ line: L; changed: boolean }> {
  const current = await ctx.db
    .selectFrom('line_property_values')
    .select('value')
    .where('line_id', '=', line.id)
    .where('property_id', '=', property.id)
    .executeTakeFirst();
  if ((current?.value ?? null) === stored) return { line, changed: false };
  if (stored === null) {
    await ctx.db
      .deleteFrom('line_property_values')
      .where('line_id', '=', line.id)
      .where('property_id', '=', property.id)
      .execute();
  } else {
    await ctx.db
      .insertInto('line_property_values')
      .values({ line_id: line.id, property_id: property.id, project_id: projectId, value: stored, updated_at: ctx.now })
      .onConflict((oc) => oc.columns(['line_id', 'property_id']).doUpdateSet({ value: stored, updated_at: ctx.now }))
      .execute();
  }
  await bumpLineVersion(ctx, line);
  const currency = (await presentationFor(ctx, projectId)).currency;
  const shown = (s: string | null) => (s === null ? null : shownValue(property.kind, s, currency));
  ctx.audit({
    targetKind: 'line',
    targetId: line.id,
    projectId,
    summary: `${stored === null ? 'Cleared' : 'Set'} ${property.name} on line ${line.code ?? line.heading}`,
    changes: { [`property:${property.name}`]: { from: shown(current?.value ?? null), to: shown(stored) } },
  });
  return { line: { ...line, version: line.version + 1, updated_at: ctx.now }, changed: true };
}
