/**
 * Issued revisions of a document (an estimate now, a purchase order next): immutable domain objects, never the
 * record's `version`. Issuing freezes content as canonical JSON with its SHA-256 digest under the next number
 * (N + 1) and supersedes the current one (N), in the issuing transaction. Afterwards only a revision's state moves
 * (current → superseded, decided or voided); its content, totals and digest never change.
 *
 * `expired` is not stored: a current revision read after its valid-until date shows as expired (computed on every
 * read from the request's time, so nothing has to run at midnight), and cannot be decided.
 *
 * A revisions table has the columns of `RevisionColumns`, plus its parent's id column and whatever figures it keeps.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { RevisionState, StoredRevisionState } from '../../../db/vocabulary.js';
import { canonicalJson } from '../../core/canonical-json.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';

export interface RevisionColumns {
  id: string;
  project_id: string;
  number: number;
  state: StoredRevisionState;
  issued_at: string;
  issued_by: string;
  valid_until: string | null;
  content: string;
  digest: string;
  created_at: string;
  updated_at: string;
  version: number;
}

/** Which table keeps a kind's revisions and which column names the document they revise. */
export interface RevisionKind {
  table: keyof Database & string;
  parentColumn: string;
  /** How refusals name the document: "estimate", "purchase order". */
  noun: string;
}

/** The canonical text of some content and its SHA-256 digest (hex): the same content always gives the same pair. */
export function freezeContent(content: unknown): { json: string; digest: string } {
  const json = canonicalJson(content);
  return { json, digest: createHash('sha256').update(json, 'utf8').digest('hex') };
}

/** A revision's state as read at `now`: a current revision past its valid-until date shows as expired. */
export function shownRevisionState(
  row: { state: StoredRevisionState; valid_until: string | null },
  now: string,
): RevisionState {
  if (row.state === 'current' && row.valid_until !== null && now.slice(0, 10) > row.valid_until) return 'expired';
  return row.state;
}

// The generic table defeats the query builder's inference; every revisions table has RevisionColumns.
const untyped = (db: Kysely<Database>) =>
  db as unknown as Kysely<Record<string, RevisionColumns & Record<string, unknown>>>;

/** The number the next issue of a document takes: 1, then one more than the last. */
export async function nextRevisionNumber(db: Kysely<Database>, kind: RevisionKind, parentId: string) {
  const last = await untyped(db)
    .selectFrom(kind.table)
    .select((eb) => eb.fn.max('number').as('n'))
    .where(kind.parentColumn, '=', parentId)
    .executeTakeFirst();
  return Number(last?.n ?? 0) + 1;
}

/**
 * Issues revision `number` of a document: supersedes its current revision, if any, and inserts the new one as
 * current with its frozen content and digest; `columns` are the kind's own (its parent id, its totals).
 */
export async function issueRevision(
  ctx: Pick<ActionContext, 'db' | 'now' | 'caller'>,
  kind: RevisionKind,
  made: {
    /** The new revision's id, when the caller needed it before (to name it from its document). */
    id?: string;
    parentId: string;
    projectId: string;
    number: number;
    validUntil: string | null;
    content: unknown;
    columns: Record<string, unknown>;
  },
): Promise<RevisionColumns> {
  const db = untyped(ctx.db);
  await db
    .updateTable(kind.table)
    .set((eb) => ({ state: 'superseded', updated_at: ctx.now, version: eb('version', '+', 1) }) as never)
    .where(kind.parentColumn, '=', made.parentId)
    .where('state', '=', 'current')
    .execute();
  const { json, digest } = freezeContent(made.content);
  const row: RevisionColumns = {
    id: made.id ?? newId(),
    project_id: made.projectId,
    number: made.number,
    state: 'current',
    issued_at: ctx.now,
    issued_by: ctx.caller!.memberId,
    valid_until: made.validUntil,
    content: json,
    digest,
    created_at: ctx.now,
    updated_at: ctx.now,
    version: 1,
  };
  await db
    .insertInto(kind.table)
    .values({ ...row, [kind.parentColumn]: made.parentId, ...made.columns } as never)
    .execute();
  return row;
}

/**
 * Moves a revision's state (the only thing about it that ever changes), only from the state it was read in: answers
 * whether it moved. Two answers racing for one revision both read it current; the second one's UPDATE waits for the
 * first to commit and then finds it no longer current, so only one is ever recorded.
 */
export async function moveRevisionState(
  ctx: Pick<ActionContext, 'db' | 'now'>,
  kind: RevisionKind,
  revisionId: string,
  from: StoredRevisionState,
  to: StoredRevisionState,
): Promise<boolean> {
  const moved = await untyped(ctx.db)
    .updateTable(kind.table)
    .set((eb) => ({ state: to, updated_at: ctx.now, version: eb('version', '+', 1) }) as never)
    .where('id', '=', revisionId)
    .where('state', '=', from)
    .executeTakeFirst();
  return moved.numUpdatedRows === 1n;
}

/**
 * Refuses an answer (a decision, an acknowledgement) to a revision that is no longer the one on offer, or that names
 * other content than the revision froze. A revision already answered is the caller's own refusal.
 */
export function assertAnswerable(
  kind: RevisionKind,
  row: Pick<RevisionColumns, 'number' | 'state' | 'valid_until' | 'digest'>,
  digest: string,
  now: string,
) {
  const state = shownRevisionState(row, now);
  if (state === 'superseded' || state === 'voided') {
    throw new ServiceError(
      'REVISION_SUPERSEDED',
      state === 'voided'
        ? `Revision ${row.number} was voided with its ${kind.noun}; nothing on it can be decided any more.`
        : `Revision ${row.number} was superseded by a later revision; read the current one and answer that.`,
    );
  }
  if (state === 'expired') {
    throw new ServiceError(
      'REVISION_EXPIRED',
      `Revision ${row.number} was valid until ${row.valid_until}; the studio must issue a new revision first.`,
    );
  }
  if (digest !== row.digest) {
    throw new ServiceError(
      'REVISION_DIGEST_MISMATCH',
      `The digest sent is not revision ${row.number}'s; read the revision again and decide what it now says.`,
    );
  }
}
