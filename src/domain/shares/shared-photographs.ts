import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { RowReader } from '../../../db/store.js';
import { ServiceError } from '../../core/errors.js';
import type { FrozenPhotograph } from '../client-document/photographs.js';
import { frozenPhotographs } from '../client-document/versions.js';
import { resolveShareToken } from './resolve.js';

/**
 * A line the client document shows as a piece: active, in an active section. Found by id alone and its project
 * compared here, so that PostgreSQL takes the primary key (see LINE_SHOWN in domain/schedule/lines.ts).
 */
const SHOWN = `
  SELECT l.project_id FROM lines l JOIN sections s ON s.id = l.section_id
  WHERE l.id = ? AND l.archived_at IS NULL AND s.archived_at IS NULL`;

/**
 * A photograph of a shared document, as the latest mint froze it (its original's digest and the rotation then), when
 * the document shows it now: it is in the frozen set, and its piece is still shown (a removed piece shows none). The
 * same test the projection makes, without projecting the whole document for every image a page loads.
 */
export async function shownPhotograph(
  db: Kysely<Database>,
  queryRow: RowReader,
  projectId: string,
  photographId: string,
): Promise<FrozenPhotograph | undefined> {
  const { byLine } = await frozenPhotographs({ db }, projectId);
  for (const [lineId, photographs] of Object.entries(byLine)) {
    const photograph = photographs.find((p) => p.id === photographId);
    if (!photograph) continue;
    const shown = await queryRow<{ project_id: string }>(SHOWN, lineId);
    return shown?.project_id === projectId ? photograph : undefined;
  }
  return undefined;
}

/**
 * The photograph a share link's URL names: FORBIDDEN (the one refusal) for a token that does not work, whatever the
 * photograph; NOT_FOUND for a working token and a photograph its document does not show.
 */
export async function openSharedPhotograph(
  db: Kysely<Database>,
  queryRow: RowReader,
  token: string,
  photographId: string,
  now: string,
): Promise<FrozenPhotograph> {
  const share = await resolveShareToken(queryRow, token, now);
  const photograph = await shownPhotograph(db, queryRow, share.document.id, photographId);
  if (!photograph) {
    throw new ServiceError('NOT_FOUND', 'This document shows no such photograph; open the link itself to see it.');
  }
  return photograph;
}
