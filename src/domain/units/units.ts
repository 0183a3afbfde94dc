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
import type { PatchFields } from '../kit/record.js';
import { UNIT_RECORD, type UnitRow } from './record.js';

/** A unit as the API shows it: whether it is the studio's default, and how many active lines measure in it. */
export const presentUnit = (row: UnitRow, facts: { isDefault: boolean; lineCount: number }) =>
  UNIT_RECORD.present(row, facts);
export type PresentedUnit = ReturnType<typeof presentUnit>;

/** The fields a studio edits, as callers send them (create: both required; update: a merge patch). */
type UnitFields = PatchFields<typeof UNIT_RECORD.spec.fields>;

/** Units with their count of active lines (in active or archived projects alike) and whether each is the default. */
function unitsWithFacts(db: Kysely<Database>, studioId: string) {
  return db
    .selectFrom('units')
    .selectAll('units')
    .select((eb) => [
      eb
        .selectFrom('lines')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('lines.unit_id', '=', 'units.id')
        .where('lines.archived_at', 'is', null)
        .as('line_count'),
      eb
        .selectFrom('studios')
        .select((e) => e.lit(1).as('d'))
        .whereRef('studios.id', '=', 'units.studio_id')
        .whereRef('studios.default_unit_id', '=', 'units.id')
        .as('is_default'),
    ])
    .where('units.studio_id', '=', studioId);
}

type UnitWithFacts = UnitRow & { line_count: number | null; is_default: number | null };

const factsOf = ({ line_count, is_default, ...unit }: UnitWithFacts) => ({
  unit,
  facts: { lineCount: Number(line_count ?? 0), isDefault: is_default === 1 },
});

export const UNIT_SORTS = namedSorts(
  { name: { column: 'units.name' }, symbol: { column: 'units.symbol' }, createdAt: { column: 'units.created_at' } },
  { column: 'units.id' },
);

export const UNIT_LISTING = defineListing({
  filters: { q: textFilter('name or symbol', 100), archived: archivedFilter('units') },
  sorts: UNIT_SORTS,
  defaultSort: 'name',
});

/** The studio's units, by name unless `sort` says otherwise; archived ones only when asked. */
export async function listUnits(ctx: ActionContext, query: ListingQuery<typeof UNIT_LISTING>) {
  let qb = unitsWithFacts(ctx.db, ctx.studioId);
  qb = whereArchived(qb, 'units.archived_at', query.archived);
  if (query.q) {
    const q = query.q;
    qb = qb.where((eb) => eb.or(containsText(['units.name', 'units.symbol'], q)));
  }
  const { rows, nextCursor } = await UNIT_LISTING.page(qb, query);
  return {
    items: rows.map((r) => {
      const { unit, facts } = factsOf(r);
      return presentUnit(unit, facts);
    }),
    nextCursor,
  };
}

async function loadUnit(ctx: Pick<ActionContext, 'db' | 'studioId'>, unitId: string) {
  const row = await unitsWithFacts(ctx.db, ctx.studioId).where('units.id', '=', unitId).executeTakeFirst();
  if (!row) throw new ServiceError('NOT_FOUND', `No unit ${unitId} exists in your studio.`);
  return factsOf(row);
}

export async function getUnit(ctx: ActionContext, unitId: string) {
  const { unit, facts } = await loadUnit(ctx, unitId);
  return presentUnit(unit, facts);
}

/**
 * Two active units of a studio never share a name (whatever its case) or a symbol (exactly: "m" and "M" differ), so a
 * line's unit is never ambiguous. Archived units do not count: their names may be used again.
 */
async function assertDistinct(ctx: ActionContext, fields: UnitFields, exceptId?: string) {
  if (fields.name === undefined && fields.symbol === undefined) return;
  let qb = ctx.db
    .selectFrom('units')
    .select(['id', 'name', 'symbol'])
    .where('studio_id', '=', ctx.studioId)
    .where('archived_at', 'is', null);
  if (exceptId) qb = qb.where('id', '!=', exceptId);
  const taken = await qb
    .where((eb) =>
      eb.or([
        ...(fields.name !== undefined ? [eb(eb.fn('lower', ['name']), '=', fields.name.toLowerCase())] : []),
        ...(fields.symbol !== undefined ? [eb('symbol', '=', fields.symbol)] : []),
      ]),
    )
    .executeTakeFirst();
  if (!taken) return;
  const field = fields.name !== undefined && taken.name.toLowerCase() === fields.name.toLowerCase() ? 'name' : 'symbol';
  throw new ServiceError(
    'VALIDATION_FAILED',
    `The studio already has the unit ${taken.name} (${taken.symbol}, id ${taken.id}); use it, or choose another ${field}.`,
    { errors: [{ path: field, message: `Already used by the active unit ${taken.id}.` }] },
  );
}

export async function createUnit(ctx: ActionContext, fields: { name: string; symbol: string }) {
  await assertDistinct(ctx, fields);
  const row = UNIT_RECORD.newRow(fields, { id: newId(), ownerId: ctx.studioId, now: ctx.now });
  await ctx.db.insertInto('units').values(row).execute();
  ctx.audit({
    targetKind: 'unit',
    targetId: row.id,
    summary: `Created unit ${row.name} (${row.symbol})`,
    changes: { created: { from: null, to: `${row.name} (${row.symbol})` } },
  });
  return presentUnit(row, { isDefault: false, lineCount: 0 });
}

/** Writes a unit's columns through the one version-checked update, auditing what changed in API terms. */
function writeUnit(
  ctx: ActionContext,
  before: UnitRow,
  facts: { isDefault: boolean; lineCount: number },
  cols: object,
  verb: string,
) {
  return versionedUpdate(ctx, 'units', before, cols, {
    present: (row) => presentUnit(row, facts),
    audit: (after) => ({ targetKind: 'unit', summary: `${verb} unit ${after.name} (${after.symbol})` }),
  });
}

export async function updateUnit(ctx: ActionContext, unitId: string, patch: UnitFields) {
  const { unit, facts } = await loadUnit(ctx, unitId);
  if (unit.archived_at) {
    throw new ServiceError('ARCHIVED', 'This unit is archived; archived reference records do not change.');
  }
  const cols = UNIT_RECORD.patchColumns(patch);
  if (!Object.keys(cols).length) {
    throw new ServiceError('VALIDATION_FAILED', 'Give at least one field to change: name or symbol.', {
      errors: [{ path: '(input)', message: 'Nothing to change.' }],
    });
  }
  await assertDistinct(ctx, cols, unitId);
  return writeUnit(ctx, unit, facts, cols, 'Updated');
}

/**
 * Archives a unit. Lines measured in it keep it (they are history) and the answer says how many; new lines and edits
 * cannot choose it. The studio's default unit is what a line gets when it names none, so it cannot be archived.
 */
export async function archiveUnit(ctx: ActionContext, unitId: string) {
  const { unit, facts } = await loadUnit(ctx, unitId);
  if (unit.archived_at) throw new ServiceError('ALREADY_ARCHIVED', 'This unit is already archived.');
  if (facts.isDefault) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `${unit.name} (${unit.symbol}) is the studio's default unit, which new lines take when they name none, so it cannot be archived. Choose another default first (update_studio_settings with defaultUnitId), then archive it.`,
      { errors: [{ path: 'unitId', message: "The studio's default unit." }] },
    );
  }
  const shown = await writeUnit(ctx, unit, facts, { archived_at: ctx.now }, 'Archived');
  const n = facts.lineCount;
  return {
    ...shown,
    note:
      n > 0
        ? `${n} active line${n === 1 ? ' is' : 's are'} still measured in ${unit.symbol} and keep${n === 1 ? 's' : ''} it; new lines and edits cannot choose it.`
        : null,
  };
}
