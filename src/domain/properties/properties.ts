import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { PropertyKind } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { whereArchived } from '../kit/filters.js';
import { assertFullOrder } from '../kit/full-order.js';
import { namedSorts } from '../kit/keyset-page.js';
import { archivedFilter, defineListing, type ListingQuery, projectScope, textFilter } from '../kit/listing.js';
import { containsText } from '../kit/text-search.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { inProject } from '../kit/in-project.js';
import type { CreateFields, PatchFields } from '../kit/record.js';
import { CUSTOM_PROPERTY_RECORD, type CustomPropertyRow, PROPERTY_OPTION_RECORD } from './record.js';

/** Kinds whose values are chosen among the property's options. */
export const CHOICE_KINDS: ReadonlySet<PropertyKind> = new Set(['single_choice', 'multiple_choice']);

export interface ShownOption {
  id: string;
  label: string;
}

/** A property as the API shows it: for a choice property, its active options in order. */
export const presentProperty = (row: CustomPropertyRow, options: readonly ShownOption[]) =>
  CUSTOM_PROPERTY_RECORD.present(row, { options: CHOICE_KINDS.has(row.kind) ? [...options] : [] });
export type PresentedProperty = ReturnType<typeof presentProperty>;

/** The active options of these properties, in order, in one query. */
async function optionsOf(db: Kysely<Database>, properties: readonly CustomPropertyRow[]) {
  const ids = properties.filter((p) => CHOICE_KINDS.has(p.kind)).map((p) => p.id);
  const byProperty = new Map<string, ShownOption[]>();
  if (!ids.length) return byProperty;
  const rows = await db
    .selectFrom('custom_property_options')
    .select(['id', 'property_id', 'label'])
    .where('property_id', 'in', ids)
    .where('archived_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const list = byProperty.get(r.property_id) ?? [];
    list.push({ id: r.id, label: r.label });
    byProperty.set(r.property_id, list);
  }
  return byProperty;
}

async function present(db: Kysely<Database>, rows: readonly CustomPropertyRow[]) {
  const options = await optionsOf(db, rows);
  return rows.map((r) => presentProperty(r, options.get(r.id) ?? []));
}

export const PROPERTY_SORTS = namedSorts(
  {
    position: { column: 'custom_properties.position' },
    name: { column: 'custom_properties.name' },
    createdAt: { column: 'custom_properties.created_at' },
  },
  { column: 'custom_properties.id' },
);

export const PROPERTY_LISTING = defineListing({
  filters: { ...projectScope, q: textFilter('the name', 100), archived: archivedFilter('properties') },
  sorts: PROPERTY_SORTS,
  defaultSort: 'position',
});

/** A project's properties in display order (or as `sort` says); archived ones only when asked. */
export async function listProperties(ctx: ActionContext, query: ListingQuery<typeof PROPERTY_LISTING>) {
  let qb = ctx.db.selectFrom('custom_properties').selectAll().where('project_id', '=', query.projectId);
  qb = whereArchived(qb, 'custom_properties.archived_at', query.archived);
  if (query.q) {
    const q = query.q;
    qb = qb.where((eb) => eb.or(containsText(['custom_properties.name'], q)));
  }
  const { rows, nextCursor } = await PROPERTY_LISTING.page(qb, query);
  return { items: await present(ctx.db, rows), nextCursor };
}

export async function loadProperty(ctx: Pick<ActionContext, 'db'>, projectId: string, propertyId: string) {
  const row = await inProject(ctx.db, 'custom_properties', projectId, propertyId);
  if (!row) throw new ServiceError('NOT_FOUND', `No custom property ${propertyId} exists in this project.`);
  return row;
}

export async function getProperty(ctx: ActionContext, projectId: string, propertyId: string) {
  const [shown] = await present(ctx.db, [await loadProperty(ctx, projectId, propertyId)]);
  return shown!;
}

/** Two active properties of a project never share a name, whatever its case: a column is found by its name. */
async function assertNameFree(ctx: ActionContext, projectId: string, name: string, exceptId?: string) {
  let qb = ctx.db
    .selectFrom('custom_properties')
    .select(['id', 'name'])
    .where('project_id', '=', projectId)
    .where('archived_at', 'is', null)
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()));
  if (exceptId) qb = qb.where('id', '!=', exceptId);
  const taken = await qb.executeTakeFirst();
  if (taken) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `The project already has the property ${taken.name} (id ${taken.id}); use it, or choose another name.`,
      { errors: [{ path: 'name', message: `Already used by the active property ${taken.id}.` }] },
    );
  }
}

/** Labels for a choice property's options: non-empty, and no two alike whatever their case. */
export function assertDistinctLabels(labels: readonly string[], path = 'options') {
  const seen = new Map<string, number>();
  for (const [i, label] of labels.entries()) {
    const key = label.toLowerCase();
    if (seen.has(key)) {
      throw new ServiceError('VALIDATION_FAILED', `The option "${label}" is given twice; give each option once.`, {
        errors: [{ path: `${path}.${i}`, message: `Repeats option ${seen.get(key)! + 1}.` }],
      });
    }
    seen.set(key, i);
  }
}

export type CreatePropertyInput = CreateFields<typeof CUSTOM_PROPERTY_RECORD.spec.fields> & {
  projectId: string;
  options?: readonly string[] | undefined;
};

/** A new property, last in the project's order; a choice property may bring its first options. */
export async function createProperty(ctx: ActionContext, input: CreatePropertyInput) {
  const choice = CHOICE_KINDS.has(input.kind);
  if (input.options?.length && !choice) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `A ${input.kind} property has no options; options belong to single_choice and multiple_choice properties.`,
      { errors: [{ path: 'options', message: `Not for kind ${input.kind}.` }] },
    );
  }
  await assertNameFree(ctx, input.projectId, input.name);
  assertDistinctLabels(input.options ?? []);
  const last = await ctx.db
    .selectFrom('custom_properties')
    .select((eb) => eb.fn.max('position').as('p'))
    .where('project_id', '=', input.projectId)
    .executeTakeFirst();
  const { projectId, options: labels = [], ...fields } = input;
  const made = () => ({ id: newId(), ownerId: projectId, now: ctx.now });
  const row = CUSTOM_PROPERTY_RECORD.newRow({ ...fields, position: Number(last?.p ?? 0) + 1 }, made());
  await ctx.db.insertInto('custom_properties').values(row).execute();
  const options = labels.map((label, i) =>
    PROPERTY_OPTION_RECORD.newRow({ label, propertyId: row.id, position: i + 1 }, made()),
  );
  if (options.length) await ctx.db.insertInto('custom_property_options').values(options).execute();
  ctx.audit({
    targetKind: 'custom_property',
    targetId: row.id,
    projectId: input.projectId,
    summary: `Created custom property ${row.name} (${row.kind})`,
    changes: { created: { from: null, to: { name: row.name, kind: row.kind, options: input.options ?? [] } } },
  });
  return presentProperty(
    row,
    options.map((o) => ({ id: o.id, label: o.label })),
  );
}

export type PropertyPatch = PatchFields<typeof CUSTOM_PROPERTY_RECORD.spec.fields>;

async function writeProperty(ctx: ActionContext, before: CustomPropertyRow, cols: object, verb: string) {
  const options = (await optionsOf(ctx.db, [before])).get(before.id) ?? [];
  return versionedUpdate(ctx, 'custom_properties', before, cols, {
    present: (row) => presentProperty(row, options),
    audit: (after) => ({
      targetKind: 'custom_property',
      projectId: before.project_id,
      summary: `${verb} custom property ${after.name}`,
    }),
  });
}

export async function updateProperty(ctx: ActionContext, projectId: string, propertyId: string, patch: PropertyPatch) {
  const before = await loadProperty(ctx, projectId, propertyId);
  if (before.archived_at) {
    throw new ServiceError('ARCHIVED', 'This custom property is archived; archived properties do not change.');
  }
  const cols = CUSTOM_PROPERTY_RECORD.patchColumns(patch);
  if (!Object.keys(cols).length) {
    throw new ServiceError('VALIDATION_FAILED', 'Give at least one field to change: name or clientVisible.', {
      errors: [{ path: '(input)', message: 'Nothing to change.' }],
    });
  }
  if (patch.name !== undefined) await assertNameFree(ctx, projectId, patch.name, propertyId);
  return writeProperty(ctx, before, cols, 'Updated');
}

/** Archives a property: its values stay on the lines (history) but no longer show; its name may be used again. */
export async function archiveProperty(ctx: ActionContext, projectId: string, propertyId: string) {
  const before = await loadProperty(ctx, projectId, propertyId);
  if (before.archived_at) throw new ServiceError('ALREADY_ARCHIVED', 'This custom property is already archived.');
  return writeProperty(ctx, before, { archived_at: ctx.now }, 'Archived');
}

/** Puts the project's active properties in the order given: every one of them, each once. */
export async function reorderProperties(ctx: ActionContext, projectId: string, propertyIds: readonly string[]) {
  const rows = await ctx.db
    .selectFrom('custom_properties')
    .select(['id', 'position'])
    .where('project_id', '=', projectId)
    .where('archived_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const active = rows.map((r) => r.id);
  const positionOf = new Map(rows.map((r) => [r.id, r.position]));
  assertFullOrder(
    propertyIds,
    active,
    'propertyIds',
    'custom property',
    'list_custom_properties gives the current list',
  );
  // Active properties take positions 1…n in the order given; only those whose position changes are written.
  const moved = propertyIds.filter((id, i) => positionOf.get(id) !== i + 1);
  if (!moved.length) ctx.unchanged();
  for (const [i, id] of propertyIds.entries()) {
    if (positionOf.get(id) === i + 1) continue;
    await ctx.db
      .updateTable('custom_properties')
      .set((eb) => ({ position: i + 1, updated_at: ctx.now, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }
  if (propertyIds.some((id, i) => active[i] !== id)) {
    ctx.audit({
      targetKind: 'project',
      targetId: projectId,
      projectId,
      summary: 'Reordered custom properties',
      changes: { propertyOrder: { from: active, to: [...propertyIds] } },
    });
  }
  return listProperties(ctx, { projectId, limit: 1000 });
}
