import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { ACTIONS } from '../../actions/index.js';
import { actWeight, actionAct, requestAct } from '../../src/surfaces/mcp/request-acts.js';
import { capabilityDocuments, INDEX_OPTIONS } from '../../src/surfaces/mcp/search.js';
import { SYNONYMS } from '../../src/surfaces/mcp/synonyms.js';
import { TermIndex } from '../../src/surfaces/mcp/term-index.js';
import { relevanceCases } from '../mcp/relevance-set.js';

/**
 * The term index search_actions ranks with must answer exactly as MiniSearch, which it replaced for speed: the same
 * hits in the same order (equal scores included), the same scores to the last bit, and the same matched terms and
 * fields (which decide whether a hit is shown at all).
 */
const { actions, texts } = capabilityDocuments(ACTIONS);
const ids = actions.map((a) => a.name);
const acts = actions.map(actionAct);
const index = new TermIndex(texts, INDEX_OPTIONS);
const mini = new MiniSearch<Record<string, string>>({
  fields: [...INDEX_OPTIONS.fields],
  storeFields: [],
  processTerm: (term) => INDEX_OPTIONS.indexTerm(term),
  searchOptions: {
    boost: INDEX_OPTIONS.boost,
    processTerm: (term) => INDEX_OPTIONS.queryTerms(term) as string[] | null,
    prefix: INDEX_OPTIONS.prefix,
    fuzzy: INDEX_OPTIONS.fuzzy,
    weights: INDEX_OPTIONS.weights,
  },
});
mini.addAll(
  texts.map((t, doc) => ({ id: ids[doc]!, ...Object.fromEntries(INDEX_OPTIONS.fields.map((f, i) => [f, t[i]!])) })),
);

/** Both indexes' top `limit` hits for a query, weighted by the request's act and cut by `accept`, side by side. */
function both(query: string, limit: number, accept: (doc: number) => boolean) {
  const asked = requestAct(query);
  const weight = (doc: number) => actWeight(asked, acts[doc]);
  const expected = mini
    .search(query, {
      boostDocument: (id) => weight(ids.indexOf(id as string)),
      filter: (r) => accept(ids.indexOf(r.id as string)),
    })
    .slice(0, limit)
    .map((r) => ({ id: r.id as string, score: r.score, queryTerms: r.queryTerms, match: r.match }));
  const actual = index
    .search(query, weight, accept, limit)
    .map((h) => ({ id: ids[h.doc]!, score: h.score, ...index.matchOf(h.doc) }));
  return { actual, expected };
}

const everyDoc = () => true;

describe('TermIndex answers as MiniSearch does over the catalog', () => {
  it('for every request of the relevance set, at every limit, with and without a filter', () => {
    for (const { query } of relevanceCases()) {
      for (const limit of [1, 5, 10]) {
        const { actual, expected } = both(query, limit, everyDoc);
        expect(actual, query).toEqual(expected);
      }
      const { actual, expected } = both(query, 5, (doc) => doc % 3 !== 0);
      expect(actual, query).toEqual(expected);
    }
  });

  it('for any words of the catalog and the synonyms, misspelt, cut short or stray, joined by any punctuation', () => {
    const vocabulary = [
      ...new Set(
        texts
          .flat()
          .join(' ')
          .split(/[^\p{L}\p{N}']+/u)
          .filter((w) => w.length > 1),
      ),
      ...Object.keys(SYNONYMS),
    ];
    const word = fc.oneof(
      fc.constantFrom(...vocabulary),
      fc
        .tuple(fc.constantFrom(...vocabulary), fc.nat(20), fc.constantFrom('', 'e', 'x', 's', 'ing'))
        .map(([w, at, put]) => w.slice(0, at % (w.length + 1)) + put + w.slice((at % (w.length + 1)) + 1)),
      fc.string({ maxLength: 8 }),
    );
    const query = fc
      .array(fc.tuple(word, fc.constantFrom(' ', ', ', '-', '. ', "'", '/')), { maxLength: 9 })
      .map((parts) => parts.map(([w, sep]) => w + sep).join(''));
    fc.assert(
      fc.property(query, fc.integer({ min: 1, max: 10 }), fc.nat(4), (q, limit, cut) => {
        const { actual, expected } = both(q, limit, cut ? (doc) => doc % (cut + 1) !== 0 : everyDoc);
        expect(actual).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
