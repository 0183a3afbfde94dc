import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Currency } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { namedSorts } from '../kit/keyset-page.js';
import { archivedFilter, defineListing, type ListingQuery } from '../kit/listing.js';
import { z } from 'zod';
import { refTo } from '../../core/schema-marks.js';
import { Id } from '../../core/values.js';
import { LIBRARY } from './entity.js';
import { SUPPLIER } from '../suppliers/entity.js';
import { containsText } from '../kit/text-search.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { loadLine } from '../schedule/lines.js';
import { loadLibrary } from './libraries.js';
import { whereArchived } from '../kit/filters.js';
import { assertActiveSupplier } from '../suppliers/active-supplier.js';
import type { PatchFields } from '../kit/record.js';
import { LIBRARY_PRODUCT_RECORD, type LibraryProductRow } from './record.js';

/**
 * A product as the API shows it. The trade price is always built here; `invoke` withholds it from callers without
 * pricing:read (the action's output declares it priced).
 */
export const presentProduct = (row: LibraryProductRow, supplierName: string | null) =>
  LIBRARY_PRODUCT_RECORD.present(row, { supplierName });
export type PresentedProduct = ReturnType<typeof presentProduct>;

/** The fields of a product callers change (create: all optional; update: a merge patch), in a line's own shapes. */
export type ProductFields = PatchFields<typeof LIBRARY_PRODUCT_RECORD.spec.fields>;

/** The columns a product shares with a line, under the same names: what capturing a line copies. */
const LINE_COLUMNS = [
  'heading',
  'description',
  'supplier_id',
  'brand',
  'product_code',
  'url',
  'finish',
  'dimensions',
  'lead_time_days',
  'trade_state',
  'trade4',
  'retail_state',
  'retail4',
] as const;
type LineColumns = Pick<LibraryProductRow, (typeof LINE_COLUMNS)[number]>;

/** Products with their supplier's name beside its id. */
function productsWithSupplier(db: Kysely<Database>, studioId: string) {
  return db
    .selectFrom('library_products')
    .leftJoin('suppliers', 'suppliers.id', 'library_products.supplier_id')
    .selectAll('library_products')
    .select('suppliers.name as supplier_name')
    .where('library_products.studio_id', '=', studioId);
}

export const PRODUCT_SORTS = namedSorts(
  {
    heading: { column: 'library_products.heading' },
    createdAt: { column: 'library_products.created_at' },
    updatedAt: { column: 'library_products.updated_at' },
  },
  { column: 'library_products.id' },
);

export const PRODUCT_LISTING = defineListing({
  filters: {
    libraryId: refTo(Id, LIBRARY)
      .optional()
      .describe('Only this library; omit to search the products of every active library.'),
    supplierId: refTo(Id, SUPPLIER).optional().describe("Only this supplier's products."),
    q: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Text in heading, description, brand, product code, finish or supplier name.'),
    archived: archivedFilter('(removed) products'),
  },
  sorts: PRODUCT_SORTS,
  defaultSort: 'heading',
});

/**
 * One library's products, or (without libraryId) the products of every active library, by heading unless `sort` says
 * otherwise; removed (archived) products only when asked.
 */
export async function listProducts(ctx: ActionContext, query: ListingQuery<typeof PRODUCT_LISTING>) {
  let qb = productsWithSupplier(ctx.db, ctx.studioId);
  if (query.libraryId) qb = qb.where('library_products.library_id', '=', query.libraryId);
  else {
    qb = qb.where(
      'library_products.library_id',
      'in',
      ctx.db
        .selectFrom('libraries')
        .select('libraries.id')
        .where('libraries.studio_id', '=', ctx.studioId)
        .where('libraries.archived_at', 'is', null),
    );
  }
  if (query.supplierId) qb = qb.where('library_products.supplier_id', '=', query.supplierId);
  qb = whereArchived(qb, 'library_products.archived_at', query.archived);
  if (query.q) {
    const q = query.q;
    qb = qb.where((eb) =>
      eb.or(
        containsText(
          [
            'library_products.heading',
            'library_products.description',
            'library_products.brand',
            'library_products.product_code',
            'library_products.finish',
            'suppliers.name',
          ],
          q,
        ),
      ),
    );
  }
  const { rows, nextCursor } = await PRODUCT_LISTING.page(qb, query);
  return { items: rows.map(({ supplier_name, ...r }) => presentProduct(r, supplier_name)), nextCursor };
}

async function loadProduct(ctx: Pick<ActionContext, 'db' | 'studioId'>, productId: string) {
  const row = await productsWithSupplier(ctx.db, ctx.studioId)
    .where('library_products.id', '=', productId)
    .executeTakeFirst();
  if (!row) throw new ServiceError('NOT_FOUND', `No library product ${productId} exists in your studio.`);
  const { supplier_name, ...product } = row;
  return product;
}

export interface AddProductInput extends ProductFields {
  libraryId: string;
  fromLine?: { projectId: string; lineId: string } | undefined;
  currency?: Currency | undefined;
}

/**
 * Adds a product to an active library: captured from a line (its descriptive fields and its trade and retail prices,
 * in its project's currency; fields sent beside fromLine replace the captured ones) or from the fields sent.
 * `invoke` has proved the library, the supplier and the line's project (with its grant) are the caller's.
 */
export async function addProduct(ctx: ActionContext, input: AddProductInput) {
  const { libraryId, fromLine, currency, ...fields } = input;
  const { library } = await loadLibrary(ctx, libraryId);
  if (library.archived_at) {
    throw new ServiceError(
      'ARCHIVED',
      `The library ${library.name} is archived; add the product to an active library.`,
    );
  }
  let captured: Partial<LineColumns> = {};
  let productCurrency: Currency;
  if (fromLine) {
    if (currency !== undefined) {
      throw new ServiceError(
        'VALIDATION_FAILED',
        "A captured product keeps its line's prices in its project's currency; leave currency out when sending fromLine.",
        { errors: [{ path: 'currency', message: 'Not taken with fromLine.' }] },
      );
    }
    const line = await loadLine(ctx, fromLine.projectId, fromLine.lineId);
    captured = Object.fromEntries(LINE_COLUMNS.map((c) => [c, line[c]])) as LineColumns;
    const project = await ctx.db
      .selectFrom('projects')
      .select('currency')
      .where('id', '=', fromLine.projectId)
      .executeTakeFirstOrThrow();
    productCurrency = project.currency;
  } else {
    if (fields.heading === undefined) {
      throw new ServiceError(
        'VALIDATION_FAILED',
        "Give the product's heading (and any other fields), or fromLine to capture a schedule line.",
        { errors: [{ path: 'heading', message: 'Required unless fromLine is sent.' }] },
      );
    }
    const studio = await ctx.db
      .selectFrom('studios')
      .select('currency')
      .where('id', '=', ctx.studioId)
      .executeTakeFirstOrThrow();
    productCurrency = currency ?? studio.currency;
  }
  if (fields.supplierId !== undefined) await assertActiveSupplier(ctx, fields.supplierId);
  // The fields sent, else the captured line's, else the record's defaults (nothing known, prices to be confirmed).
  const made = { id: newId(), ownerId: ctx.studioId, now: ctx.now };
  const sent = { ...fields, libraryId, currency: productCurrency, capturedFrom: fromLine ?? null };
  const row: LibraryProductRow = {
    ...LIBRARY_PRODUCT_RECORD.newRow(sent, made),
    ...captured,
    ...LIBRARY_PRODUCT_RECORD.patchColumns(fields),
  };
  await ctx.db.insertInto('library_products').values(row).execute();
  ctx.audit({
    targetKind: 'library_product',
    targetId: row.id,
    summary: `Added ${row.heading} to library ${library.name}${fromLine ? ' from a schedule line' : ''}`,
    changes: {
      created: { from: null, to: row.heading },
      ...(fromLine ? { capturedFrom: { from: null, to: fromLine } } : {}),
    },
  });
  return presentProduct(row, await supplierName(ctx, row.supplier_id));
}

async function supplierName(ctx: Pick<ActionContext, 'queryRow'>, supplierId: string | null) {
  if (!supplierId) return null;
  const s = await ctx.queryRow<{ name: string }>('SELECT name FROM suppliers WHERE id = ?', supplierId);
  return s?.name ?? null;
}

/** Writes a product's columns through the one version-checked update, auditing what changed in API terms. */
async function writeProduct(
  ctx: ActionContext,
  before: LibraryProductRow,
  cols: Partial<LibraryProductRow>,
  verb: string,
) {
  const beforeName = await supplierName(ctx, before.supplier_id);
  const afterName =
    cols.supplier_id === undefined ? beforeName : await supplierName(ctx, cols.supplier_id as string | null);
  return versionedUpdate(ctx, 'library_products', before, cols, {
    present: (row) => presentProduct(row, row.supplier_id === before.supplier_id ? beforeName : afterName),
    audit: (after) => ({ targetKind: 'library_product', summary: `${verb} library product ${after.heading}` }),
  });
}

/** The product's library must be active for the product to change. */
async function assertChangeable(ctx: ActionContext, product: LibraryProductRow) {
  if (product.archived_at) {
    throw new ServiceError('ARCHIVED', 'This product was removed from its library; removed products do not change.');
  }
  const { library } = await loadLibrary(ctx, product.library_id);
  if (library.archived_at) {
    throw new ServiceError('ARCHIVED', `The library ${library.name} is archived; its products do not change.`);
  }
}

export async function updateProduct(ctx: ActionContext, productId: string, patch: ProductFields) {
  const before = await loadProduct(ctx, productId);
  await assertChangeable(ctx, before);
  const cols = LIBRARY_PRODUCT_RECORD.patchColumns(patch);
  if (!Object.keys(cols).length) {
    throw new ServiceError('VALIDATION_FAILED', 'Give at least one field to change.', {
      errors: [{ path: '(input)', message: 'Nothing to change.' }],
    });
  }
  if (cols.supplier_id !== undefined && cols.supplier_id !== before.supplier_id) {
    await assertActiveSupplier(ctx, cols.supplier_id);
  }
  return writeProduct(ctx, before, cols, 'Updated');
}

/** Removes a product from its library: archived, never deleted (lines made from it are untouched). */
export async function removeProduct(ctx: ActionContext, productId: string) {
  const before = await loadProduct(ctx, productId);
  if (before.archived_at) {
    throw new ServiceError('ALREADY_ARCHIVED', 'This product is already removed from its library.');
  }
  return writeProduct(ctx, before, { archived_at: ctx.now }, 'Removed');
}
