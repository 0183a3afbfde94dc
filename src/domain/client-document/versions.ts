import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ActionContext } from '../../core/context.js';
import { canonicalJson } from '../../core/canonical-json.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { namedSorts } from '../kit/keyset-page.js';
import { defineListing, type ListingQuery, projectScope } from '../kit/listing.js';
import { livePhotographs, type PhotographSources } from './photographs.js';
import { projectDocument } from './projection.js';
import { CLIENT_DOCUMENT_VERSION_RECORD, type ClientDocumentVersionRow } from './record.js';

/** A version's summary as lists read it (not the document it kept); the whole version adds its document. */
const SUMMARY = [
  'v.id',
  'v.project_id',
  'v.number',
  'v.title',
  'v.piece_count',
  'v.minted_at',
  'v.minted_by',
  'u.name',
] as const;

/** A document as a version keeps it: the projection, as canonical JSON of the same value. */
type KeptDocument = Awaited<ReturnType<typeof projectDocument>>['document'];

/** A version as lists read it: the columns it shows and who minted it, with their name. */
type SummaryRow = Parameters<typeof CLIENT_DOCUMENT_VERSION_RECORD.present>[0] &
  Pick<ClientDocumentVersionRow, 'minted_by'> & { name: string };

const presentSummary = (r: SummaryRow) =>
  CLIENT_DOCUMENT_VERSION_RECORD.present(r, { mintedBy: { memberId: r.minted_by, name: r.name } });

const versions = (db: Kysely<Database>, projectId: string) =>
  db
    .selectFrom('client_document_versions as v')
    .innerJoin('members as m', 'm.id', 'v.minted_by')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .where('v.project_id', '=', projectId);

/**
 * Keeps what minting now gives as the project's next numbered version (1, 2, 3 …), pieces and photographs as of now;
 * never changed afterwards. The photographs' sources (original SHA-256 and rotation) are kept beside the document,
 * not in it, so the frozen images can be served later without the document saying how.
 */
export async function mintVersion(ctx: ActionContext, projectId: string) {
  const { document, sources } = await projectDocument(ctx, projectId, ctx.now, {
    byLine: await livePhotographs(ctx.db, projectId),
    asOf: ctx.now,
  });
  const last = await ctx.db
    .selectFrom('client_document_versions')
    .select((eb) => eb.fn.max('number').as('n'))
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  const row = CLIENT_DOCUMENT_VERSION_RECORD.newRow(
    {
      studioId: ctx.studioId,
      number: Number(last?.n ?? 0) + 1,
      title: document.title,
      pieceCount: document.totals.pieceCount,
      minter: ctx.caller!.memberId,
      document: canonicalJson(document),
      photographSources: canonicalJson(sources),
    },
    { id: newId(), ownerId: projectId, now: ctx.now },
  );
  await ctx.db.insertInto('client_document_versions').values(row).execute();
  ctx.audit({
    targetKind: 'client_document_version',
    targetId: row.id,
    projectId,
    summary: `Minted client document version ${row.number} (${row.piece_count} pieces)`,
    changes: { number: { from: null, to: row.number } },
  });
  return getVersion(ctx, projectId, row.number);
}

export const VERSION_SORTS = namedSorts({ number: { column: 'v.number' } }, { column: 'v.id', field: 'id' });

export const VERSION_LISTING = defineListing({
  filters: { ...projectScope },
  sorts: VERSION_SORTS,
  defaultSort: 'number',
  defaultSays: 'number, oldest first',
});

/** The project's minted versions, oldest first unless sorted otherwise; summaries only. */
export async function listVersions(ctx: Pick<ActionContext, 'db'>, query: ListingQuery<typeof VERSION_LISTING>) {
  const qb = versions(ctx.db, query.projectId).select(SUMMARY);
  const { rows, nextCursor } = await VERSION_LISTING.page(qb, query);
  return { versions: rows.map(presentSummary), nextCursor };
}

/** One minted version, whole, exactly as it was kept. */
export async function getVersion(ctx: Pick<ActionContext, 'db'>, projectId: string, number: number) {
  const row = await versions(ctx.db, projectId)
    .select([...SUMMARY, 'v.document'])
    .where('v.number', '=', number)
    .executeTakeFirst();
  if (!row) {
    throw new ServiceError(
      'NOT_FOUND',
      `This project has no client document version ${number}; list_client_document_versions lists the minted ones.`,
    );
  }
  return { ...presentSummary(row), document: JSON.parse(row.document) as KeptDocument };
}

/** The photographs the latest minted version froze, and when; no version yet: none. */
export async function frozenPhotographs(ctx: Pick<ActionContext, 'db'>, projectId: string) {
  const latest = await ctx.db
    .selectFrom('client_document_versions')
    .select(['minted_at', 'photograph_sources'])
    .where('project_id', '=', projectId)
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!latest) return { byLine: {}, asOf: null };
  return { byLine: JSON.parse(latest.photograph_sources) as PhotographSources, asOf: latest.minted_at };
}
