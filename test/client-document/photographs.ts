import { createHash } from 'node:crypto';
import { newId, nowIso } from '../../src/core/ids.js';
import { fromOutside } from '../helpers/fixtures.js';

/**
 * Test setup only: a photograph record on a line, written straight into `line_photographs` (the upload actions live
 * on another branch). No bytes exist in any blob store; the client document reads the record alone.
 */
export interface PhotographSeed {
  projectId: string;
  lineId: string;
  position: number;
  width: number;
  height: number;
  rotation?: 0 | 90 | 180 | 270;
  isCover?: boolean;
  removed?: boolean;
}

export async function addPhotograph(database: string, seed: PhotographSeed) {
  const id = newId();
  const sha256 = createHash('sha256').update(id).digest('hex');
  const now = nowIso();
  await fromOutside(database, async (db) => {
    const { studio_id } = await db
      .selectFrom('projects')
      .select('studio_id')
      .where('id', '=', seed.projectId)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('line_photographs')
      .values({
        id,
        studio_id,
        project_id: seed.projectId,
        line_id: seed.lineId,
        position: seed.position,
        is_cover: seed.isCover ? 1 : 0,
        original_sha256: sha256,
        media_type: 'image/jpeg',
        filename: `photo-${seed.position}.jpg`,
        byte_size: 1000,
        width: seed.width,
        height: seed.height,
        rotation: seed.rotation ?? 0,
        created_at: now,
        updated_at: now,
        removed_at: seed.removed ? now : null,
      })
      .execute();
  });
  return { id, sha256 };
}

/** Marks a photograph removed, as remove_photograph will. */
export async function removePhotograph(database: string, id: string) {
  await fromOutside(database, (db) =>
    db.updateTable('line_photographs').set({ removed_at: nowIso() }).where('id', '=', id).execute(),
  );
}
