import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACTIONS } from '../../actions/index.js';
import { ActionSearch } from '../../src/surfaces/mcp/search.js';
import { ROOT } from '../helpers/server.js';

/**
 * The search relevance set (test/fixtures/search-relevance.json) as the test and the bench measure it: each request is
 * in one of two halves by its text's digest (stable as requests are added). Intents and synonyms are tuned on the
 * `tuning` half; the `held-out` half shows how search does on requests it was not tuned on, so its misses are never
 * printed.
 */
export interface RelevanceCase {
  query: string;
  acceptable: string[];
}

export type RelevanceHalf = 'tuning' | 'held-out';

export const relevanceCases = (): RelevanceCase[] =>
  (JSON.parse(readFileSync(join(ROOT, 'test/fixtures/search-relevance.json'), 'utf8')) as { cases: RelevanceCase[] })
    .cases;

export const relevanceHalf = (query: string): RelevanceHalf =>
  createHash('sha256').update(query).digest()[0]! % 2 === 0 ? 'tuning' : 'held-out';

export interface Recall {
  half: RelevanceHalf;
  cases: number;
  hits: number;
  recall: number;
  /** The tuning half's misses; none for the held-out half. */
  missed: string[];
}

/** Recall@5 of each half, over the requests the catalog can serve (an acceptable action exists). */
export function recallAt5(search = new ActionSearch(ACTIONS)): { servable: number; halves: Recall[] } {
  const names = new Set(ACTIONS.map((a) => a.name));
  const servable = relevanceCases().filter((c) => c.acceptable.some((a) => names.has(a)));
  const halves = (['tuning', 'held-out'] as const).map((half) => {
    const cases = servable.filter((c) => relevanceHalf(c.query) === half);
    const missed = cases.filter((c) => !search.rank(c.query, 5).some((n) => c.acceptable.includes(n)));
    return {
      half,
      cases: cases.length,
      hits: cases.length - missed.length,
      recall: (cases.length - missed.length) / cases.length,
      missed: half === 'tuning' ? missed.map((m) => m.query) : [],
    };
  });
  return { servable: servable.length, halves };
}
