import MiniSearch from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';

/**
 * A fixed set of documents ranked exactly as MiniSearch 7 ranks them (its tokenizer, its radix tree for prefix and
 * fuzzy terms, BM25+ with its defaults, the same weights and the same order of additions, so equal scores tie the same
 * way), answered with far less work per search. The catalog's index never changes after it is built, so each term's
 * BM25+ score in each document is computed once here, where MiniSearch recomputed it and built a result object per
 * document, term and field on every search: about 190 kB per search_actions call, whose scavenges were its p99.
 * A search fills typed arrays kept between searches and builds objects only for the hits it returns.
 * test/unit/term-index.test.ts holds it to MiniSearch's answers.
 */

export interface TermIndexOptions {
  /** Field names, in the order each document gives their texts. */
  fields: readonly string[];
  boost: Readonly<Record<string, number>>;
  /** A token as indexed (null: left out). */
  indexTerm(token: string): string | null;
  /** A query token as searched: the terms it stands for (null: none). */
  queryTerms(token: string): readonly string[] | null;
  /** Whether a query term also finds the indexed terms it begins. */
  prefix(term: string): boolean;
  /** The fraction of a query term's length that may be edits (false: exact and prefix only). */
  fuzzy(term: string): number | false;
  weights: { fuzzy: number; prefix: number };
}

/** One indexed term: per field, the documents holding it (ascending) and its BM25+ score in each. */
interface Postings {
  docs: number[][];
  scores: number[][];
  /** Per field, how often the term occurs in each document (while the index is built; none where it never does). */
  counts: (Map<number, number> | undefined)[];
  /**
   * The index terms this term reaches as a query term, found the first time it is one: most query terms are the
   * index's own words (nine in ten over the relevance set), and walking the tree for their prefixes and near spellings
   * was half of what a search did. Kept per indexed term, so it never grows past the index; a query term the index
   * does not hold is walked for every search.
   */
  reach?: Reach[];
}

/** An index term a query term reaches: itself (weight 1), a longer term it begins, or a near spelling. */
interface Reach {
  term: string;
  postings: Postings;
  weight: number;
}

/** A returned hit: a document, its score, and (on request) which query terms it matched in which fields. */
export interface TermHit {
  doc: number;
  score: number;
}

/** What a hit matched, as MiniSearch reports it: the query terms, and each matched index term's fields. */
export interface TermMatch {
  queryTerms: string[];
  match: Record<string, string[]>;
}

/** MiniSearch's own tokenizer (runs of white space and punctuation separate tokens), so both split texts alike. */
const tokenize: (text: string) => string[] = MiniSearch.getDefault('tokenize');
/** MiniSearch's BM25+ defaults, and its bound on fuzzy edits. */
const K = 1.2;
const B = 0.7;
const D = 0.5;
const MAX_FUZZY = 6;

const bm25 = (termFreq: number, matching: number, total: number, fieldLength: number, avgFieldLength: number) => {
  const invDocFreq = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
  return invDocFreq * (D + (termFreq * (K + 1)) / (termFreq + K * (1 - B + (B * fieldLength) / avgFieldLength)));
};

/** Whether `doc` is in an ascending list of documents. */
function holds(docs: readonly number[], doc: number): boolean {
  let lo = 0;
  let hi = docs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const d = docs[mid]!;
    if (d === doc) return true;
    if (d < doc) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

export class TermIndex {
  private readonly tree = new SearchableMap<Postings>();
  private readonly boosts: number[];
  private readonly n: number;
  // Kept between searches (one search runs at a time: it never awaits).
  private readonly total: Float64Array;
  private readonly partial: Float64Array;
  private readonly inTotal: Int32Array;
  private readonly inPartial: Int32Array;
  private readonly docWeight: Float64Array;
  private readonly termsMatched: Int32Array;
  private readonly order: Int32Array;
  private readonly specOrder: Int32Array;
  private seen = new Uint8Array(0);
  private stamp = 0;
  /** The last search's query terms and the index terms each reached (for `matchOf`). */
  private specs: string[] = [];
  private readonly reached: Reach[][] = [];

  constructor(
    documents: readonly (readonly string[])[],
    private readonly options: TermIndexOptions,
  ) {
    const { fields } = options;
    this.n = documents.length;
    this.boosts = fields.map((f) => (Object.hasOwn(options.boost, f) ? options.boost[f] : undefined) || 1);
    const fieldLength = documents.map(() => new Array<number>(fields.length).fill(0));
    const avgFieldLength = fields.map(() => 0);
    const newPostings = (): Postings => ({ docs: [], scores: [], counts: [] });
    for (let doc = 0; doc < documents.length; doc++) {
      for (let f = 0; f < fields.length; f++) {
        const tokens = tokenize(documents[doc]![f]!);
        const length = new Set(tokens).size;
        fieldLength[doc]![f] = length;
        // MiniSearch's running mean, step by step, so that the scores are the same to the last bit.
        avgFieldLength[f] = (avgFieldLength[f]! * doc + length) / (doc + 1);
        for (const token of tokens) {
          const term = options.indexTerm(token);
          if (!term) continue;
          const counts = (this.tree.fetch(term, newPostings).counts[f] ??= new Map());
          counts.set(doc, (counts.get(doc) ?? 0) + 1);
        }
      }
    }
    for (const p of this.tree.values()) {
      for (let f = 0; f < fields.length; f++) {
        const docs: number[] = (p.docs[f] = []);
        const scores: number[] = (p.scores[f] = []);
        const counts = p.counts[f];
        if (!counts) continue;
        for (const [doc, freq] of counts) {
          docs.push(doc);
          scores.push(bm25(freq, counts.size, this.n, fieldLength[doc]![f]!, avgFieldLength[f]!));
        }
      }
      p.counts = [];
    }
    this.total = new Float64Array(this.n);
    this.partial = new Float64Array(this.n);
    this.inTotal = new Int32Array(this.n);
    this.inPartial = new Int32Array(this.n);
    this.docWeight = new Float64Array(this.n);
    this.termsMatched = new Int32Array(this.n);
    this.order = new Int32Array(this.n);
    this.specOrder = new Int32Array(this.n);
  }

  /**
   * The best `limit` documents that `accept` lets through, best first (equal scores in the order MiniSearch gives
   * them). `weight` multiplies a document's every score (MiniSearch's boostDocument).
   */
  search(query: string, weight: (doc: number) => number, accept: (doc: number) => boolean, limit: number): TermHit[] {
    if (this.stamp > 0x3fffffff) this.restartStamps();
    for (let d = 0; d < this.n; d++) this.docWeight[d] = weight(d);
    const specs = this.querySpecs(query);
    const distinct = [...new Set(specs)];
    if (this.seen.length < this.n * distinct.length) this.seen = new Uint8Array(this.n * distinct.length);
    else this.seen.fill(0, 0, this.n * distinct.length);
    this.reached.length = specs.length;
    const queryStamp = ++this.stamp;
    let found = 0;
    specs.forEach((term, s) => {
      const touched = this.scoreSpec(term, s);
      const k = distinct.indexOf(term);
      for (let i = 0; i < touched; i++) {
        const d = this.specOrder[i]!;
        if (!this.seen[d * distinct.length + k]) {
          this.seen[d * distinct.length + k] = 1;
          this.termsMatched[d] = this.inTotal[d] === queryStamp ? this.termsMatched[d]! + 1 : 1;
        }
        if (this.inTotal[d] !== queryStamp) {
          this.inTotal[d] = queryStamp;
          this.total[d] = this.partial[d]!;
          this.order[found++] = d;
        } else this.total[d] = this.total[d]! + this.partial[d]!;
      }
    });
    this.specs = specs;
    return this.best(found, accept, limit);
  }

  /** Marks of earlier searches are told apart by stamp; before the stamp overflows, every mark is cleared. */
  private restartStamps() {
    this.stamp = 0;
    this.inTotal.fill(0);
    this.inPartial.fill(0);
  }

  /** MiniSearch's query terms: each token through `queryTerms`, empty ones dropped. */
  private querySpecs(query: string): string[] {
    const specs: string[] = [];
    for (const token of tokenize(query)) {
      for (const term of this.options.queryTerms(token) ?? []) if (term) specs.push(term);
    }
    return specs;
  }

  /** One query term's scores into `partial`; returns how many documents it reached (listed in `specOrder`). */
  private scoreSpec(term: string, spec: number): number {
    const stamp = ++this.stamp;
    const indexed = this.tree.get(term);
    const reach = indexed ? (indexed.reach ??= this.expand(term)) : this.expand(term);
    this.reached[spec] = reach;
    let touched = 0;
    for (const { postings, weight } of reach) {
      for (let f = 0; f < this.boosts.length; f++) {
        const docs: number[] = postings.docs[f]!;
        const scores: number[] = postings.scores[f]!;
        const boost = this.boosts[f]!;
        for (let j = 0; j < docs.length; j++) {
          const d = docs[j]!;
          const docWeight = this.docWeight[d]!;
          if (!docWeight) continue;
          const score = weight * boost * docWeight * scores[j]!;
          if (this.inPartial[d] !== stamp) {
            this.inPartial[d] = stamp;
            this.partial[d] = score;
            this.specOrder[touched++] = d;
          } else this.partial[d] = this.partial[d]! + score;
        }
      }
    }
    return touched;
  }

  /**
   * The index terms a query term reaches, in MiniSearch's order: the term itself, then the longer terms it begins
   * (when `prefix`), then its near spellings that are not among those (when `fuzzy`).
   */
  private expand(term: string): Reach[] {
    const reach: Reach[] = [];
    const exact = this.tree.get(term);
    if (exact) reach.push({ term, postings: exact, weight: 1 });
    const prefixes = this.options.prefix(term) ? this.tree.atPrefix(term) : undefined;
    const fuzzy = this.options.fuzzy(term);
    const maxDistance = fuzzy ? (fuzzy < 1 ? Math.min(MAX_FUZZY, Math.round(term.length * fuzzy)) : fuzzy) : 0;
    const near = maxDistance ? this.tree.fuzzyGet(term, maxDistance) : undefined;
    const { prefix: prefixWeight, fuzzy: fuzzyWeight } = this.options.weights;
    if (prefixes) {
      for (const [longer, postings] of prefixes) {
        const distance = longer.length - term.length;
        if (!distance) continue;
        near?.delete(longer);
        reach.push({
          term: longer,
          postings,
          weight: (prefixWeight * longer.length) / (longer.length + 0.3 * distance),
        });
      }
    }
    if (near) {
      for (const [other, [postings, distance]] of near) {
        if (distance)
          reach.push({ term: other, postings, weight: (fuzzyWeight * other.length) / (other.length + distance) });
      }
    }
    return reach;
  }

  /** The top `limit` accepted documents by score (score × query terms matched), earlier first among equals. */
  private best(found: number, accept: (doc: number) => boolean, limit: number): TermHit[] {
    const hits: TermHit[] = [];
    for (let i = 0; i < found; i++) {
      const d = this.order[i]!;
      const score = this.total[d]! * (this.termsMatched[d]! || 1);
      if (hits.length === limit && score <= hits[limit - 1]!.score) continue;
      if (!accept(d)) continue;
      let at = hits.length;
      while (at > 0 && hits[at - 1]!.score < score) at--;
      hits.splice(at, 0, { doc: d, score });
      if (hits.length > limit) hits.pop();
    }
    return hits;
  }

  /** What a hit of the last search matched (MiniSearch's queryTerms and match). */
  matchOf(doc: number): TermMatch {
    const queryTerms: string[] = [];
    const match: Record<string, string[]> = {};
    if (!this.docWeight[doc]) return { queryTerms, match };
    this.specs.forEach((term, s) => {
      for (const r of this.reached[s]!) {
        const fields = this.options.fields.filter((_, f) => holds(r.postings.docs[f]!, doc));
        if (!fields.length) continue;
        if (!queryTerms.includes(term)) queryTerms.push(term);
        // An index term's fields in a document are the same whichever query term reached it.
        match[r.term] = fields;
      }
    });
    return { queryTerms, match };
  }
}
