import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { namedSorts, sortNames } from '../kit/keyset-page.js';
import { archivedFilter, defineListing, type ListingQuery, textFilter } from '../kit/listing.js';
import { containsText } from '../kit/text-search.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { whereArchived } from '../kit/filters.js';
import type { CreateFields, PatchFields } from '../kit/record.js';
import { CLIENT_RECORD, type ClientRow } from './record.js';

/** A client as the API shows it. */
export const presentClient = (row: ClientRow) => CLIENT_RECORD.present(row, {});
export type PresentedClient = ReturnType<typeof presentClient>;

export const CLIENT_SORTS = namedSorts(
  { name: { column: 'clients.name' }, createdAt: { column: 'clients.created_at' } },
  { column: 'clients.id' },
);
export const CLIENT_SORT_NAMES = sortNames(CLIENT_SORTS);

export const CLIENT_LISTING = defineListing({
  filters: { q: textFilter('name, email or phone'), archived: archivedFilter('clients') },
  sorts: CLIENT_SORTS,
  defaultSort: 'name',
});

/** The studio's clients, by name unless `sort` says otherwise; archived ones only when asked. */
export async function listClients(ctx: ActionContext, query: ListingQuery<typeof CLIENT_LISTING>) {
  let qb = ctx.db.selectFrom('clients').selectAll('clients').where('clients.studio_id', '=', ctx.studioId);
  qb = whereArchived(qb, 'clients.archived_at', query.archived);
  if (query.q) {
    const q = query.q;
    qb = qb.where((eb) => eb.or(containsText(['clients.name', 'clients.email', 'clients.phone'], q)));
  }
  const { rows, nextCursor } = await CLIENT_LISTING.page(qb, query);
  return { items: rows.map(presentClient), nextCursor };
}

async function loadClient(ctx: Pick<ActionContext, 'db' | 'studioId'>, clientId: string): Promise<ClientRow> {
  const row = await ctx.db
    .selectFrom('clients')
    .selectAll()
    .where('id', '=', clientId)
    .where('studio_id', '=', ctx.studioId)
    .executeTakeFirst();
  if (!row) throw new ServiceError('NOT_FOUND', `No client ${clientId} exists in your studio.`);
  return row;
}

export async function getClient(ctx: ActionContext, clientId: string) {
  return presentClient(await loadClient(ctx, clientId));
}

export async function createClient(ctx: ActionContext, fields: CreateFields<typeof CLIENT_RECORD.spec.fields>) {
  const row = CLIENT_RECORD.newRow(fields, { id: newId(), ownerId: ctx.studioId, now: ctx.now });
  await ctx.db.insertInto('clients').values(row).execute();
  ctx.audit({
    targetKind: 'client',
    targetId: row.id,
    summary: `Created client ${row.name}`,
    changes: { created: { from: null, to: row.name } },
  });
  return presentClient(row);
}

/** Writes a client's columns through the one version-checked update, auditing what changed in API terms. */
function writeClient(ctx: ActionContext, before: ClientRow, cols: object, verb: string) {
  return versionedUpdate(ctx, 'clients', before, cols, {
    present: presentClient,
    audit: (after) => ({ targetKind: 'client', summary: `${verb} client ${after.name}` }),
  });
}

export async function updateClient(
  ctx: ActionContext,
  clientId: string,
  patch: PatchFields<typeof CLIENT_RECORD.spec.fields>,
) {
  const before = await loadClient(ctx, clientId);
  if (before.archived_at) {
    throw new ServiceError('ARCHIVED', 'This client is archived; archived reference records do not change.');
  }
  const cols = CLIENT_RECORD.patchColumns(patch);
  if (!Object.keys(cols).length) {
    throw new ServiceError('VALIDATION_FAILED', 'Give at least one field to change.', {
      errors: [{ path: '(input)', message: 'Nothing to change.' }],
    });
  }
  return writeClient(ctx, before, cols, 'Updated');
}

/** Active projects (of any member, reachable or not) that name the client. */
async function activeProjectCount(ctx: ActionContext, clientId: string): Promise<number> {
  const r = await ctx.db
    .selectFrom('projects')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('client_id', '=', clientId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Archives a client. Projects that name it keep it (they are history); the answer says how many active ones do. */
export async function archiveClient(ctx: ActionContext, clientId: string) {
  const before = await loadClient(ctx, clientId);
  if (before.archived_at) throw new ServiceError('ALREADY_ARCHIVED', 'This client is already archived.');
  const n = await activeProjectCount(ctx, clientId);
  const shown = await writeClient(ctx, before, { archived_at: ctx.now }, 'Archived');
  return {
    ...shown,
    note:
      n > 0
        ? `${n} active project${n === 1 ? ' still names' : 's still name'} this client and keep${n === 1 ? 's' : ''} it; new projects and edits cannot choose it.`
        : null,
  };
}

/**
 * The client a project is to be linked to, by id (`invoke` has proved it is the studio's). A project may newly name
 * only an active client; one already linked to an archived client keeps it.
 */
export async function clientToLink(ctx: ActionContext, clientId: string, currentClientId: string | null) {
  const client = await loadClient(ctx, clientId);
  if (client.archived_at && client.id !== currentClientId) {
    throw new ServiceError(
      'ARCHIVED',
      `The client ${client.name} is archived; choose an active client (list_clients) or create one (create_client).`,
    );
  }
  return client;
}
