import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { namedSorts, sortNames } from '../kit/keyset-page.js';
import { archivedFilter, defineListing, type ListingQuery, textFilter } from '../kit/listing.js';
import { containsText } from '../kit/text-search.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { activeLinesOf } from '../schedule/copy.js';
import { defaultUnit } from '../schedule/lines.js';
import { listSections } from '../sections/sections.js';
import { assertWithinLimits, loadTemplate, presentTemplate, presentTemplateSummary } from './template-record.js';
import { whereArchived } from '../kit/filters.js';
import type { CreateFields, PatchFields } from '../kit/record.js';
import { type ProjectTemplateRow, TEMPLATE_RECORD, type TemplateSection, type TemplateSectionInput } from './record.js';

type TemplateFields = PatchFields<typeof TEMPLATE_RECORD.spec.fields>;

/** Sections as kept: every line complete (description '', 1 of the studio's default unit, draft unless said). */
async function completeSections(ctx: ActionContext, sections: readonly TemplateSectionInput[]) {
  let unit: string | undefined;
  const unitOf = async (given: string | undefined) => given ?? (unit ??= await defaultUnit(ctx.db, ctx.studioId));
  const complete: TemplateSection[] = [];
  for (const s of sections) {
    const lines = [];
    for (const l of s.lines ?? []) {
      lines.push({
        heading: l.heading,
        description: l.description ?? '',
        quantity: { amount4: l.quantity?.amount4 ?? '10000', unitId: await unitOf(l.quantity?.unitId) },
        status: l.status ?? 'draft',
      });
    }
    complete.push({ title: s.title, lines });
  }
  assertWithinLimits(complete);
  return complete;
}

export const TEMPLATE_SORTS = namedSorts(
  { name: { column: 'project_templates.name' }, createdAt: { column: 'project_templates.created_at' } },
  { column: 'project_templates.id' },
);
export const TEMPLATE_SORT_NAMES = sortNames(TEMPLATE_SORTS);

export const TEMPLATE_LISTING = defineListing({
  filters: { q: textFilter('name or description'), archived: archivedFilter('templates') },
  sorts: TEMPLATE_SORTS,
  defaultSort: 'name',
});

/** The studio's templates, by name unless `sort` says otherwise; archived ones only when asked. */
export async function listTemplates(ctx: ActionContext, query: ListingQuery<typeof TEMPLATE_LISTING>) {
  let qb = ctx.db.selectFrom('project_templates').selectAll().where('project_templates.studio_id', '=', ctx.studioId);
  qb = whereArchived(qb, 'project_templates.archived_at', query.archived);
  if (query.q) {
    const q = query.q;
    qb = qb.where((eb) => eb.or(containsText(['project_templates.name', 'project_templates.description'], q)));
  }
  const { rows, nextCursor } = await TEMPLATE_LISTING.page(qb, query);
  return { items: rows.map(presentTemplateSummary), nextCursor };
}

export async function getTemplate(ctx: ActionContext, templateId: string) {
  return presentTemplate(await loadTemplate(ctx, templateId));
}

async function insertTemplate(
  ctx: ActionContext,
  fields: { name: string; description?: string | undefined; sections: TemplateSection[] },
  changes: Record<string, { from: unknown; to: unknown }>,
) {
  const row = TEMPLATE_RECORD.newRow(fields, { id: newId(), ownerId: ctx.studioId, now: ctx.now });
  await ctx.db.insertInto('project_templates').values(row).execute();
  ctx.audit({
    targetKind: 'project_template',
    targetId: row.id,
    summary: `Created project template ${row.name}`,
    changes: { created: { from: null, to: row.name }, ...changes },
  });
  return presentTemplate(row);
}

export async function createTemplate(ctx: ActionContext, fields: CreateFields<typeof TEMPLATE_RECORD.spec.fields>) {
  return insertTemplate(ctx, { ...fields, sections: await completeSections(ctx, fields.sections) }, {});
}

/**
 * A template from a project as it stands: its active sections in order, each with its active lines' headings,
 * descriptions and quantities, starting as draft (prices, suppliers and codes stay with the project).
 */
export async function createTemplateFromProject(
  ctx: ActionContext,
  projectId: string,
  fields: { name?: string | undefined; description?: string | undefined },
) {
  const project = await ctx.db
    .selectFrom('projects')
    .select(['name'])
    .where('id', '=', projectId)
    .where('studio_id', '=', ctx.studioId)
    .executeTakeFirst();
  if (!project) throw new ServiceError('NOT_FOUND', `No project ${projectId} exists in your studio.`);
  const sections: TemplateSection[] = [];
  for (const section of await listSections(ctx.db, projectId, false)) {
    const lines = (await activeLinesOf(ctx.db, section.id)).map((l) => ({
      heading: l.heading,
      description: l.description,
      quantity: { amount4: l.quantity4, unitId: l.unit_id },
      status: 'draft' as const,
    }));
    sections.push({ title: section.title, lines });
  }
  if (!sections.length) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      'This project has no active sections to capture; add a section to it, or create the template with create_project_template.',
      { errors: [{ path: 'projectId', message: 'No active sections.' }] },
    );
  }
  assertWithinLimits(sections, 'projectId');
  return insertTemplate(
    ctx,
    { name: fields.name ?? project.name, description: fields.description, sections },
    { capturedFrom: { from: null, to: projectId } },
  );
}

export async function updateTemplate(ctx: ActionContext, templateId: string, patch: TemplateFields) {
  const before = await loadTemplate(ctx, templateId);
  if (before.archived_at) {
    throw new ServiceError('ARCHIVED', 'This template is archived; archived reference records do not change.');
  }
  const { sections, ...rest } = patch;
  const cols = TEMPLATE_RECORD.patchColumns({
    ...rest,
    ...(sections !== undefined ? { sections: await completeSections(ctx, sections) } : {}),
  });
  if (!Object.keys(cols).length) {
    throw new ServiceError('VALIDATION_FAILED', 'Give at least one field to change: name, description or sections.', {
      errors: [{ path: '(input)', message: 'Nothing to change.' }],
    });
  }
  return writeTemplate(ctx, before, cols, 'Updated');
}

export async function archiveTemplate(ctx: ActionContext, templateId: string) {
  const before = await loadTemplate(ctx, templateId);
  if (before.archived_at) throw new ServiceError('ALREADY_ARCHIVED', 'This template is already archived.');
  return writeTemplate(ctx, before, { archived_at: ctx.now }, 'Archived');
}

/** Writes a template's columns through the one version-checked update, auditing what changed in API terms. */
function writeTemplate(ctx: ActionContext, before: ProjectTemplateRow, cols: object, verb: string) {
  return versionedUpdate(ctx, 'project_templates', before, cols, {
    present: presentTemplate,
    audit: (after) => ({ targetKind: 'project_template', summary: `${verb} project template ${after.name}` }),
  });
}
