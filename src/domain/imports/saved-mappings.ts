import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { namedSorts } from '../kit/keyset-page.js';
import { defineListing, type ListingQuery, textFilter } from '../kit/listing.js';
import { containsText } from '../kit/text-search.js';
import type { ImportField } from './fields.js';
import {
  IMPORT_MAPPING_RECORD,
  type ImportMappingRow,
  presentSavedMapping,
  type SavedColumn,
  type StoredMapping,
} from './record.js';
import { headingsKey, normaliseHeading } from './headings.js';
import { assertMappable } from './mapping-rules.js';

/** The saved mapping's field for each heading of a sheet (null where it names none), by normalised heading. */
export function fieldsByHeading(row: ImportMappingRow): {
  fields: Map<string, ImportField | null>;
  headingRows: boolean;
} {
  const stored = JSON.parse(row.mapping) as StoredMapping;
  return {
    fields: new Map(stored.columns.map((c) => [normaliseHeading(c.heading), c.field])),
    headingRows: stored.headingRows,
  };
}

/** The studio's mapping made for exactly these headings (any order), the most recently saved if several. */
export async function findSavedMapping(db: Kysely<Database>, studioId: string, headings: readonly string[]) {
  return db
    .selectFrom('import_mappings')
    .selectAll()
    .where('studio_id', '=', studioId)
    .where('headings_key', '=', headingsKey(headings))
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function loadSavedMapping(db: Kysely<Database>, studioId: string, mappingId: string) {
  const row = await db
    .selectFrom('import_mappings')
    .selectAll()
    .where('id', '=', mappingId)
    .where('studio_id', '=', studioId)
    .executeTakeFirst();
  if (!row) throw new ServiceError('NOT_FOUND', `No import mapping ${mappingId} exists in your studio.`);
  return row;
}

export interface SaveMappingInput {
  name: string;
  columns: readonly SavedColumn[];
  headingRows?: boolean | undefined;
}

/**
 * Saves a mapping under its name: a new one, or, when the studio already has a mapping of that name (any case),
 * that one replaced (its version goes up). Imports whose sheet has exactly these headings use it from then on.
 */
export async function saveMapping(ctx: ActionContext, input: SaveMappingInput) {
  const seen = new Map<string, number>();
  for (const [i, c] of input.columns.entries()) {
    const key = normaliseHeading(c.heading);
    if (!key) {
      throw new ServiceError('VALIDATION_FAILED', 'Every column needs its heading, as the sheet writes it.', {
        errors: [{ path: `columns.${i}.heading`, message: 'Empty (after punctuation is ignored).' }],
      });
    }
    if (seen.has(key)) {
      throw new ServiceError(
        'VALIDATION_FAILED',
        `The heading "${c.heading}" is given twice; give each heading once.`,
        {
          errors: [{ path: `columns.${i}.heading`, message: `Repeats columns.${seen.get(key)}.` }],
        },
      );
    }
    seen.set(key, i);
  }
  assertMappable(input.columns.map((c, i) => ({ ...c, path: `columns.${i}`, where: `"${c.heading}"` })));
  const stored: StoredMapping = {
    columns: input.columns.map((c) => ({ heading: c.heading.trim(), field: c.field })),
    headingRows: input.headingRows ?? true,
  };
  const nameKey = input.name.trim().toLowerCase();
  const existing = await ctx.db
    .selectFrom('import_mappings')
    .selectAll()
    .where('studio_id', '=', ctx.studioId)
    .where('name_key', '=', nameKey)
    .executeTakeFirst();
  const cols = {
    name: input.name.trim(),
    headings_key: headingsKey(stored.columns.map((c) => c.heading)),
    mapping: JSON.stringify(stored),
    updated_at: ctx.now,
  };
  if (existing) {
    if (existing.mapping === cols.mapping && existing.name === cols.name) {
      ctx.unchanged();
      return presentSavedMapping(existing);
    }
    const after = { ...existing, ...cols, version: existing.version + 1 };
    await ctx.db
      .updateTable('import_mappings')
      .set({ ...cols, version: after.version })
      .where('id', '=', existing.id)
      .execute();
    ctx.audit({
      targetKind: 'import_mapping',
      targetId: existing.id,
      summary: `Replaced import mapping ${after.name}`,
      changes: { columns: { from: JSON.parse(existing.mapping).columns, to: stored.columns } },
    });
    return presentSavedMapping(after);
  }
  const row = IMPORT_MAPPING_RECORD.newRow(
    { name: cols.name, nameKey, headingsKey: cols.headings_key, mapping: stored, createdBy: ctx.caller!.memberId },
    { id: newId(), ownerId: ctx.studioId, now: ctx.now },
  );
  await ctx.db.insertInto('import_mappings').values(row).execute();
  ctx.audit({
    targetKind: 'import_mapping',
    targetId: row.id,
    summary: `Saved import mapping ${row.name}`,
    changes: { created: { from: null, to: row.name } },
  });
  return presentSavedMapping(row);
}

export const MAPPING_SORTS = namedSorts(
  { name: { column: 'import_mappings.name_key' }, updatedAt: { column: 'import_mappings.updated_at' } },
  { column: 'import_mappings.id' },
);

export const MAPPING_LISTING = defineListing({
  filters: { q: textFilter('the name', 100) },
  sorts: MAPPING_SORTS,
  defaultSort: 'name',
});

/** The studio's saved mappings, by name unless `sort` says otherwise. */
export async function listMappings(ctx: ActionContext, query: ListingQuery<typeof MAPPING_LISTING>) {
  let qb = ctx.db.selectFrom('import_mappings').selectAll().where('studio_id', '=', ctx.studioId);
  if (query.q) {
    const q = query.q;
    qb = qb.where((eb) => eb.or(containsText(['import_mappings.name'], q)));
  }
  const { rows, nextCursor } = await MAPPING_LISTING.page(qb, query);
  return { items: rows.map(presentSavedMapping), nextCursor };
}
