import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { whereArchived } from '../kit/filters.js';
import { namedSorts } from '../kit/keyset-page.js';
import { archivedFilter, defineListing, type ListingQuery, projectScope } from '../kit/listing.js';
import { refTo } from '../../core/schema-marks.js';
import { Id } from '../../core/values.js';
import { CUSTOM_PROPERTY } from './entity.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { CHOICE_KINDS, loadProperty } from './properties.js';
import { type CustomPropertyOptionRow, PROPERTY_OPTION_RECORD } from './record.js';

export const presentOption = (row: CustomPropertyOptionRow) => PROPERTY_OPTION_RECORD.present(row, {});

export const OPTION_SORTS = namedSorts(
  {
    position: { column: 'custom_property_options.position' },
    label: { column: 'custom_property_options.label' },
  },
  { column: 'custom_property_options.id' },
);

export const OPTION_LISTING = defineListing({
  filters: { ...projectScope, propertyId: refTo(Id, CUSTOM_PROPERTY), archived: archivedFilter('options') },
  sorts: OPTION_SORTS,
  defaultSort: 'position',
});

/** A choice property's options in display order; archived ones only when asked. */
export async function listOptions(ctx: ActionContext, query: ListingQuery<typeof OPTION_LISTING>) {
  await loadProperty(ctx, query.projectId, query.propertyId);
  let qb = ctx.db.selectFrom('custom_property_options').selectAll().where('property_id', '=', query.propertyId);
  qb = whereArchived(qb, 'custom_property_options.archived_at', query.archived);
  const { rows, nextCursor } = await OPTION_LISTING.page(qb, query);
  return { items: rows.map(presentOption), nextCursor };
}

/** The option, if it belongs to that property: an option of another property does not exist for the request. */
async function loadOption(ctx: ActionContext, propertyId: string, optionId: string) {
  const row = await ctx.db
    .selectFrom('custom_property_options')
    .selectAll()
    .where('id', '=', optionId)
    .where('property_id', '=', propertyId)
    .executeTakeFirst();
  if (!row) throw new ServiceError('NOT_FOUND', `No option ${optionId} exists on this custom property.`);
  return row;
}

/** An active choice property, to take a new or changed option. */
async function choiceProperty(ctx: ActionContext, projectId: string, propertyId: string) {
  const property = await loadProperty(ctx, projectId, propertyId);
  if (!CHOICE_KINDS.has(property.kind)) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `${property.name} is a ${property.kind} property, which has no options; options belong to single_choice and multiple_choice properties.`,
      { errors: [{ path: 'propertyId', message: `Kind ${property.kind} has no options.` }] },
    );
  }
  if (property.archived_at) {
    throw new ServiceError('ARCHIVED', `${property.name} is archived; its options do not change.`);
  }
  return property;
}

/** Two active options of a property never share a label, whatever its case. */
async function assertLabelFree(ctx: ActionContext, propertyId: string, label: string, exceptId?: string) {
  let qb = ctx.db
    .selectFrom('custom_property_options')
    .select(['id', 'label'])
    .where('property_id', '=', propertyId)
    .where('archived_at', 'is', null)
    .where((eb) => eb(eb.fn('lower', ['label']), '=', label.toLowerCase()));
  if (exceptId) qb = qb.where('id', '!=', exceptId);
  const taken = await qb.executeTakeFirst();
  if (taken) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `The property already has the option ${taken.label} (id ${taken.id}); use it, or choose another label.`,
      { errors: [{ path: 'label', message: `Already used by the active option ${taken.id}.` }] },
    );
  }
}

export async function createOption(ctx: ActionContext, projectId: string, propertyId: string, label: string) {
  const property = await choiceProperty(ctx, projectId, propertyId);
  await assertLabelFree(ctx, propertyId, label);
  const last = await ctx.db
    .selectFrom('custom_property_options')
    .select((eb) => eb.fn.max('position').as('p'))
    .where('property_id', '=', propertyId)
    .executeTakeFirst();
  const row = PROPERTY_OPTION_RECORD.newRow(
    { label, propertyId, position: Number(last?.p ?? 0) + 1 },
    { id: newId(), ownerId: projectId, now: ctx.now },
  );
  await ctx.db.insertInto('custom_property_options').values(row).execute();
  ctx.audit({
    targetKind: 'custom_property_option',
    targetId: row.id,
    projectId,
    summary: `Added option ${label} to ${property.name}`,
    changes: { created: { from: null, to: label } },
  });
  return presentOption(row);
}

function writeOption(ctx: ActionContext, before: CustomPropertyOptionRow, cols: object, verb: string) {
  return versionedUpdate(ctx, 'custom_property_options', before, cols, {
    present: presentOption,
    audit: (after) => ({
      targetKind: 'custom_property_option',
      projectId: before.project_id,
      summary: `${verb} option ${after.label}`,
    }),
  });
}

/** A new label; lines that chose the option show it at once (a value names the option, it does not copy it). */
export async function updateOption(
  ctx: ActionContext,
  projectId: string,
  propertyId: string,
  optionId: string,
  label: string,
) {
  await choiceProperty(ctx, projectId, propertyId);
  const before = await loadOption(ctx, propertyId, optionId);
  if (before.archived_at)
    throw new ServiceError('ARCHIVED', 'This option is archived; archived options do not change.');
  await assertLabelFree(ctx, propertyId, label, optionId);
  return writeOption(ctx, before, PROPERTY_OPTION_RECORD.patchColumns({ label }), 'Renamed');
}

/** Archives an option: lines that chose it keep the choice (history); it is no longer offered. */
export async function archiveOption(ctx: ActionContext, projectId: string, propertyId: string, optionId: string) {
  await loadProperty(ctx, projectId, propertyId);
  const before = await loadOption(ctx, propertyId, optionId);
  if (before.archived_at) throw new ServiceError('ALREADY_ARCHIVED', 'This option is already archived.');
  return writeOption(ctx, before, { archived_at: ctx.now }, 'Archived');
}
