import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { InterfaceTable } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { namedSorts, sortNames } from '../kit/keyset-page.js';
import { defineListing, type ListingQuery } from '../kit/listing.js';
import type { CreateFields, PatchFields } from '../kit/record.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { listed, refuse, refuseEmptyPatch, refuseRepeats } from './checks.js';
import { InterfaceTable as ViewTable, SAVED_VIEW_RECORD, type SavedViewRow, type ViewFilterValues } from './record.js';
import { LIMITS, TABLES } from './vocabulary.js';

/**
 * A member's saved views: a name, a table, and the filters, sort and columns to show it with. The filters and sort are
 * exactly what the table's list action takes (list_schedule_lines, list_studio_projects …), so a client applies a view
 * by passing them on; the columns are the table's built-in ones (custom-property columns belong to a project's table
 * layout). Views are personal: nobody else sees them, and they are deleted outright, since they are preferences
 * rather than records of work (lines, which are, are never deleted).
 */

type ViewFields = typeof SAVED_VIEW_RECORD.spec.fields;
type ViewSort = Exclude<CreateFields<ViewFields>['sort'], undefined>;
type ViewColumns = Exclude<CreateFields<ViewFields>['columns'], undefined>;

export const presentView = (row: SavedViewRow) => SAVED_VIEW_RECORD.present(row, {});

export const SAVED_VIEW_SORTS = namedSorts(
  {
    name: { column: 'saved_views.name_key' },
    createdAt: { column: 'saved_views.created_at' },
    updatedAt: { column: 'saved_views.updated_at' },
  },
  { column: 'saved_views.id' },
);
export const SAVED_VIEW_SORT_NAMES = sortNames(SAVED_VIEW_SORTS);

export const SAVED_VIEW_LISTING = defineListing({
  filters: { table: ViewTable.optional().describe('Only views of this table.') },
  sorts: SAVED_VIEW_SORTS,
  defaultSort: 'name',
});

/** The caller's own views, of one table or all, by name unless `sort` says otherwise. */
export async function listViews(ctx: ActionContext, query: ListingQuery<typeof SAVED_VIEW_LISTING>) {
  let qb = ctx.db.selectFrom('saved_views').selectAll().where('member_id', '=', ctx.caller!.memberId);
  if (query.table) qb = qb.where('table_name', '=', query.table);
  const { rows, nextCursor } = await SAVED_VIEW_LISTING.page(qb, query);
  return { items: rows.map(presentView), nextCursor };
}

/** The filters, in the table's own order, after checking each is one the table's list action takes. */
function checkedFilters(table: InterfaceTable, filters: ViewFilterValues): ViewFilterValues {
  const t = TABLES[table];
  for (const [name, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    if (!t.filters.includes(name)) {
      refuse(
        `filters.${name}`,
        `The ${table} table is not filtered by ${name}: ${t.listAction} takes ${listed(t.filters)}.`,
        'Not a filter of this table.',
      );
    }
    if (name === 'status' && !t.statuses.includes(value as string)) {
      refuse(
        'filters.status',
        `${String(value)} is not a status of the ${table} table; its statuses are ${listed(t.statuses)}.`,
        'Not a status of this table.',
      );
    }
  }
  const given = filters as Record<string, unknown>;
  return Object.fromEntries(t.filters.filter((f) => given[f] !== undefined).map((f) => [f, given[f]]));
}

function checkedSort(table: InterfaceTable, sort: ViewSort) {
  const { sorts, listAction } = TABLES[table];
  if (sort !== null && !sorts.includes(sort)) {
    refuse(
      'sort',
      `${sort} is not a sort of the ${table} table: ${listAction} sorts by ${listed(sorts)}.`,
      'Not a sort of this table.',
    );
  }
  return sort;
}

function checkedColumns(table: InterfaceTable, columns: ViewColumns) {
  if (columns === null) return null;
  const { fields } = TABLES[table];
  for (const [i, c] of columns.entries()) {
    if (!fields.includes(c)) {
      refuse(
        `columns.${i}`,
        `${c} is not a column of the ${table} table; its columns are ${listed(fields)}.`,
        'Not a column of this table.',
      );
    }
  }
  refuseRepeats(columns, 'columns', 'The column');
  return [...columns];
}

/** Two of a member's views of one table never share a name, whatever its case: a view is chosen by its name. */
async function assertNameFree(
  db: Kysely<Database>,
  memberId: string,
  table: InterfaceTable,
  name: string,
  exceptId?: string,
) {
  let qb = db
    .selectFrom('saved_views')
    .select(['id', 'name'])
    .where('member_id', '=', memberId)
    .where('table_name', '=', table)
    .where('name_key', '=', name.toLowerCase());
  if (exceptId) qb = qb.where('id', '!=', exceptId);
  const taken = await qb.executeTakeFirst();
  if (taken) {
    refuse(
      'name',
      `You already have a view of the ${table} table called ${taken.name} (id ${taken.id}); update it, or choose another name.`,
      `Already used by your view ${taken.id}.`,
    );
  }
}

export type CreateViewInput = CreateFields<ViewFields>;

export async function createView(ctx: ActionContext, input: CreateViewInput) {
  const memberId = ctx.caller!.memberId;
  const filters = checkedFilters(input.table, input.filters ?? {});
  const sort = checkedSort(input.table, input.sort ?? null);
  const columns = checkedColumns(input.table, input.columns ?? null);
  await assertNameFree(ctx.db, memberId, input.table, input.name);
  const count = await ctx.db
    .selectFrom('saved_views')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('member_id', '=', memberId)
    .where('table_name', '=', input.table)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= LIMITS.viewsPerTable) {
    refuse(
      'table',
      `You have ${LIMITS.viewsPerTable} saved views of the ${input.table} table, the most kept; delete one you no longer use first.`,
      'Too many views of this table.',
    );
  }
  const row = SAVED_VIEW_RECORD.newRow(
    { name: input.name, table: input.table, filters, sort, columns },
    { id: newId(), ownerId: memberId, now: ctx.now },
  );
  await ctx.db.insertInto('saved_views').values(row).execute();
  ctx.audit({ targetKind: 'saved_view', targetId: row.id, summary: `Saved the view ${row.name} of ${row.table_name}` });
  return presentView(row);
}

async function loadView(ctx: ActionContext, viewId: string) {
  const row = await ctx.db
    .selectFrom('saved_views')
    .selectAll()
    .where('id', '=', viewId)
    .where('member_id', '=', ctx.caller!.memberId)
    .executeTakeFirst();
  if (!row) throw new ServiceError('NOT_FOUND', `No saved view ${viewId} exists among your own in this studio.`);
  return row;
}

export async function getView(ctx: ActionContext, viewId: string) {
  return presentView(await loadView(ctx, viewId));
}

export type ViewPatch = PatchFields<ViewFields>;

/** A merge patch: filters and columns replace whole; null sort or columns return to the list's and layout's own. */
export async function updateView(ctx: ActionContext, viewId: string, patch: ViewPatch) {
  refuseEmptyPatch(patch as Record<string, unknown>, ['name', 'filters', 'sort', 'columns']);
  const row = await loadView(ctx, viewId);
  if (patch.name !== undefined && patch.name.toLowerCase() !== row.name_key)
    await assertNameFree(ctx.db, row.member_id, row.table_name, patch.name, row.id);
  const cols = SAVED_VIEW_RECORD.patchColumns({
    name: patch.name,
    filters: patch.filters === undefined ? undefined : checkedFilters(row.table_name, patch.filters),
    sort: patch.sort === undefined ? undefined : checkedSort(row.table_name, patch.sort),
    columns: patch.columns === undefined ? undefined : checkedColumns(row.table_name, patch.columns),
  });
  return versionedUpdate(ctx, 'saved_views', row, cols, {
    present: presentView,
    audit: (after) => ({ targetKind: 'saved_view', summary: `Changed the view ${after.name} of ${after.table_name}` }),
  });
}

/** Deletes the view outright (it is a preference, not a record of work); the audit event keeps its name. */
export async function deleteView(ctx: ActionContext, viewId: string) {
  const row = await loadView(ctx, viewId);
  await ctx.db.deleteFrom('saved_views').where('id', '=', row.id).execute();
  ctx.audit({
    targetKind: 'saved_view',
    targetId: row.id,
    summary: `Deleted the view ${row.name} of ${row.table_name}`,
  });
  return { id: row.id, name: row.name, table: row.table_name, deletedAt: ctx.now };
}
