import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { z } from 'zod';
import { SPECIFICATION_CATEGORIES } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { whereArchived } from '../kit/filters.js';
import { namedSorts } from '../kit/keyset-page.js';
import { archivedFilter, defineListing, type ListingQuery, textFilter } from '../kit/listing.js';
import type { CreateFields, PatchFields } from '../kit/record.js';
import { containsText } from '../kit/text-search.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { SPECIFICATION_RECORD, type SpecificationRow } from './record.js';

type Fields = typeof SPECIFICATION_RECORD.spec.fields;

/** A specification as the API shows it, with how many active lines it is attached to. */
export const presentSpecification = (row: SpecificationRow, lineCount: number) =>
  SPECIFICATION_RECORD.present(row, { lineCount });

/** The studio's specifications with their count of active lines (archived projects' lines still have them). */
export function specificationsWithCounts(db: Kysely<Database>, studioId: string) {
  return db
    .selectFrom('specifications')
    .selectAll('specifications')
    .select((eb) =>
      eb
        .selectFrom('line_specifications')
        .innerJoin('lines', 'lines.id', 'line_specifications.line_id')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('line_specifications.specification_id', '=', 'specifications.id')
        .where('lines.archived_at', 'is', null)
        .as('line_count'),
    )
    .where('specifications.studio_id', '=', studioId);
}

/** The filters list_specifications and search_specifications share. */
export const SPECIFICATION_FILTERS = {
  category: z.enum(SPECIFICATION_CATEGORIES).optional().describe('Only specifications of this kind.'),
  manufacturer: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('Only those by this maker: the whole name, in any case (e.g. "Flos").'),
  archived: archivedFilter('specifications'),
};
export type SpecificationFilters = z.output<z.ZodObject<typeof SPECIFICATION_FILTERS>>;

/** The studio's specifications narrowed by the shared filters, with their line counts. */
export function filteredSpecifications(ctx: Pick<ActionContext, 'db' | 'studioId'>, f: SpecificationFilters) {
  let qb = whereArchived(specificationsWithCounts(ctx.db, ctx.studioId), 'specifications.archived_at', f.archived);
  if (f.category) qb = qb.where('specifications.category', '=', f.category);
  if (f.manufacturer) {
    const maker = f.manufacturer.trim().toLowerCase();
    qb = qb.where((eb) => eb(eb.fn('lower', ['specifications.manufacturer']), '=', maker));
  }
  return qb;
}

export const SPECIFICATION_SORTS = namedSorts(
  {
    name: { column: 'specifications.name' },
    manufacturer: { column: 'specifications.manufacturer', nullAs: '' },
    createdAt: { column: 'specifications.created_at' },
    updatedAt: { column: 'specifications.updated_at' },
  },
  { column: 'specifications.id' },
);

export const SPECIFICATION_LISTING = defineListing({
  filters: { q: textFilter('name, manufacturer, model or SKU'), ...SPECIFICATION_FILTERS },
  sorts: SPECIFICATION_SORTS,
  defaultSort: 'name',
});

/** The studio's specifications, by name unless `sort` says otherwise; `q` is a plain "contains" on the names. */
export async function listSpecifications(ctx: ActionContext, query: ListingQuery<typeof SPECIFICATION_LISTING>) {
  let qb = filteredSpecifications(ctx, query);
  if (query.q) {
    const q = query.q;
    qb = qb.where((eb) =>
      eb.or(
        containsText(
          ['specifications.name', 'specifications.manufacturer', 'specifications.model', 'specifications.sku'],
          q,
        ),
      ),
    );
  }
  const { rows, nextCursor } = await SPECIFICATION_LISTING.page(qb, query);
  return { items: rows.map(({ line_count, ...r }) => presentSpecification(r, Number(line_count ?? 0))), nextCursor };
}

export async function loadSpecification(ctx: Pick<ActionContext, 'db' | 'studioId'>, specificationId: string) {
  const row = await specificationsWithCounts(ctx.db, ctx.studioId)
    .where('specifications.id', '=', specificationId)
    .executeTakeFirst();
  if (!row) {
    throw new ServiceError(
      'NOT_FOUND',
      `No specification ${specificationId} exists in your studio; list_specifications or search_specifications finds one.`,
    );
  }
  const { line_count, ...specification } = row;
  return { specification, lineCount: Number(line_count ?? 0) };
}

export async function getSpecification(ctx: ActionContext, specificationId: string) {
  const { specification, lineCount } = await loadSpecification(ctx, specificationId);
  return presentSpecification(specification, lineCount);
}

export async function createSpecification(ctx: ActionContext, fields: CreateFields<Fields>) {
  const row = SPECIFICATION_RECORD.newRow(fields, { id: newId(), ownerId: ctx.studioId, now: ctx.now });
  await ctx.db.insertInto('specifications').values(row).execute();
  ctx.audit({
    targetKind: 'specification',
    targetId: row.id,
    summary: `Created specification ${row.name}`,
    changes: { created: { from: null, to: row.name } },
  });
  return presentSpecification(row, 0);
}

/** Writes a specification's columns through the one version-checked update, auditing what changed in API terms. */
function writeSpecification(
  ctx: ActionContext,
  before: SpecificationRow,
  lineCount: number,
  cols: object,
  verb: string,
) {
  return versionedUpdate(ctx, 'specifications', before, cols, {
    present: (row) => presentSpecification(row, lineCount),
    audit: (after) => ({ targetKind: 'specification', summary: `${verb} specification ${after.name}` }),
  });
}

export async function updateSpecification(ctx: ActionContext, specificationId: string, patch: PatchFields<Fields>) {
  const { specification, lineCount } = await loadSpecification(ctx, specificationId);
  if (specification.archived_at) {
    throw new ServiceError(
      'ARCHIVED',
      'This specification is archived, and archived specifications do not change; create_specification makes a new one.',
    );
  }
  const cols = SPECIFICATION_RECORD.patchColumns(patch);
  if (!Object.keys(cols).length) {
    throw new ServiceError('VALIDATION_FAILED', 'Give at least one field to change.', {
      errors: [{ path: '(input)', message: 'Nothing to change.' }],
    });
  }
  return writeSpecification(ctx, specification, lineCount, cols, 'Updated');
}

/** Archives a specification: the lines that have it keep it (and their documents still show it); none can newly take it. */
export async function archiveSpecification(ctx: ActionContext, specificationId: string) {
  const { specification, lineCount } = await loadSpecification(ctx, specificationId);
  if (specification.archived_at) {
    throw new ServiceError(
      'ALREADY_ARCHIVED',
      'This specification is already archived; a second archival changes nothing.',
    );
  }
  const shown = await writeSpecification(ctx, specification, lineCount, { archived_at: ctx.now }, 'Archived');
  const lines = `${lineCount} active line${lineCount === 1 ? '' : 's'}`;
  return {
    ...shown,
    note:
      lineCount > 0
        ? `${lines} keep${lineCount === 1 ? 's' : ''} this specification and still show it; it cannot be attached to more lines.`
        : null,
  };
}
