import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { namedSorts, sortNames } from '../kit/keyset-page.js';
import { archivedFilter, defineListing, type ListingQuery, textFilter } from '../kit/listing.js';
import { containsText } from '../kit/text-search.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { loadLine, writeLine } from '../schedule/lines.js';
import { whereArchived } from '../kit/filters.js';
import type { CreateFields, PatchFields } from '../kit/record.js';
import { SUPPLIER_RECORD, type SupplierRow } from './record.js';

/** A supplier as the API shows it, with how many active lines name it. */
export const presentSupplier = (row: SupplierRow, lineCount: number) => SUPPLIER_RECORD.present(row, { lineCount });

/** Suppliers with their count of active lines (in active or archived projects alike: the line still names them). */
function suppliersWithCounts(db: Kysely<Database>, studioId: string) {
  return db
    .selectFrom('suppliers')
    .selectAll('suppliers')
    .select((eb) =>
      eb
        .selectFrom('lines')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('lines.supplier_id', '=', 'suppliers.id')
        .where('lines.archived_at', 'is', null)
        .as('line_count'),
    )
    .where('suppliers.studio_id', '=', studioId);
}

export const SUPPLIER_SORTS = namedSorts(
  { name: { column: 'suppliers.name' }, createdAt: { column: 'suppliers.created_at' } },
  { column: 'suppliers.id' },
);
export const SUPPLIER_SORT_NAMES = sortNames(SUPPLIER_SORTS);

export const SUPPLIER_LISTING = defineListing({
  filters: { q: textFilter('name, account reference or email'), archived: archivedFilter('suppliers') },
  sorts: SUPPLIER_SORTS,
  defaultSort: 'name',
});

/** The studio's suppliers, by name unless `sort` says otherwise; archived ones only when asked. */
export async function listSuppliers(ctx: ActionContext, query: ListingQuery<typeof SUPPLIER_LISTING>) {
  let qb = suppliersWithCounts(ctx.db, ctx.studioId);
  qb = whereArchived(qb, 'suppliers.archived_at', query.archived);
  if (query.q) {
    const q = query.q;
    qb = qb.where((eb) => eb.or(containsText(['suppliers.name', 'suppliers.account_reference', 'suppliers.email'], q)));
  }
  const { rows, nextCursor } = await SUPPLIER_LISTING.page(qb, query);
  return { items: rows.map(({ line_count, ...r }) => presentSupplier(r, Number(line_count ?? 0))), nextCursor };
}

async function loadSupplier(ctx: Pick<ActionContext, 'db' | 'studioId'>, supplierId: string) {
  const row = await suppliersWithCounts(ctx.db, ctx.studioId).where('suppliers.id', '=', supplierId).executeTakeFirst();
  if (!row) throw new ServiceError('NOT_FOUND', `No supplier ${supplierId} exists in your studio.`);
  const { line_count, ...supplier } = row;
  return { supplier, lineCount: Number(line_count ?? 0) };
}

export async function getSupplier(ctx: ActionContext, supplierId: string) {
  const { supplier, lineCount } = await loadSupplier(ctx, supplierId);
  return presentSupplier(supplier, lineCount);
}

export async function createSupplier(ctx: ActionContext, fields: CreateFields<typeof SUPPLIER_RECORD.spec.fields>) {
  const row = SUPPLIER_RECORD.newRow(fields, { id: newId(), ownerId: ctx.studioId, now: ctx.now });
  await ctx.db.insertInto('suppliers').values(row).execute();
  ctx.audit({
    targetKind: 'supplier',
    targetId: row.id,
    summary: `Created supplier ${row.name}`,
    changes: { created: { from: null, to: row.name } },
  });
  return presentSupplier(row, 0);
}

/** Writes a supplier's columns through the one version-checked update, auditing what changed in API terms. */
function writeSupplier(ctx: ActionContext, before: SupplierRow, lineCount: number, cols: object, verb: string) {
  return versionedUpdate(ctx, 'suppliers', before, cols, {
    present: (row) => presentSupplier(row, lineCount),
    audit: (after) => ({ targetKind: 'supplier', summary: `${verb} supplier ${after.name}` }),
  });
}

export async function updateSupplier(
  ctx: ActionContext,
  supplierId: string,
  patch: PatchFields<typeof SUPPLIER_RECORD.spec.fields>,
) {
  const { supplier, lineCount } = await loadSupplier(ctx, supplierId);
  if (supplier.archived_at) {
    throw new ServiceError('ARCHIVED', 'This supplier is archived; archived reference records do not change.');
  }
  const cols = SUPPLIER_RECORD.patchColumns(patch);
  if (!Object.keys(cols).length) {
    throw new ServiceError('VALIDATION_FAILED', 'Give at least one field to change.', {
      errors: [{ path: '(input)', message: 'Nothing to change.' }],
    });
  }
  return writeSupplier(ctx, supplier, lineCount, cols, 'Updated');
}

/** Archives a supplier. Lines that name it keep it (they are history); the answer says how many still do. */
export async function archiveSupplier(ctx: ActionContext, supplierId: string) {
  const { supplier, lineCount } = await loadSupplier(ctx, supplierId);
  if (supplier.archived_at) throw new ServiceError('ALREADY_ARCHIVED', 'This supplier is already archived.');
  const shown = await writeSupplier(ctx, supplier, lineCount, { archived_at: ctx.now }, 'Archived');
  return {
    ...shown,
    note:
      lineCount > 0
        ? `${lineCount} active line${lineCount === 1 ? ' still names' : 's still name'} this supplier and keep${lineCount === 1 ? 's' : ''} it; new lines cannot choose it. merge_suppliers moves lines to another supplier.`
        : null,
  };
}

/**
 * Folds one supplier into another in one transaction: every line naming `mergedId` (active or archived, in any
 * project: a supplier's identity is being corrected, not a schedule edited) names `keptId` instead, each line's
 * version going up with its own audit event; the merged supplier is left archived.
 */
export async function mergeSuppliers(ctx: ActionContext, keptId: string, mergedId: string) {
  if (keptId === mergedId) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      'A supplier cannot be merged into itself; name two different suppliers.',
      {
        errors: [{ path: 'mergedSupplierId', message: 'The same as supplierId.' }],
      },
    );
  }
  const kept = await loadSupplier(ctx, keptId);
  if (kept.supplier.archived_at) {
    throw new ServiceError(
      'ARCHIVED',
      'The supplier to keep is archived; restore the choice by keeping an active one.',
    );
  }
  const merged = await loadSupplier(ctx, mergedId);
  const lines = await ctx.db
    .selectFrom('lines')
    .select(['id', 'project_id'])
    .where('supplier_id', '=', mergedId)
    .orderBy('id')
    .execute();
  for (const l of lines) {
    await writeLine(ctx, await loadLine(ctx, l.project_id, l.id), { supplier_id: keptId }, 'Merged supplier on');
  }
  const moved = lines.length;
  const mergedAfter = merged.supplier.archived_at
    ? presentSupplier(merged.supplier, 0)
    : await writeSupplier(ctx, merged.supplier, 0, { archived_at: ctx.now }, `Merged into ${kept.supplier.name}:`);
  ctx.audit({
    targetKind: 'supplier',
    targetId: keptId,
    summary: `Merged supplier ${merged.supplier.name} into ${kept.supplier.name} (${moved} line${moved === 1 ? '' : 's'})`,
    changes: { mergedFrom: { from: null, to: mergedId }, linesMoved: { from: null, to: moved } },
  });
  return { kept: await getSupplier(ctx, keptId), merged: mergedAfter, linesMoved: moved };
}
