import { createHash } from 'node:crypto';
import MiniSearch from 'minisearch';
import type { ActionContext } from '../../core/context.js';
import { decodeCursor, encodeCursor } from '../kit/cursor.js';
import type { PageRequest } from '../kit/keyset-page.js';
import type { PresentedSpecification } from './record.js';
import { CATEGORY_WORDS, dimensionTerms, fold, queryTerms, tokenize } from './search-words.js';
import { filteredSpecifications, presentSpecification, type SpecificationFilters } from './specifications.js';

/** A ranked list's page is smaller than a plain list's (the first few answers are the point); its `limit` says so. */
export const SEARCH_PAGE_SIZE = 20;

/**
 * Every text a specification has, as the index holds it, with how much a match in each counts: its name most, then
 * what it is (category), what it is made of and looks like, who makes it and its sizes; prose least.
 */
const FIELDS = {
  name: 6,
  category: 3,
  materials: 3,
  finishes: 3,
  colours: 2.5,
  manufacturer: 2.5,
  model: 2,
  sku: 2,
  dimensions: 2,
  description: 1,
  careNotes: 0.5,
  installationNotes: 0.5,
  links: 0.5,
  notes: 0.4,
} as const;
type IndexedField = keyof typeof FIELDS;
type IndexedDoc = { id: string } & Record<IndexedField, string>;

/** A specification as the index holds it: the presented record's text, sizes as terms, the category in words. */
function indexedDoc(s: PresentedSpecification): IndexedDoc {
  const list = (words: readonly string[]) => words.join(' ; ');
  return {
    id: s.id,
    name: s.name,
    category: `${s.category.replace(/_/g, ' ')} ${CATEGORY_WORDS[s.category]}`,
    materials: list(s.materials),
    finishes: list(s.finishes),
    colours: list(s.colours),
    manufacturer: s.manufacturer ?? '',
    model: s.model ?? '',
    sku: s.sku ?? '',
    dimensions: dimensionTerms(s.dimensions),
    description: s.description,
    careNotes: s.careNotes,
    installationNotes: s.installationNotes,
    links: list(s.links.map((l) => l.label)),
    notes: s.notes,
  };
}

/**
 * An index of the given specifications, built for one request, so a result is never stale and nothing is kept
 * between requests. Measured (bench/specification-search.ts, this 2-core machine under a load of about 17): 40
 * specifications build in 16 ms, 500 in 250 ms, 2,000 in about 1 s, and a search itself takes under 10 ms. A studio's
 * library runs to tens or hundreds of sheets; should libraries of thousands appear, the step is an index cached per
 * studio, keyed by a change stamp (the count and the sum of versions of its specifications).
 */
export function specificationIndex(specifications: readonly PresentedSpecification[]) {
  const index = new MiniSearch<IndexedDoc>({
    fields: Object.keys(FIELDS),
    storeFields: [],
    tokenize,
    processTerm: (term) => fold(term),
    searchOptions: {
      boost: { ...FIELDS },
      tokenize,
      processTerm: (term) => queryTerms(term),
      // "walnu" finds walnut; "travertin" travertine; small typos ("chandeleir") still match. Sizes match exactly.
      prefix: (term) => term.length >= 4 && !/\d/.test(term),
      fuzzy: (term) => (term.length >= 5 && !/\d/.test(term) ? 0.2 : false),
      weights: { fuzzy: 0.4, prefix: 0.6 },
    },
  });
  index.addAll(specifications.map(indexedDoc));
  return index;
}

export const SEARCH_SORTS = ['relevance', 'name', '-name'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export interface SearchSpecificationsQuery extends PageRequest, SpecificationFilters {
  q: string;
  sort?: SearchSort | undefined;
}

/** Hits under this share of the best one are left out: they share a stray word or a typo's worth with the query. */
const RELATIVE_FLOOR = 0.05;

interface Ranked {
  row: PresentedSpecification;
  /** The relevance as an integer (millionths), so the order and the cursor never depend on a float's last digits. */
  rank: number;
  matched: string[];
}

/** The ordering key of a hit in a sort, ending with its id so the order is total. */
function keyOf(hit: Ranked, sort: SearchSort): [string | number, string] {
  return sort === 'relevance' ? [hit.rank, hit.row.id] : [hit.row.name, hit.row.id];
}

/** Whether a hit comes before another: relevance descending, names either way, then ids ascending. */
function before(a: readonly [string | number, string], b: readonly [string | number, string], sort: SearchSort) {
  if (a[0] !== b[0]) {
    const less = a[0] < b[0];
    return sort === 'name' ? less : !less;
  }
  return a[1] < b[1];
}

/**
 * The cursor's sort name: the sort and a digest of what was asked (the words and the filters), so a cursor carried to
 * another search is refused instead of paging the wrong list.
 */
function cursorSort(query: SearchSpecificationsQuery, sort: SearchSort) {
  const asked = JSON.stringify([
    query.q.trim().toLowerCase(),
    query.category ?? null,
    query.manufacturer ?? null,
    query.archived ?? null,
  ]);
  return `${sort}~${createHash('sha256').update(asked).digest('base64url').slice(0, 16)}`;
}

/**
 * The studio's specifications ranked by how well they answer a studio's words ("oak dining table 2 m"), narrowed by
 * the filters. Pages are keyset pages over the ranked list: the cursor holds the last hit's integer rank (or name)
 * and id, and the next page starts strictly after it, so no hit is served twice while the library is unchanged, and
 * an edit between pages moves a hit at most to a page already read or one still to come, never twice.
 */
export async function searchSpecifications(ctx: ActionContext, query: SearchSpecificationsQuery) {
  const sort = query.sort ?? 'relevance';
  const rows = await filteredSpecifications(ctx, query).orderBy('specifications.id').execute();
  const shown = rows.map(({ line_count, ...r }) => presentSpecification(r, Number(line_count ?? 0)));
  const byId = new Map(shown.map((s) => [s.id, s]));
  const found = specificationIndex(shown).search(query.q);
  const top = found[0]?.score ?? 0;
  const hits: Ranked[] = found
    .filter((r) => r.score >= top * RELATIVE_FLOOR)
    .map((r) => ({
      row: byId.get(r.id as string)!,
      rank: Math.round(r.score * 1_000_000),
      matched: [...new Set(Object.values(r.match).flat())].sort(),
    }));
  hits.sort((a, b) => (before(keyOf(a, sort), keyOf(b, sort), sort) ? -1 : 1));
  const named = cursorSort(query, sort);
  let start = 0;
  if (query.cursor) {
    const [k0, k1] = decodeCursor(query.cursor, named, 2) as [string | number, string];
    start = hits.findIndex((h) => before([k0, k1], keyOf(h, sort), sort));
    if (start < 0) start = hits.length;
  }
  const limit = query.limit ?? SEARCH_PAGE_SIZE;
  const page = hits.slice(start, start + limit);
  const more = start + limit < hits.length;
  const topRank = hits.reduce((m, h) => Math.max(m, h.rank), 0);
  return {
    items: page.map((h) => ({
      specification: h.row,
      score: Math.max(1, Math.round((100 * h.rank) / Math.max(topRank, 1))),
      matched: h.matched as IndexedField[],
    })),
    nextCursor: more ? encodeCursor(named, keyOf(page.at(-1)!, sort)) : null,
  };
}

export const MATCHED_FIELDS = Object.keys(FIELDS) as IndexedField[];
