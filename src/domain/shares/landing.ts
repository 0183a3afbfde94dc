import type { RowReader } from '../../../db/store.js';
import { type LiveShare, resolveShareToken } from './resolve.js';

/** What the client page of a share shows before the client document is on it: whose link it is. */
export interface ShareLanding {
  share: LiveShare;
  /** The studio's name as its documents show it (its branding's display name when set). */
  studioName: string;
}

/** The landing of a share link, or the one FORBIDDEN refusal of resolveShareToken for any token that does not work. */
export async function openShareLanding(queryRow: RowReader, token: string): Promise<ShareLanding> {
  const share = await resolveShareToken(queryRow, token);
  const studio = await queryRow<{ name: string; brand_display_name: string | null }>(
    'SELECT name, brand_display_name FROM studios WHERE id = ?',
    share.studioId,
  );
  return { share, studioName: studio?.brand_display_name || studio?.name || '' };
}
