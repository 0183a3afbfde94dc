import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { LINE_RECORD, type LineFieldsInput, type LineRow, type LineUpdate } from './record.js';
import { type Currency, VALUE_STATES, type ValueState } from '../../../db/vocabulary.js';
import { z } from 'zod';
import type { ActionContext, Caller } from '../../core/context.js';
import { reachesAllProjects } from '../../core/permissions.js';
import { PROJECT_GRANT_READ } from '../projects/entity.js';
import type { ReadAhead } from '../../core/define-action.js';
import { ServiceError } from '../../core/errors.js';
import { copyOfLine, newLineRow, presentLine, type LinePresentation, type PresentedLine } from './line-record.js';
import { type ShownPropertyValue, valuesOfLines } from './line-values.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { keysetSort, namedSorts, sortNames } from '../kit/keyset-page.js';
import { archivedFilter, defineListing, type ListingQuery, projectScope, textFilter } from '../kit/listing.js';
import { refTo } from '../../core/schema-marks.js';
import { Id, LineStatus } from '../../core/values.js';
import { SECTION } from '../sections/entity.js';
import { SUPPLIER } from '../suppliers/entity.js';
import { containsText } from '../kit/text-search.js';
import { nextCode } from './codes.js';
import { whereArchived } from '../kit/filters.js';
import { assertActiveSupplier } from '../suppliers/active-supplier.js';
import { inProject } from '../kit/in-project.js';
import { copySpecifications, type LineSpecification, specificationsOfLines } from '../specifications/on-lines.js';
import { type LineOrdering, NOT_ORDERED, orderingOfLines } from '../purchase-orders/on-lines.js';
import type { Attached } from './line-record.js';

/** How many active custom properties a project has: none (the usual case) means no values to read. */
const PROPERTY_COUNT = `(SELECT count(*) FROM custom_properties cp WHERE cp.project_id = p.id AND cp.archived_at IS NULL)`;

const PRESENTATION = `
  SELECT p.currency, COALESCE(p.default_markup4, s.default_markup4) AS markup, ${PROPERTY_COUNT} AS property_count
  FROM projects p JOIN studios s ON s.id = p.studio_id WHERE p.id = ?`;

/**
 * The project's currency, the markup default in force for its lines, and the names of the suppliers and units the
 * given lines name. Raw one-row reads: every line read needs it.
 */
export async function presentationFor(
  ctx: Pick<ActionContext, 'queryRow' | 'db'>,
  projectId: string,
  rows: ReadonlyArray<Pick<LineRow, 'id' | 'supplier_id' | 'unit_id'>> = [],
  attached?: Attached,
): Promise<LinePresentation> {
  let p = shownInRequest.get(ctx)?.get(projectId);
  if (!p) {
    const row = await ctx.queryRow<{ currency: Currency; markup: string; property_count: number }>(
      PRESENTATION,
      projectId,
    );
    if (!row) throw new ServiceError('NOT_FOUND', `No project ${projectId} exists in your studio.`);
    p = remember(ctx, projectId, presentationOf(ctx, projectId, row.currency, row.markup, Number(row.property_count)));
  }
  await p.know(rows, attached);
  return p;
}

/**
 * Presentations a request has read, by project: `loadLine` reads a line together with its project's currency and
 * markup default and its supplier's and unit's names (one statement, where reading them apart took four), and the
 * presenter that follows finds them here. Per request (a context), so nothing outlives the transaction or snapshot
 * it was read in; no action changes a project's markup or currency and then presents its lines.
 */
const shownInRequest = new WeakMap<object, Map<string, ReadPresentation>>();

function remember(ctx: object, projectId: string, p: ReadPresentation): ReadPresentation {
  let byProject = shownInRequest.get(ctx);
  if (!byProject) shownInRequest.set(ctx, (byProject = new Map()));
  byProject.set(projectId, p);
  return p;
}

type KnownNames = { supplier?: [string, string | null]; unit?: [string, string | null] };

/** A presentation as this module keeps it: names read with a line are added as they come. */
interface ReadPresentation extends LinePresentation {
  add(names: KnownNames): void;
}

/** A presentation from what a query already read; further names and values are read as lines need them (`know`). */
function presentationOf(
  ctx: Pick<ActionContext, 'queryRow' | 'db'>,
  projectId: string,
  currency: Currency,
  markup: string,
  propertyCount: number,
  known: KnownNames = {},
): ReadPresentation {
  const suppliers = nameBook(ctx, 'SELECT name FROM suppliers WHERE id = ?');
  const units = nameBook(ctx, 'SELECT name FROM units WHERE id = ?');
  const values = new Map<string, ShownPropertyValue[]>();
  const specifications = new Map<string, LineSpecification[]>();
  const ordering = new Map<string, LineOrdering>();
  const p: ReadPresentation = {
    currency,
    defaultMarkup4: markup,
    async know(lines, attached) {
      await suppliers.learn(lines.map((l) => l.supplier_id));
      await units.learn(lines.map((l) => l.unit_id));
      // Values are read afresh for every line asked about: a write may have just changed them.
      const ids = lines.map((l) => l.id);
      if (propertyCount === 0) for (const id of ids) values.set(id, []);
      else for (const [id, shown] of await valuesOfLines(ctx.db, projectId, ids, currency)) values.set(id, shown);
      const specified = attached?.specifications === false ? [] : ids;
      for (const id of ids) specifications.set(id, []);
      for (const [id, shown] of await specificationsOfLines(ctx.db, projectId, specified))
        specifications.set(id, shown);
      // Read afresh like the values: a delivery recorded since changes it without the line's version moving.
      for (const id of ids) ordering.delete(id);
      if (attached?.ordering === false) return;
      for (const [id, o] of await orderingOfLines(ctx.db, projectId, ids)) ordering.set(id, o);
    },
    propertiesOf(lineId) {
      const shown = values.get(lineId);
      // A presenter that did not ask `know` first is a mistake in this code, not a line without values.
      if (!shown) throw new Error(`The property values of line ${lineId} were not read before it was presented.`);
      return shown;
    },
    specificationsOf(lineId) {
      const attached = specifications.get(lineId);
      if (!attached) throw new Error(`The specifications of line ${lineId} were not read before it was presented.`);
      return attached;
    },
    orderingOf: (lineId) => ordering.get(lineId) ?? NOT_ORDERED,
    add(names) {
      if (names.supplier) suppliers.add(...names.supplier);
      if (names.unit) units.add(...names.unit);
    },
    supplierName: suppliers.name,
    unitName: units.name,
  };
  p.add(known);
  return p;
}

/** Names by id, read once for the request: a schedule names the same few suppliers and units again and again. */
function nameBook(ctx: Pick<ActionContext, 'queryRow'>, sqlText: string) {
  const names = new Map<string, string | null>();
  return {
    add(id: string, name: string | null) {
      names.set(id, name);
    },
    async learn(ids: ReadonlyArray<string | null>) {
      for (const id of ids) {
        if (id === null || names.has(id)) continue;
        names.set(id, (await ctx.queryRow<{ name: string }>(sqlText, id))?.name ?? null);
      }
    },
    name(id: string): string | null {
      const name = names.get(id);
      // A presenter that did not ask `know` first is a mistake in this code, not a missing record.
      if (name === undefined) throw new Error(`The name of ${id} was not read before the line was presented.`);
      return name;
    },
  };
}

/**
 * A line with what it is shown with: its project's currency and markup default, its supplier's and unit's names.
 * Found by id alone, its project compared by the caller: PostgreSQL, asked for `id = ? AND project_id = ?` on a table
 * it has not analysed yet, may walk the project's index and filter every line of the project instead of taking the
 * primary key (measured: 200 µs instead of 30 for a 300-line project, on every GET and PATCH of a line).
 */
const lineShown = (attached = '', joined = '') => `
  SELECT l.*, p.currency AS shown_currency, COALESCE(p.default_markup4, s.default_markup4) AS shown_markup,
    sup.name AS shown_supplier, u.name AS shown_unit, ${PROPERTY_COUNT} AS shown_property_count${attached}
  FROM lines l
  JOIN projects p ON p.id = l.project_id
  JOIN studios s ON s.id = p.studio_id
  LEFT JOIN suppliers sup ON sup.id = l.supplier_id
  LEFT JOIN units u ON u.id = l.unit_id
  ${joined}
  WHERE l.id = ?`;
const LINE_SHOWN = lineShown();

/**
 * The line as a read shows it, with whether it has specifications attached and whether a purchase order names it (two
 * primary-key or indexed probes): a line with neither, the usual case, is presented without the two reads that would
 * find nothing. Only for a read that presents the line it loaded with nothing written in between (getLine): a write
 * could attach a specification after its load, so loadLine leaves them to be read. It answers its project's studio
 * too, so the project's ownership check reads nothing: a line with nothing attached is one statement, in no snapshot.
 */
const LINE_READ_COLUMNS = `, p.studio_id AS shown_project_studio,
    CASE WHEN EXISTS (SELECT 1 FROM line_specifications ls WHERE ls.line_id = l.id) THEN 1 ELSE 0 END AS shown_specified,
    CASE WHEN EXISTS (SELECT 1 FROM purchase_order_lines pol WHERE pol.line_id = l.id) THEN 1 ELSE 0 END AS shown_ordered`;
const LINE_READ = lineShown(LINE_READ_COLUMNS);
/** LINE_READ with the caller's grant on the line's project (its first parameter is the caller's member id). */
const LINE_READ_GRANTED = lineShown(
  `${LINE_READ_COLUMNS}, g.level AS shown_grant`,
  'LEFT JOIN project_grants g ON g.project_id = p.id AND g.member_id = ?',
);

type LineShownRow = LineRow & {
  shown_currency: Currency;
  shown_markup: string;
  shown_supplier: string | null;
  shown_unit: string | null;
  shown_property_count: number;
};
/** A row of LINE_SHOWN, or of LINE_READ with its two attachment flags. */
type LineReadRow = LineShownRow & { shown_specified?: number; shown_ordered?: number };

/** The read `loadLine` makes, for an action to send ahead of its handler (ActionSpec.readAhead). */
export const loadLineRead = (lineId: string): ReadAhead => ({
  sql: LINE_SHOWN,
  params: [lineId],
  // Every column of the line (l.*), its project among them: the line's ownership check reads nothing more.
  record: { table: 'lines', id: lineId },
});

/** The read `getLine` makes for this caller, for get_schedule_line to send ahead of its handler. */
export function getLineRead(projectId: string, lineId: string, caller: Caller): ReadAhead {
  const { sql, params } = lineReadFor(lineId, caller);
  const read: ReadAhead = { sql, params, record: { table: 'lines', id: lineId }, owners: PROJECT_OF_LINE, alone: true };
  // A caller who reaches a project only by a grant has it checked on every read: the line's row answers that too.
  if (sql === LINE_READ_GRANTED) read.answers = [grantOnProject(projectId, caller.memberId)];
  return read;
}

/** The line's project, joined into LINE_READ, answers its studio: the project's ownership check reads nothing. */
const PROJECT_OF_LINE = [{ table: 'projects', column: 'shown_project_studio', via: 'project_id' }] as const;

/** The caller's grant on the project, as PROJECT's access check reads it, from a LINE_READ_GRANTED row of that project. */
const grantOnProject = (projectId: string, memberId: string) => ({
  sql: PROJECT_GRANT_READ,
  params: [projectId, memberId],
  from: (row: Record<string, unknown>) =>
    row.project_id === projectId
      ? { row: row.shown_grant === null ? undefined : { level: row.shown_grant } }
      : undefined,
});

/**
 * The line's read for this caller: with the caller's grant on its project joined in when the caller reaches projects
 * by grant, so the project's access check needs no read of its own (a designer's GET is then one statement too).
 */
const lineReadFor = (lineId: string, caller: Caller | null) =>
  caller && !reachesAllProjects(caller.permissions)
    ? { sql: LINE_READ_GRANTED, params: [caller.memberId, lineId] }
    : { sql: LINE_READ, params: [lineId] };

export async function loadLine(
  ctx: Pick<ActionContext, 'queryRow' | 'db'>,
  projectId: string,
  lineId: string,
): Promise<LineRow> {
  return shownLine(ctx, projectId, lineId, await ctx.queryRow<LineReadRow>(LINE_SHOWN, lineId)).row;
}

/** The line's row without what it was read with, which the request's presentation of its project keeps. */
function shownLine(
  ctx: Pick<ActionContext, 'queryRow' | 'db'>,
  projectId: string,
  lineId: string,
  found: LineReadRow | undefined,
): { row: LineRow; attached?: Attached } {
  if (found?.project_id !== projectId) throw new ServiceError('NOT_FOUND', `No line ${lineId} exists in this project.`);
  // One copy of the row without what it was shown with (every GET and PATCH of a line passes here).
  const {
    shown_currency,
    shown_markup,
    shown_supplier,
    shown_unit,
    shown_property_count,
    shown_specified,
    shown_ordered,
    shown_project_studio: _studio,
    shown_grant: _grant,
    ...row
  } = found as typeof found & { shown_project_studio?: string; shown_grant?: string | null };
  const known = shownInRequest.get(ctx)?.get(projectId);
  const names = {
    ...(row.supplier_id !== null ? { supplier: [row.supplier_id, shown_supplier] as [string, string | null] } : {}),
    unit: [row.unit_id, shown_unit] as [string, string | null],
  };
  if (known) known.add(names);
  else
    remember(
      ctx,
      projectId,
      presentationOf(ctx, projectId, shown_currency, shown_markup, Number(shown_property_count), names),
    );
  if (shown_specified === undefined || shown_ordered === undefined) return { row };
  return { row, attached: { specifications: Number(shown_specified) === 1, ordering: Number(shown_ordered) === 1 } };
}

export async function getLine(ctx: ActionContext, projectId: string, lineId: string): Promise<PresentedLine> {
  const { sql, params } = lineReadFor(lineId, ctx.caller);
  const found = await ctx.queryRow<LineReadRow>(sql, ...params);
  // The usual line (no specification attached, on no purchase order, in a project without custom properties) came
  // whole in its row: it is presented from it, with no further read and nothing kept for the request.
  if (
    found?.project_id === projectId &&
    Number(found.shown_specified) === 0 &&
    Number(found.shown_ordered) === 0 &&
    Number(found.shown_property_count) === 0
  )
    return presentLine(found, new ShownWithRow(found));
  const { row, attached } = shownLine(ctx, projectId, lineId, found);
  return presentLine(row, await presentationFor(ctx, projectId, [row], attached));
}

/** What a line read whole (LINE_READ, nothing attached, no custom properties) is presented with: its own row. */
class ShownWithRow implements LinePresentation {
  constructor(private readonly row: LineReadRow) {}
  get currency() {
    return this.row.shown_currency;
  }
  get defaultMarkup4() {
    return this.row.shown_markup;
  }
  async know() {}
  supplierName() {
    return this.row.shown_supplier;
  }
  unitName() {
    return this.row.shown_unit;
  }
  propertiesOf(): ShownPropertyValue[] {
    return [];
  }
  specificationsOf(): LineSpecification[] {
    return [];
  }
  orderingOf() {
    return NOT_ORDERED;
  }
}

/** Archived records are read-only until restored. */
export function assertActive(row: { archived_at: string | null }, what = 'line') {
  if (row.archived_at) throw new ServiceError('ARCHIVED', `This ${what} is archived; restore it before changing it.`);
}

export async function activeSection(db: Kysely<Database>, projectId: string, sectionId: string) {
  const section = await inProject(db, 'sections', projectId, sectionId);
  if (!section) throw new ServiceError('NOT_FOUND', `No section ${sectionId} exists in this project.`);
  assertActive(section, 'section');
  return section;
}

export async function nextPosition(db: Kysely<Database>, sectionId: string): Promise<number> {
  const r = await db
    .selectFrom('lines')
    .select((eb) => eb.fn.max('position').as('p'))
    .where('section_id', '=', sectionId)
    .executeTakeFirst();
  return Number(r?.p ?? 0) + 1;
}

export async function defaultUnit(db: Kysely<Database>, studioId: string): Promise<string> {
  const s = await db.selectFrom('studios').select('default_unit_id').where('id', '=', studioId).executeTakeFirst();
  if (!s?.default_unit_id)
    throw new ServiceError('VALIDATION_FAILED', 'The studio has no default unit; give quantity.unitId.');
  return s.default_unit_id;
}

export interface CreateLineInput extends LineFieldsInput {
  projectId: string;
  sectionId: string;
  heading: string;
}

/** An archived unit stays on the lines measured in it, but is not chosen again (as with suppliers). */
async function assertActiveUnit(ctx: Pick<ActionContext, 'queryRow'>, unitId: string | null | undefined) {
  if (!unitId) return;
  const u = await ctx.queryRow<{ name: string; symbol: string; archived_at: string | null }>(
    'SELECT name, symbol, archived_at FROM units WHERE id = ?',
    unitId,
  );
  if (u?.archived_at) {
    throw new ServiceError(
      'ARCHIVED',
      `The unit ${u.name} (${u.symbol}) is archived; choose an active unit (list_units).`,
    );
  }
}

export async function createLine(ctx: ActionContext, input: CreateLineInput): Promise<PresentedLine> {
  const { projectId, sectionId, ...fields } = input;
  await activeSection(ctx.db, projectId, sectionId);
  const cols = LINE_RECORD.patchColumns(fields);
  await assertActiveSupplier(ctx, cols.supplier_id);
  await assertActiveUnit(ctx, cols.unit_id);
  const row = newLineRow(
    {
      project_id: projectId,
      section_id: sectionId,
      position: await nextPosition(ctx.db, sectionId),
      code: cols.code !== undefined ? cols.code : await nextCode(ctx.db, ctx.studioId, projectId, sectionId),
    },
    { ...cols, heading: fields.heading },
    cols.unit_id ?? (await defaultUnit(ctx.db, ctx.studioId)),
    ctx.now,
  );
  await ctx.db.insertInto('lines').values(row).execute();
  const line = presentLine(row, await presentationFor(ctx, projectId, [row]));
  ctx.audit({
    targetKind: 'line',
    targetId: row.id,
    projectId,
    summary: `Created line ${row.code ?? ''} ${row.heading}`.replace(/\s+/g, ' '),
    changes: { created: { from: null, to: row.heading } },
  });
  return line;
}

/** Applies a merge patch of line fields; the expected version was checked by `invoke`. */
export async function updateLine(
  ctx: ActionContext,
  projectId: string,
  lineId: string,
  patch: LineFieldsInput,
): Promise<PresentedLine> {
  return applyPatch(ctx, await loadLine(ctx, projectId, lineId), patch);
}

/** What changed beside a line's columns (its custom property values), in API terms, for its one audit event. */
export type ChangesBeside = Record<string, { from: unknown; to: unknown }>;

/**
 * A merge patch onto a loaded line (single and bulk updates share it); a quantity without a unit keeps the line's unit.
 * `beside` is what the same patch already wrote beside the line (custom property values, src/domain/schedule/
 * line-patch.ts): with the fields it moves the line one version on and joins their audit event. Nothing changed
 * either way (the same values again) is no write at all.
 */
export async function applyPatch(
  ctx: ActionContext,
  before: LineRow,
  patch: LineFieldsInput,
  beside?: ChangesBeside,
): Promise<PresentedLine> {
  assertActive(before);
  const cols = LINE_RECORD.patchColumns(patch);
  // A patch that names nothing at all is a mistake to say so (a /v1 PATCH with an empty body); values sent that
  // were already held are a write that changes nothing.
  if (!Object.keys(cols).length && beside === undefined)
    throw new ServiceError('VALIDATION_FAILED', 'The patch changes nothing; send at least one field to change.');
  if (!Object.keys(cols).length && !Object.keys(beside!).length) {
    ctx.unchanged();
    return presentLine(before, await presentationFor(ctx, before.project_id, [before]));
  }
  if (cols.unit_id === undefined && patch.quantity) cols.unit_id = before.unit_id;
  if (cols.supplier_id !== before.supplier_id) await assertActiveSupplier(ctx, cols.supplier_id);
  if (cols.unit_id !== before.unit_id) await assertActiveUnit(ctx, cols.unit_id);
  return writeLine(ctx, before, cols, 'Updated', beside);
}

/** Writes columns to a line, bumps its version, and records what changed in API terms. */
export async function writeLine(
  ctx: ActionContext,
  before: LineRow,
  cols: LineUpdate,
  verb: string,
  beside: ChangesBeside = {},
): Promise<PresentedLine> {
  const p = await presentationFor(ctx, before.project_id);
  return versionedUpdate(ctx, 'lines', before, cols, {
    present: async (row) => {
      await p.know([row]);
      return presentLine(row, p);
    },
    beside,
    audit: (after) => ({
      targetKind: 'line',
      projectId: before.project_id,
      summary: `${verb} line ${before.code ?? ''} ${after.heading}`.replace(/\s+/g, ' '),
    }),
  });
}

export async function archiveLine(ctx: ActionContext, projectId: string, lineId: string): Promise<PresentedLine> {
  const before = await loadLine(ctx, projectId, lineId);
  if (before.archived_at)
    throw new ServiceError('ALREADY_ARCHIVED', 'This line is already archived; a second archival changes nothing.');
  return writeLine(ctx, before, { archived_at: ctx.now }, 'Archived');
}

/**
 * Brings an archived line back, in its own section or, when `sectionId` names another (its own may have been archived
 * since, and sections are not restored), at the end of that one.
 */
export async function restoreLine(
  ctx: ActionContext,
  projectId: string,
  lineId: string,
  sectionId?: string,
): Promise<PresentedLine> {
  const before = await loadLine(ctx, projectId, lineId);
  if (!before.archived_at)
    throw new ServiceError('NOT_ARCHIVED', 'This line is not archived, so there is nothing to restore.');
  const target = sectionId ?? before.section_id;
  try {
    await activeSection(ctx.db, projectId, target);
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'ARCHIVED' && !sectionId) {
      throw new ServiceError(
        'ARCHIVED',
        "This line's section is archived; restore it into another section by giving sectionId.",
      );
    }
    throw err;
  }
  if (target === before.section_id) return writeLine(ctx, before, { archived_at: null }, 'Restored');
  const position = await nextPosition(ctx.db, target);
  await resequence(ctx.db, before.section_id, lineId);
  return writeLine(ctx, before, { archived_at: null, section_id: target, position }, 'Restored');
}

export async function duplicateLine(ctx: ActionContext, projectId: string, lineId: string): Promise<PresentedLine> {
  const source = await loadLine(ctx, projectId, lineId);
  assertActive(source);
  // The copy goes right after its source; later lines in the section shift down by one.
  await ctx.db
    .updateTable('lines')
    .set((eb) => ({ position: eb('position', '+', 1) }))
    .where('section_id', '=', source.section_id)
    .where('position', '>', source.position)
    .execute();
  const row = copyOfLine(source, ctx.now, {
    project_id: projectId,
    section_id: source.section_id,
    position: source.position + 1,
    code: await nextCode(ctx.db, ctx.studioId, projectId, source.section_id),
  });
  await ctx.db.insertInto('lines').values(row).execute();
  // Same project, same properties: the duplicate holds the source's custom property values too.
  await ctx.db
    .insertInto('line_property_values')
    .columns(['line_id', 'property_id', 'project_id', 'value', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('line_property_values')
        .select((e) => [
          e.val(row.id).as('line_id'),
          'property_id',
          'project_id',
          'value',
          e.val(ctx.now).as('updated_at'),
        ])
        .where('line_id', '=', source.id),
    )
    .execute();
  // And its library specifications, in the same order.
  await copySpecifications(ctx.db, source.id, row, ctx.now);
  ctx.audit({
    targetKind: 'line',
    targetId: row.id,
    projectId,
    summary: `Duplicated line ${source.code ?? source.heading} as ${row.code ?? ''}`.trim(),
    changes: { duplicatedFrom: { from: null, to: source.id } },
  });
  return presentLine(row, await presentationFor(ctx, projectId, [row]));
}

/** Moves a line within its section or to another section of the same project, to a 1-based position (default: last). */
export async function moveLine(
  ctx: ActionContext,
  projectId: string,
  lineId: string,
  sectionId: string,
  position: number | undefined,
): Promise<PresentedLine> {
  const before = await loadLine(ctx, projectId, lineId);
  assertActive(before);
  await activeSection(ctx.db, projectId, sectionId);
  const others = await ctx.db
    .selectFrom('lines')
    .select(['id', 'position'])
    .where('section_id', '=', sectionId)
    .where('id', '!=', lineId)
    .orderBy('position')
    .execute();
  const at = Math.min(Math.max(position ?? others.length + 1, 1), others.length + 1);
  const order = others.map((o) => o.id);
  order.splice(at - 1, 0, lineId);
  for (const [i, id] of order.entries()) {
    if (id !== lineId && others.find((o) => o.id === id)?.position !== i + 1) {
      await ctx.db
        .updateTable('lines')
        .set({ position: i + 1 })
        .where('id', '=', id)
        .execute();
    }
  }
  if (sectionId !== before.section_id) await resequence(ctx.db, before.section_id, lineId);
  return writeLine(ctx, before, { section_id: sectionId, position: at }, 'Moved');
}

/** Closes the gap a departing line leaves, without touching versions (positions are ordering, not content). */
async function resequence(db: Kysely<Database>, sectionId: string, skip?: string) {
  const rows = await db
    .selectFrom('lines')
    .select(['id', 'position'])
    .where('section_id', '=', sectionId)
    .orderBy('position')
    .execute();
  let n = 0;
  for (const r of rows) {
    if (r.id === skip) continue;
    n += 1;
    if (r.position !== n) await db.updateTable('lines').set({ position: n }).where('id', '=', r.id).execute();
  }
}

/** Document order: section order, then position within the section. The default when no `sort` is given. */
const DOCUMENT_ORDER = keysetSort(
  'document',
  { column: 'sections.position', field: 'section_position' },
  'lines.position',
  'lines.id',
);

const LINE_SORT = namedSorts(
  {
    // A code may be NULL: coalesced so that NULL and '' codes page without gaps.
    code: { column: 'lines.code', nullAs: '' },
    heading: { column: 'lines.heading' },
    createdAt: { column: 'lines.created_at' },
    updatedAt: { column: 'lines.updated_at' },
  },
  { column: 'lines.id' },
);

/**
 * The price states a list keeps: one, or several (over /v1, the parameter repeated). A line is kept when its trade
 * price, or its client price set by hand, is in one of them; a client price not set by hand follows the trade price.
 */
const PriceState = z.enum(VALUE_STATES); // ValueState without its description: tools/list's budget
const PriceStates = z
  .union([PriceState, z.array(PriceState).min(1).max(VALUE_STATES.length)], {
    error: `Use one or more of ${VALUE_STATES.join(', ')}: one state, or a list of them.`,
  })
  .describe('A state, or a list: lines whose trade or client price is in one.');

/** One project's schedule lines: filters, sort (none: document order) and paging. */
export const LINE_LISTING = defineListing({
  filters: {
    ...projectScope,
    sectionId: refTo(Id, SECTION).optional().describe('Only lines in this section.'),
    status: LineStatus.optional(),
    supplierId: refTo(Id, SUPPLIER).optional(),
    priceState: PriceStates.optional(),
    archived: archivedFilter('lines'),
    q: textFilter('heading, description, code, brand, finish or supplier'),
  },
  sorts: LINE_SORT,
  defaultSort: DOCUMENT_ORDER,
  defaultSays: 'document order',
});
type ListLinesQuery = ListingQuery<typeof LINE_LISTING>;
export const LINE_SORTS = sortNames(LINE_SORT);

/** The states a priceState filter names: one, or a list. */
const priceStates = (sent: ValueState | readonly ValueState[]): ValueState[] =>
  typeof sent === 'string' ? [sent] : [...sent];

/** Lines in document order unless `sort` says otherwise, one keyset page at a time. */
export async function listLines(ctx: ActionContext, query: ListLinesQuery) {
  let qb = ctx.db
    .selectFrom('lines')
    .innerJoin('sections', 'sections.id', 'lines.section_id')
    .selectAll('lines')
    .select(['sections.position as section_position', 'sections.title as section_title'])
    .where('lines.project_id', '=', query.projectId);
  if (query.sectionId) qb = qb.where('lines.section_id', '=', query.sectionId);
  if (query.status) qb = qb.where('lines.status', '=', query.status);
  if (query.supplierId) qb = qb.where('lines.supplier_id', '=', query.supplierId);
  if (query.priceState) {
    const states = priceStates(query.priceState);
    // The client price's state is its own when set by hand, else the trade price's (it is derived from it). A caller
    // without pricing:read sees only the client price, so only its state may decide what they get back: matching on
    // the hidden trade state would tell them what it is.
    const seesTrade = ctx.caller?.permissions.has('pricing:read') ?? false;
    qb = qb.where((eb) =>
      eb.or([
        eb.and([eb('lines.client_state', 'is not', null), eb('lines.client_state', 'in', states)]),
        seesTrade
          ? eb('lines.trade_state', 'in', states)
          : eb.and([eb('lines.client_state', 'is', null), eb('lines.trade_state', 'in', states)]),
      ]),
    );
  }
  qb = whereArchived(qb, 'lines.archived_at', query.archived);
  if (query.q) {
    const q = query.q;
    qb = qb.where((eb) =>
      eb.or([
        ...containsText(
          ['lines.heading', 'lines.description', 'lines.code', 'lines.brand', 'lines.product_code', 'lines.finish'],
          q,
        ),
        eb(
          'lines.supplier_id',
          'in',
          eb
            .selectFrom('suppliers')
            .select('suppliers.id')
            .where('suppliers.studio_id', '=', ctx.studioId)
            .where((e) => e.or(containsText(['suppliers.name'], q))),
        ),
      ]),
    );
  }
  const { rows, nextCursor } = await LINE_LISTING.page(qb, query);
  const p = await presentationFor(ctx, query.projectId, rows);
  // The rooms of this page's lines, named once beside the items rather than on each line: a line's representation (and
  // its ETag) stays the line's own, so renaming a room never makes every line in it look changed.
  const sections = new Map<string, string>();
  for (const r of rows) if (!sections.has(r.section_id)) sections.set(r.section_id, r.section_title);
  return {
    // Presented from the rows as read: the presenter reads the line's own columns, not the section's beside them.
    items: rows.map((r) => presentLine(r, p)),
    nextCursor,
    sections: [...sections].map(([id, title]) => ({ id, title })),
  };
}
