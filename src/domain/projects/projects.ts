import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { PROJECT_STATUSES } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { reachesAllProjects } from '../../core/permissions.js';
import { keysetSort, namedSorts, sortNames } from '../kit/keyset-page.js';
import { defineListing, type ListingQuery, textFilter } from '../kit/listing.js';
import { z } from 'zod';
import { refTo } from '../../core/schema-marks.js';
import { Id } from '../../core/values.js';
import { CLIENT } from '../clients/entity.js';
import { containsText } from '../kit/text-search.js';
import { activeLinesOf, copyLines } from '../schedule/copy.js';
import { newSectionRow } from '../sections/section-record.js';
import { listSections } from '../sections/sections.js';
import { startFromTemplate } from '../templates/instantiate.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { clientToLink } from '../clients/clients.js';
import type { CreateFields, PatchFields } from '../kit/record.js';
import { PROJECT_RECORD, type ProjectRow } from './record.js';
import { PROJECT_GRANT_RECORD } from './grant-record.js';

type ProjectUpdate = Partial<ProjectRow>;

/**
 * A project as the API shows it, with the current name of the client it is linked to (shown as clientName: see
 * PROJECT_RECORD).
 */
export const presentProject = (row: ProjectRow, linkedClientName: string | null) => {
  const joined: ProjectRow & { linked_client_name: string | null } = { ...row, linked_client_name: linkedClientName };
  return PROJECT_RECORD.present(joined, {});
};

/** The name of a linked client, by id; null for none. */
async function linkedClientName(ctx: Pick<ActionContext, 'queryRow'>, clientId: string | null) {
  if (!clientId) return null;
  const c = await ctx.queryRow<{ name: string }>('SELECT name FROM clients WHERE id = ?', clientId);
  return c?.name ?? null;
}

/** A project row as the API shows it, with its linked client's current name. */
export const showProject = async (ctx: Pick<ActionContext, 'queryRow'>, row: ProjectRow) =>
  presentProject(row, await linkedClientName(ctx, row.client_id));

export async function loadProject(db: Kysely<Database>, studioId: string, projectId: string): Promise<ProjectRow> {
  const row = await db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', projectId)
    .where('studio_id', '=', studioId)
    .executeTakeFirst();
  if (!row) throw new ServiceError('NOT_FOUND', `No project ${projectId} exists in your studio.`);
  return row;
}

export async function getProjectWithSections(ctx: ActionContext, projectId: string) {
  const project = await loadProject(ctx.db, ctx.studioId, projectId);
  return { ...(await showProject(ctx, project)), sections: await listSections(ctx.db, projectId, false) };
}

const NEWEST_FIRST = keysetSort('projects', '-projects.created_at', '-projects.id');
/** The orders a project list may ask for; without one it is newest first. */
export const PROJECT_SORTS = namedSorts(
  {
    name: { column: 'projects.name' },
    createdAt: { column: 'projects.created_at' },
    updatedAt: { column: 'projects.updated_at' },
  },
  { column: 'projects.id' },
);
export const PROJECT_SORT_NAMES = sortNames(PROJECT_SORTS);

/** The projects the caller can reach: status, client and text filters, and paging. */
export const PROJECT_LISTING = defineListing({
  filters: {
    status: z.enum(PROJECT_STATUSES).optional(),
    clientId: refTo(Id, CLIENT).optional(),
    q: textFilter('name, reference or client'),
  },
  sorts: PROJECT_SORTS,
  defaultSort: NEWEST_FIRST,
  defaultSays: 'newest first',
});

/** The studio's projects the caller can reach (all of them with workspace:manage, else the granted ones), newest first. */
export async function listProjects(ctx: ActionContext, query: ListingQuery<typeof PROJECT_LISTING>) {
  const caller = ctx.caller!;
  let qb = ctx.db
    .selectFrom('projects')
    .leftJoin('clients', 'clients.id', 'projects.client_id')
    .selectAll('projects')
    .select('clients.name as linked_client_name')
    .where('projects.studio_id', '=', ctx.studioId);
  if (!reachesAllProjects(caller.permissions)) {
    qb = qb.where(
      'projects.id',
      'in',
      ctx.db.selectFrom('project_grants').select('project_id').where('member_id', '=', caller.memberId),
    );
  }
  if (query.status) qb = qb.where('projects.status', '=', query.status);
  if (query.clientId) qb = qb.where('projects.client_id', '=', query.clientId);
  if (query.q) {
    const q = query.q;
    // The client as shown: the linked client's current name, or the label of a project linked to none.
    qb = qb.where((eb) =>
      eb.or([
        ...containsText(['projects.name', 'projects.reference', 'clients.name'], q),
        eb.and([eb('projects.client_id', 'is', null), ...containsText(['projects.client_name'], q)]),
      ]),
    );
  }
  const { rows, nextCursor } = await PROJECT_LISTING.page(qb, query);
  return { items: rows.map(({ linked_client_name, ...row }) => presentProject(row, linked_client_name)), nextCursor };
}

/** What a new project is made from: fresh fields or a source project's. */
type ProjectFields = Pick<
  ProjectRow,
  'name' | 'reference' | 'client_id' | 'client_name' | 'currency' | 'default_markup4'
>;

/** A new, active project at version 1, made by the caller now. */
function newProjectRow(ctx: ActionContext, f: ProjectFields): ProjectRow {
  const defaultMarkup = f.default_markup4 === null ? null : { ratio4: f.default_markup4 };
  return PROJECT_RECORD.newRow(
    {
      name: f.name,
      reference: f.reference,
      clientId: f.client_id,
      clientName: f.client_name,
      currency: f.currency,
      defaultMarkup,
      createdBy: ctx.caller!.memberId,
    },
    { id: newId(), ownerId: ctx.studioId, now: ctx.now },
  );
}

/** A new project row, and the `edit` grant that makes its creator able to work on it whatever their role. */
async function insertProject(ctx: ActionContext, row: ProjectRow) {
  await ctx.db.insertInto('projects').values(row).execute();
  await ctx.db
    .insertInto('project_grants')
    .values(
      PROJECT_GRANT_RECORD.newRow({ memberId: ctx.caller!.memberId, level: 'edit' }, { ownerId: row.id, now: ctx.now }),
    )
    .execute();
}

/** How callers name a project's client: a client record by id, or (the older way) a name. */
interface ClientChoice {
  clientId?: string | null;
  clientName?: string | null;
}

/**
 * The client columns a create or update writes. clientId links a client record (null unlinks) and records its name.
 * clientName is kept for callers that predate client records: on a project linked to no client it sets a plain label,
 * as it always did; on a linked project it may only repeat the client's name (null unlinks), since the name shown is
 * the client's own. Sent with clientId, it must be that client's name.
 */
async function clientColumns(
  ctx: ActionContext,
  current: Pick<ProjectRow, 'client_id'> | null,
  { clientId, clientName }: ClientChoice,
): Promise<Pick<ProjectUpdate, 'client_id' | 'client_name'>> {
  if (clientId === null) return { client_id: null, client_name: clientName ?? null };
  if (clientId !== undefined) {
    const client = await clientToLink(ctx, clientId, current?.client_id ?? null);
    if (clientName !== undefined && clientName?.trim() !== client.name) {
      throw new ServiceError(
        'VALIDATION_FAILED',
        `clientName shows the linked client's name (${client.name}); send clientId alone, or rename the client with update_client.`,
        { errors: [{ path: 'clientName', message: 'Differs from the name of the client clientId names.' }] },
      );
    }
    return { client_id: client.id, client_name: client.name };
  }
  if (clientName === undefined) return {};
  if (!current?.client_id) return { client_name: clientName };
  if (clientName === null) return { client_id: null, client_name: null };
  const linked = await linkedClientName(ctx, current.client_id);
  if (clientName.trim() === linked) return { client_name: linked };
  throw new ServiceError(
    'VALIDATION_FAILED',
    `This project is linked to the client ${linked}, whose name it shows. To name another client send its clientId (list_clients, or create_client for a new one); to correct the name use update_client; clientId null unlinks it.`,
    { errors: [{ path: 'clientName', message: 'The project is linked to a client record; use clientId.' }] },
  );
}

type Fields = typeof PROJECT_RECORD.spec.fields;

export interface CreateProjectInput extends CreateFields<Fields> {
  sections?: string[];
  /** A template whose sections and starting lines the project begins with (instead of `sections`). */
  templateId?: string;
}

/** Creates a project, its first sections (or a template's, with their lines), and an `edit` grant for its creator. */
export async function createProject(ctx: ActionContext, input: CreateProjectInput) {
  if (input.sections && input.templateId) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      'Send sections or templateId, not both: a template brings its own sections. Drop one and send the request again.',
      { errors: [{ path: 'templateId', message: 'Not taken together with sections.' }] },
    );
  }
  const studio = await ctx.db
    .selectFrom('studios')
    .select(['currency'])
    .where('id', '=', ctx.studioId)
    .executeTakeFirstOrThrow();
  const client = await clientColumns(ctx, null, input);
  const row = newProjectRow(ctx, {
    name: input.name,
    reference: input.reference ?? null,
    client_id: client.client_id ?? null,
    client_name: client.client_name ?? null,
    currency: input.currency ?? studio.currency,
    default_markup4: input.defaultMarkup?.ratio4 ?? null,
  });
  await insertProject(ctx, row);
  const titles = input.templateId ? [] : (input.sections ?? ['General']);
  for (const [i, title] of titles.entries()) {
    await ctx.db
      .insertInto('sections')
      .values(newSectionRow(row.id, title, i + 1, ctx.now))
      .execute();
  }
  ctx.audit({
    targetKind: 'project',
    targetId: row.id,
    projectId: row.id,
    summary: `Created project ${row.name}`,
    changes: {
      created: { from: null, to: row.name },
      ...(input.templateId ? { fromTemplate: { from: null, to: input.templateId } } : {}),
    },
  });
  if (input.templateId) await startFromTemplate(ctx, row.id, input.templateId);
  return { ...(await showProject(ctx, row)), sections: await listSections(ctx.db, row.id, false) };
}

export type ProjectPatch = PatchFields<Fields>;

/** Writes project columns, bumps the version and records the change. */
export async function writeProject(ctx: ActionContext, before: ProjectRow, cols: ProjectUpdate, verb: string) {
  return versionedUpdate(ctx, 'projects', before, cols, {
    present: (row) => showProject(ctx, row),
    audit: (after) => ({ targetKind: 'project', projectId: before.id, summary: `${verb} project ${after.name}` }),
  });
}

export async function updateProject(ctx: ActionContext, projectId: string, patch: ProjectPatch) {
  const before = await loadProject(ctx.db, ctx.studioId, projectId);
  const { clientId: _id, clientName: _name, ...rest } = patch;
  const cols: ProjectUpdate = {
    ...PROJECT_RECORD.patchColumns(rest),
    ...(await clientColumns(ctx, before, patch)),
  };
  if (!Object.keys(cols).length) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      'Give at least one field to change: name, reference, clientId, currency or defaultMarkup.',
      {
        errors: [{ path: '(body)', message: 'Nothing to change.' }],
      },
    );
  }
  if (cols.currency !== undefined && cols.currency !== before.currency && (await hasSetPrice(ctx.db, projectId))) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `Lines of this project carry prices in ${before.currency}; amounts are never converted, so the currency can change only while no line has a set price.`,
      {
        errors: [{ path: 'currency', message: `Priced lines exist in ${before.currency}.` }],
      },
    );
  }
  return writeProject(ctx, before, cols, 'Updated');
}

/** Whether any line (archived ones too: they still show as removed pieces) has one of its four prices set. */
async function hasSetPrice(db: Kysely<Database>, projectId: string): Promise<boolean> {
  const row = await db
    .selectFrom('lines')
    .select('id')
    .where('project_id', '=', projectId)
    .where((eb) =>
      eb.or([
        eb('trade_state', '=', 'set'),
        eb('retail_state', '=', 'set'),
        eb('client_state', '=', 'set'),
        eb('delivery_state', '=', 'set'),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export interface DuplicateProjectInput {
  name?: string;
  reference?: string | null;
}

/**
 * A new project with the source's details, its active sections in order and their active lines (new ids, version 1,
 * codes kept since codes are per project). Archived sections and lines stay behind; grants are not copied: the caller
 * is granted edit, as for any new project. The source may be archived; the copy is active.
 */
export async function duplicateProject(ctx: ActionContext, projectId: string, input: DuplicateProjectInput) {
  const source = await loadProject(ctx.db, ctx.studioId, projectId);
  const row = newProjectRow(ctx, {
    ...source,
    name: input.name ?? `${source.name} (copy)`,
    reference: input.reference ?? null,
  });
  await insertProject(ctx, row);
  ctx.audit({
    targetKind: 'project',
    targetId: row.id,
    projectId: row.id,
    summary: `Duplicated project ${source.name} as ${row.name}`,
    changes: { duplicatedFrom: { from: null, to: source.id } },
  });
  for (const [i, section] of (await listSections(ctx.db, projectId, false)).entries()) {
    const sectionId = newId();
    await ctx.db
      .insertInto('sections')
      .values({ ...newSectionRow(row.id, section.title, i + 1, ctx.now), id: sectionId })
      .execute();
    await copyLines(ctx, await activeLinesOf(ctx.db, section.id), { projectId: row.id, sectionId }, 'keep');
  }
  return { ...(await showProject(ctx, row)), sections: await listSections(ctx.db, row.id, false) };
}

export async function archiveProject(ctx: ActionContext, projectId: string) {
  const before = await loadProject(ctx.db, ctx.studioId, projectId);
  if (before.archived_at) throw new ServiceError('ALREADY_ARCHIVED', 'This project is already archived.');
  return writeProject(ctx, before, { archived_at: ctx.now, status: 'archived' }, 'Archived');
}

export async function restoreProject(ctx: ActionContext, projectId: string) {
  const before = await loadProject(ctx.db, ctx.studioId, projectId);
  if (!before.archived_at)
    throw new ServiceError('NOT_ARCHIVED', 'This project is active, so there is nothing to restore.');
  return writeProject(ctx, before, { archived_at: null, status: 'active' }, 'Restored');
}
