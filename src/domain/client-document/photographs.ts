import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { variantSize } from '../photographs/sizes.js';

/**
 * A photograph as a minted document froze it: what the document shows (id and display size) and, kept apart from the
 * document and never shown, what serves the frozen image later (the original's SHA-256 and the rotation then).
 */
export interface FrozenPhotograph {
  id: string;
  width: number;
  height: number;
  sha256: string;
  rotation: number;
}

/** Each line's photographs by line id: a version's `photograph_sources`, as canonical JSON. */
export type PhotographSources = Record<string, FrozenPhotograph[]>;

/**
 * The photographs of a project's lines as they are now: those not removed, the cover first, then in display order,
 * each with its display variant's size (the studio's rotation applied).
 */
export async function livePhotographs(db: Kysely<Database>, projectId: string): Promise<PhotographSources> {
  const rows = await db
    .selectFrom('line_photographs')
    .select(['id', 'line_id', 'width', 'height', 'rotation', 'original_sha256'])
    .where('project_id', '=', projectId)
    .where('removed_at', 'is', null)
    .orderBy('line_id')
    .orderBy('is_cover', 'desc')
    .orderBy('position')
    .orderBy('id')
    .execute();
  const byLine: PhotographSources = {};
  for (const r of rows) {
    const size = variantSize({ width: r.width, height: r.height }, r.rotation, 'display');
    (byLine[r.line_id] ??= []).push({ id: r.id, ...size, sha256: r.original_sha256, rotation: r.rotation });
  }
  return byLine;
}

/** What the document shows of a photograph; `alt` is its piece's heading. */
export const shownPhotograph = (p: FrozenPhotograph, alt: string) => ({
  id: p.id,
  width: p.width,
  height: p.height,
  alt,
});
