import type { Kysely } from 'kysely';
import type { Database, LinesTable, SectionsTable } from '../../../db/schema.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { keysetPage, type KeysetSort, type PageRequest } from '../kit/keyset-page.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { nextCode } from '../schedule/codes.js';
import { copyOfLine } from '../schedule/line-record.js';
import { touchProject } from './projects.js';

/** A new, active section row at version 1. */
export function newSectionRow(projectId: string, title: string, position: number, now: string): SectionsTable {
  return {
    id: newId(),
    project_id: projectId,
    title,
    position,
    archived_at: null,
    created_at: now,
    updated_at: now,
    version: 1,
  };
}

export function presentSection(row: SectionsTable, lineCount: number) {
  return {
    id: row.id,
    projectId: row.project_id,
    title: row.title,
    position: row.position,
    lineCount,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    archived_at: row.archived_at,
  };
}
export type PresentedSection = ReturnType<typeof presentSection>;

/** Sections with their count of active lines, as one query. */
function sectionsWithCounts(db: Kysely<Database>, projectId: string) {
  return db
    .selectFrom('sections')
    .selectAll('sections')
    .select((eb) =>
      eb
        .selectFrom('lines')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('lines.section_id', '=', 'sections.id')
        .where('lines.archived_at', 'is', null)
        .as('line_count'),
    )
    .where('sections.project_id', '=', projectId);
}

/** A project's sections in order, each with its count of active lines. */
export async function listSections(db: Kysely<Database>, projectId: string, includeArchived: boolean) {
  let qb = sectionsWithCounts(db, projectId);
  if (!includeArchived) qb = qb.where('sections.archived_at', 'is', null);
  const rows = await qb.orderBy('sections.position').orderBy('sections.id').execute();
  return rows.map(({ line_count, ...r }) => presentSection(r, Number(line_count ?? 0)));
}

export interface ListSectionsQuery extends PageRequest {
  projectId: string;
  archived?: 'exclude' | 'include' | 'only';
}

const DOCUMENT_ORDER: KeysetSort = {
  name: 'sections',
  columns: [{ column: 'sections.position' }, { column: 'sections.id' }],
};

/** One page of a project's sections in document order. */
export async function listSectionsPage(ctx: ActionContext, query: ListSectionsQuery) {
  let qb = sectionsWithCounts(ctx.db, query.projectId);
  const archived = query.archived ?? 'exclude';
  if (archived === 'exclude') qb = qb.where('sections.archived_at', 'is', null);
  if (archived === 'only') qb = qb.where('sections.archived_at', 'is not', null);
  const { rows, nextCursor } = await keysetPage(qb, DOCUMENT_ORDER, query);
  return { items: rows.map(({ line_count, ...r }) => presentSection(r, Number(line_count ?? 0))), nextCursor };
}

export async function loadSection(db: Kysely<Database>, projectId: string, sectionId: string): Promise<SectionsTable> {
  const row = await db
    .selectFrom('sections')
    .selectAll()
    .where('id', '=', sectionId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!row) throw new ServiceError('NOT_FOUND', `No section ${sectionId} exists in this project.`);
  return row;
}

async function activeLineCount(db: Kysely<Database>, sectionId: string): Promise<number> {
  const r = await db
    .selectFrom('lines')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('section_id', '=', sectionId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export async function getSection(ctx: ActionContext, projectId: string, sectionId: string) {
  const row = await loadSection(ctx.db, projectId, sectionId);
  return presentSection(row, await activeLineCount(ctx.db, sectionId));
}

/** Section writes change what get_project shows, so they need a project that is not archived. */
function assertProjectActive(ctx: ActionContext) {
  if (ctx.project?.archived_at)
    throw new ServiceError('ARCHIVED', 'This project is archived; restore it before changing its sections.');
}

function assertSectionActive(row: SectionsTable) {
  if (row.archived_at)
    throw new ServiceError('ARCHIVED', 'This section is archived; archived sections cannot be changed.');
}

/**
 * Writes section positions so that the active sections run 1..n in `activeOrder`, and archived ones follow after them
 * (n+1 …) in their existing order: positions stay unique across the project, so document order (section position, then
 * line position) is total even when archived lines are listed. Positions are ordering, not content: as with lines, a
 * neighbour's shifted position does not bump its version. Only rows whose position changes are written.
 */
async function renumberSections(db: Kysely<Database>, projectId: string, activeOrder: readonly string[]) {
  const all = await db
    .selectFrom('sections')
    .select(['id', 'position', 'archived_at'])
    .where('project_id', '=', projectId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const archived = all.filter((s) => s.archived_at !== null).map((s) => s.id);
  const current = new Map(all.map((s) => [s.id, s.position]));
  for (const [i, id] of [...activeOrder, ...archived].entries()) {
    if (current.get(id) !== i + 1)
      await db
        .updateTable('sections')
        .set({ position: i + 1 })
        .where('id', '=', id)
        .execute();
  }
}

async function activeOrderOf(db: Kysely<Database>, projectId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('sections')
    .select('id')
    .where('project_id', '=', projectId)
    .where('archived_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Inserts a new section row at a 1-based position among the active sections (default: last) and renumbers. */
async function insertSection(
  ctx: ActionContext,
  projectId: string,
  title: string,
  position: number | undefined,
): Promise<SectionsTable> {
  const order = await activeOrderOf(ctx.db, projectId);
  const at = Math.min(Math.max(position ?? order.length + 1, 1), order.length + 1);
  const row = newSectionRow(projectId, title, 0, ctx.now);
  await ctx.db.insertInto('sections').values(row).execute();
  order.splice(at - 1, 0, row.id);
  await renumberSections(ctx.db, projectId, order);
  return { ...row, position: at };
}

export async function createSection(ctx: ActionContext, projectId: string, title: string, position?: number) {
  assertProjectActive(ctx);
  const row = await insertSection(ctx, projectId, title, position);
  await touchProject(ctx, projectId);
  ctx.audit({
    targetKind: 'section',
    targetId: row.id,
    projectId,
    summary: `Created section ${title}`,
    changes: { created: { from: null, to: title } },
  });
  return presentSection(row, 0);
}

/** Writes section columns, bumps its version (and the project's, whose representation embeds sections), records it. */
async function writeSection(ctx: ActionContext, before: SectionsTable, cols: Partial<SectionsTable>, verb: string) {
  const count = await activeLineCount(ctx.db, before.id);
  const shown = await versionedUpdate(ctx, 'sections', before, cols, {
    present: (row) => presentSection(row, count),
    audit: (after) => ({
      targetKind: 'section',
      projectId: before.project_id,
      summary: `${verb} section ${after.title}`,
    }),
  });
  await touchProject(ctx, before.project_id);
  return shown;
}

export async function updateSection(
  ctx: ActionContext,
  projectId: string,
  sectionId: string,
  patch: { title?: string },
) {
  assertProjectActive(ctx);
  const before = await loadSection(ctx.db, projectId, sectionId);
  assertSectionActive(before);
  const cols: Partial<SectionsTable> = {};
  if (patch.title !== undefined) cols.title = patch.title;
  if (!Object.keys(cols).length) {
    throw new ServiceError('VALIDATION_FAILED', 'Give at least one field to change (title).', {
      errors: [{ path: 'title', message: 'Nothing to change.' }],
    });
  }
  return writeSection(ctx, before, cols, 'Updated');
}

/**
 * Puts the project's active sections in the given order. The list must name every active section exactly once and
 * nothing else, so a caller working from a stale list is refused rather than half-applied. The expected version
 * checked by `invoke` is the project's; the project's version goes up by one.
 */
export async function reorderSections(ctx: ActionContext, projectId: string, sectionIds: readonly string[]) {
  assertProjectActive(ctx);
  const active = await activeOrderOf(ctx.db, projectId);
  const given = new Set(sectionIds);
  const problems: Array<{ path: string; message: string }> = [];
  if (given.size !== sectionIds.length)
    problems.push({ path: 'sectionIds', message: 'A section is named more than once.' });
  const activeSet = new Set(active);
  for (const [i, id] of sectionIds.entries()) {
    if (!activeSet.has(id))
      problems.push({ path: `sectionIds.${i}`, message: `Section ${id} is archived; list only active sections.` });
  }
  const missing = active.filter((id) => !given.has(id));
  if (missing.length)
    problems.push({ path: 'sectionIds', message: `Missing active section(s): ${missing.join(', ')}.` });
  if (problems.length) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      "Send the full list of the project's active sections, each exactly once, in the new order; read the project again for the current list.",
      { errors: problems },
    );
  }
  await renumberSections(ctx.db, projectId, sectionIds);
  await touchProject(ctx, projectId);
  ctx.audit({
    targetKind: 'project',
    targetId: projectId,
    projectId,
    summary: 'Reordered sections',
    changes: { sectionOrder: { from: active, to: [...sectionIds] } },
  });
}

/**
 * Archives an empty section. A section that still holds active lines is refused with SECTION_NOT_EMPTY rather than
 * archiving its lines along with it: archiving a line is visible to the client (it shows as a removed piece), so each
 * line's archival or move should be a deliberate act, not a side effect of tidying sections.
 */
export async function archiveSection(ctx: ActionContext, projectId: string, sectionId: string) {
  assertProjectActive(ctx);
  const before = await loadSection(ctx.db, projectId, sectionId);
  if (before.archived_at) throw new ServiceError('ALREADY_ARCHIVED', 'This section is already archived.');
  const n = await activeLineCount(ctx.db, sectionId);
  if (n > 0) {
    throw new ServiceError(
      'SECTION_NOT_EMPTY',
      `This section still holds ${n} active line${n === 1 ? '' : 's'}; move or archive ${n === 1 ? 'it' : 'them'} first, then archive the section.`,
      {
        extra: { activeLines: n },
      },
    );
  }
  const shown = await writeSection(ctx, before, { archived_at: ctx.now }, 'Archived');
  const order = (await activeOrderOf(ctx.db, projectId)).filter((id) => id !== sectionId);
  await renumberSections(ctx.db, projectId, order);
  const after = await loadSection(ctx.db, projectId, sectionId);
  return { ...shown, position: after.position };
}

/**
 * Copies lines into a section as new lines (new ids, version 1, positions 1..n in their source order). `code` decides
 * each copy's code: a fresh project code when copying within a project, the source's own code into a new project.
 */
export async function copyLines(
  ctx: ActionContext,
  sources: readonly LinesTable[],
  target: { projectId: string; sectionId: string },
  code: 'fresh' | 'keep',
) {
  const created: LinesTable[] = [];
  for (const [i, source] of sources.entries()) {
    const row = copyOfLine(source, ctx.now, {
      project_id: target.projectId,
      section_id: target.sectionId,
      position: i + 1,
      code: code === 'keep' ? source.code : await nextCode(ctx.db, ctx.studioId, target.projectId),
    });
    await ctx.db.insertInto('lines').values(row).execute();
    ctx.audit({
      targetKind: 'line',
      targetId: row.id,
      projectId: target.projectId,
      summary: `Copied line ${source.code ?? ''} ${source.heading}`.replace(/\s+/g, ' '),
      changes: { copiedFrom: { from: null, to: source.id } },
    });
    created.push(row);
  }
  return created;
}

export async function activeLinesOf(db: Kysely<Database>, sectionId: string): Promise<LinesTable[]> {
  return db
    .selectFrom('lines')
    .selectAll()
    .where('section_id', '=', sectionId)
    .where('archived_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** Copies a section and its active lines, placing the copy right after the source; copies get fresh codes. */
export async function duplicateSection(ctx: ActionContext, projectId: string, sectionId: string, title?: string) {
  assertProjectActive(ctx);
  const source = await loadSection(ctx.db, projectId, sectionId);
  assertSectionActive(source);
  // Right after the source among the active sections (its rank, not its raw position, names the slot).
  const rank = (await activeOrderOf(ctx.db, projectId)).indexOf(sectionId) + 1;
  const row = await insertSection(ctx, projectId, title ?? `${source.title} (copy)`, rank + 1);
  const copies = await copyLines(
    ctx,
    await activeLinesOf(ctx.db, sectionId),
    { projectId, sectionId: row.id },
    'fresh',
  );
  await touchProject(ctx, projectId);
  ctx.audit({
    targetKind: 'section',
    targetId: row.id,
    projectId,
    summary: `Duplicated section ${source.title} as ${row.title}`,
    changes: { duplicatedFrom: { from: null, to: source.id }, lineCount: { from: null, to: copies.length } },
  });
  return presentSection(row, copies.length);
}
