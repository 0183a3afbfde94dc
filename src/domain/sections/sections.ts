import { SECTION_RECORD, type SectionRow } from './record.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { keysetSort, namedSorts } from '../kit/keyset-page.js';
import { archivedFilter, defineListing, type ListingQuery, projectScope } from '../kit/listing.js';
import { insertSection } from './order.js';
import { activeLineCount, assertSectionActive, loadSection, touchProject, writeSection } from './section-record.js';
import { whereArchived } from '../kit/filters.js';

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
  return rows.map(({ line_count, ...r }) => SECTION_RECORD.present(r, { lineCount: Number(line_count ?? 0) }));
}

const DOCUMENT_ORDER = keysetSort('sections', 'sections.position', 'sections.id');
/** The orders a section list may ask for; without one it is document order. */
export const SECTION_SORTS = namedSorts(
  { title: { column: 'sections.title' }, createdAt: { column: 'sections.created_at' } },
  { column: 'sections.id' },
);

export const SECTION_LISTING = defineListing({
  filters: { ...projectScope, archived: archivedFilter('sections') },
  sorts: SECTION_SORTS,
  defaultSort: DOCUMENT_ORDER,
  defaultSays: 'document order',
});

/** One page of a project's sections in document order. */
export async function listSectionsPage(ctx: ActionContext, query: ListingQuery<typeof SECTION_LISTING>) {
  let qb = sectionsWithCounts(ctx.db, query.projectId);
  qb = whereArchived(qb, 'sections.archived_at', query.archived);
  const { rows, nextCursor } = await SECTION_LISTING.page(qb, query);
  return {
    items: rows.map(({ line_count, ...r }) => SECTION_RECORD.present(r, { lineCount: Number(line_count ?? 0) })),
    nextCursor,
  };
}

export async function getSection(ctx: ActionContext, projectId: string, sectionId: string) {
  const row = await loadSection(ctx.db, projectId, sectionId);
  return SECTION_RECORD.present(row, { lineCount: await activeLineCount(ctx.db, sectionId) });
}

export async function createSection(ctx: ActionContext, projectId: string, title: string, position?: number) {
  const row = await insertSection(ctx, projectId, title, position);
  await touchProject(ctx, projectId);
  ctx.audit({
    targetKind: 'section',
    targetId: row.id,
    projectId,
    summary: `Created section ${title}`,
    changes: { created: { from: null, to: title } },
  });
  return SECTION_RECORD.present(row, { lineCount: 0 });
}

export async function updateSection(
  ctx: ActionContext,
  projectId: string,
  sectionId: string,
  patch: { title?: string },
) {
  const before = await loadSection(ctx.db, projectId, sectionId);
  assertSectionActive(before);
  const cols: Partial<SectionRow> = {};
  if (patch.title !== undefined) cols.title = patch.title;
  if (!Object.keys(cols).length) {
    throw new ServiceError('VALIDATION_FAILED', 'Give at least one field to change (title).', {
      errors: [{ path: 'title', message: 'Nothing to change.' }],
    });
  }
  return writeSection(ctx, before, cols, 'Updated');
}
