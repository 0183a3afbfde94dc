import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { namedSorts } from '../kit/keyset-page.js';
import { archivedFilter, defineListing, type ListingQuery, textFilter } from '../kit/listing.js';
import { containsText } from '../kit/text-search.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { whereArchived } from '../kit/filters.js';
import type { CreateFields, PatchFields } from '../kit/record.js';
import { LIBRARY_RECORD, type LibraryRow } from './record.js';

/** A library as the API shows it, with how many active products it holds. */
export const presentLibrary = (row: LibraryRow, productCount: number) => LIBRARY_RECORD.present(row, { productCount });
export type PresentedLibrary = ReturnType<typeof presentLibrary>;

/** Libraries with their count of active products, as one query. */
function librariesWithCounts(db: Kysely<Database>, studioId: string) {
  return db
    .selectFrom('libraries')
    .selectAll('libraries')
    .select((eb) =>
      eb
        .selectFrom('library_products')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('library_products.library_id', '=', 'libraries.id')
        .where('library_products.archived_at', 'is', null)
        .as('product_count'),
    )
    .where('libraries.studio_id', '=', studioId);
}

export const LIBRARY_SORTS = namedSorts(
  { name: { column: 'libraries.name' }, createdAt: { column: 'libraries.created_at' } },
  { column: 'libraries.id' },
);

export const LIBRARY_LISTING = defineListing({
  filters: { q: textFilter('name or description'), archived: archivedFilter('libraries') },
  sorts: LIBRARY_SORTS,
  defaultSort: 'name',
});

/** The studio's libraries, by name unless `sort` says otherwise; archived ones only when asked. */
export async function listLibraries(ctx: ActionContext, query: ListingQuery<typeof LIBRARY_LISTING>) {
  let qb = librariesWithCounts(ctx.db, ctx.studioId);
  qb = whereArchived(qb, 'libraries.archived_at', query.archived);
  if (query.q) {
    const q = query.q;
    qb = qb.where((eb) => eb.or(containsText(['libraries.name', 'libraries.description'], q)));
  }
  const { rows, nextCursor } = await LIBRARY_LISTING.page(qb, query);
  return { items: rows.map(({ product_count, ...r }) => presentLibrary(r, Number(product_count ?? 0))), nextCursor };
}

/** A library of the caller's studio with its count of active products; NOT_FOUND otherwise. */
export async function loadLibrary(ctx: Pick<ActionContext, 'db' | 'studioId'>, libraryId: string) {
  const row = await librariesWithCounts(ctx.db, ctx.studioId).where('libraries.id', '=', libraryId).executeTakeFirst();
  if (!row) throw new ServiceError('NOT_FOUND', `No library ${libraryId} exists in your studio.`);
  const { product_count, ...library } = row;
  return { library, productCount: Number(product_count ?? 0) };
}

export async function getLibrary(ctx: ActionContext, libraryId: string) {
  const { library, productCount } = await loadLibrary(ctx, libraryId);
  return presentLibrary(library, productCount);
}

export async function createLibrary(ctx: ActionContext, fields: CreateFields<typeof LIBRARY_RECORD.spec.fields>) {
  const row = LIBRARY_RECORD.newRow(fields, { id: newId(), ownerId: ctx.studioId, now: ctx.now });
  await ctx.db.insertInto('libraries').values(row).execute();
  ctx.audit({
    targetKind: 'library',
    targetId: row.id,
    summary: `Created library ${row.name}`,
    changes: { created: { from: null, to: row.name } },
  });
  return presentLibrary(row, 0);
}

/** Writes a library's columns through the one version-checked update, auditing what changed in API terms. */
function writeLibrary(ctx: ActionContext, before: LibraryRow, productCount: number, cols: object, verb: string) {
  return versionedUpdate(ctx, 'libraries', before, cols, {
    present: (row) => presentLibrary(row, productCount),
    audit: (after) => ({ targetKind: 'library', summary: `${verb} library ${after.name}` }),
  });
}

export async function updateLibrary(
  ctx: ActionContext,
  libraryId: string,
  patch: PatchFields<typeof LIBRARY_RECORD.spec.fields>,
) {
  const { library, productCount } = await loadLibrary(ctx, libraryId);
  if (library.archived_at) {
    throw new ServiceError('ARCHIVED', 'This library is archived; archived reference records do not change.');
  }
  const cols = LIBRARY_RECORD.patchColumns(patch);
  if (!Object.keys(cols).length) {
    throw new ServiceError('VALIDATION_FAILED', 'Give at least one field to change: name or description.', {
      errors: [{ path: '(input)', message: 'Nothing to change.' }],
    });
  }
  return writeLibrary(ctx, library, productCount, cols, 'Updated');
}

/** Archives a library. Its products stay as they are (readable with list_library_products), but none is added. */
export async function archiveLibrary(ctx: ActionContext, libraryId: string) {
  const { library, productCount } = await loadLibrary(ctx, libraryId);
  if (library.archived_at) throw new ServiceError('ALREADY_ARCHIVED', 'This library is already archived.');
  return writeLibrary(ctx, library, productCount, { archived_at: ctx.now }, 'Archived');
}
