import type { RevisionKind } from '../kit/revisions.js';

/** Where estimate revisions are kept, for the shared revision machinery (src/domain/kit/revisions.ts). */
export const ESTIMATE_REVISIONS: RevisionKind = {
  table: 'estimate_revisions',
  parentColumn: 'estimate_id',
  noun: 'estimate',
};
