import type { ActionKind, AnyAction } from '../../core/define-action.js';
import type { Caller } from '../../core/context.js';
import { type Act, actWeight, actionAct, isRequestVerb, requestAct } from './request-acts.js';
import { indexTerm, queryTerms } from './synonyms.js';
import { TermIndex, type TermIndexOptions, type TermMatch } from './term-index.js';

/** One search_actions hit: enough to choose, and to know whether this caller may call it. */
export interface ActionHit {
  name: string;
  summary: string;
  kind: ActionKind;
  domain: string;
  scope: string;
  writes: boolean;
  allowed: boolean;
  /** Relevance, 1–100: 100 is the best hit of this search; hits under a floor are not returned. */
  score: number;
  /**
   * call_action's `arguments` in outline: required fields, then optional ones with `?` (`…` when more), so a simple
   * call needs no get_action first.
   */
  call: string;
  /** The same capability in the other shape, and when to prefer it. */
  twin?: { name: string; kind: ActionKind; note: string };
}

/**
 * How many field names a call outline shows before `…`; an input of up to OUTLINE_WHOLE fields is shown whole, so a
 * create's optional links (create_project's templateId and clientId) are not hidden behind `…`.
 */
const OUTLINE_FIELDS = 8;
const OUTLINE_WHOLE = 10;

/** `{ input: { projectId, lineId, expectedVersion, sectionId? } }` for a procedure; a resource's fields unwrapped. */
export function callOutline(a: AnyAction): string {
  const shape = a.publishedInput.shape as Record<string, { isOptional(): boolean }>;
  const names = Object.keys(shape);
  const required = names.filter((n) => !shape[n]!.isOptional());
  const optional = names.filter((n) => shape[n]!.isOptional()).map((n) => `${n}?`);
  const all = [...required, ...optional];
  const shown = all.length <= OUTLINE_WHOLE ? all : all.slice(0, Math.max(OUTLINE_FIELDS, required.length));
  const listed = [...shown, ...(all.length > shown.length ? ['…'] : [])];
  const fields = listed.length ? `{ ${listed.join(', ')} }` : '{}';
  return a.kind === 'procedure' ? `{ input: ${fields} }` : fields;
}

export interface SearchAnswer {
  actions: ActionHit[];
  /** When nothing matches well enough: what the catalog covers, so the next search can use its words. */
  note?: string;
  areas?: string[];
}

export interface SearchOptions {
  domain?: string;
  kind?: ActionKind;
  limit?: number;
}

/** `purchaseOrders` → "purchase orders", `update_line` → "update line". */
const words = (s: string) => s.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ');

/**
 * Sentences about how to call (ETags, versions, keys, retries, confirmation) say nothing about what an action does, and their words
 * ("quotes included") matched unrelated searches; the index leaves them out.
 */
const MECHANICS =
  /If-Match|ifMatch|ETag|etag|expectedVersion|commandKey|Idempotency-Key|idempotencyKey|nextCursor|replay|retry|confirm: true|CONFIRMATION_[A-Z]+/;
const whatItDoes = (description: string) =>
  description
    .split(/(?<=[.;])\s+/)
    .filter((sentence) => !MECHANICS.test(sentence))
    .join(' ');

/**
 * The least score (MiniSearch's BM25+, see term-index.ts; names weigh 4, summaries 2) a best hit needs to be shown:
 * under it the query shares no more than a stray word with any action. Measured over the relevance set
 * (test/fixtures/search-relevance.json): its weakest served request scores about 10; unrelated requests ("bake a
 * cake", "send an invoice to xero") stay under 4.
 */
const FLOOR = 6;

/**
 * A hit that shows what the query asks for: it shares two or more words with the query, or one with the action's
 * name, summary, intents or domain. One word that appears only in a description ("order" in "puts sections in the
 * given order") is a coincidence, not an answer, and so is the request's verb alone ("send" an invoice is not
 * deliver_document's "send a document").
 */
function isMeant(r: TermMatch, verbsAlone: boolean): boolean {
  // A request of verbs alone ("list") is judged on them; otherwise a verb (or a word it prefixes: "sending") is not.
  const verbs = r.queryTerms.filter(isRequestVerb);
  const counts = (t: string) => verbsAlone || !verbs.some((v) => t.startsWith(v));
  return (
    r.queryTerms.filter(counts).length >= 2 ||
    Object.entries(r.match).some(([t, fields]) => counts(t) && fields.some((f) => f !== 'description'))
  );
}

/** Whether the caller's permissions reach an action (project grants are checked when it runs). */
export function callerMayCall(caller: Caller, action: AnyAction): boolean {
  return action.scope === 'member' || action.scope === 'capability' || caller.permissions.has(action.scope as never);
}

const TWIN_NOTE: Record<ActionKind, string> = {
  resource: 'resource shape: fields at the top level, ifMatch = the ETag, idempotencyKey; prefer it over MCP',
  procedure: 'procedure shape: fields inside input, expectedVersion, commandKey; what tRPC clients call',
  file: 'file tool',
};

/** Procedure name → its resource twin, and back. */
function twinsOf(actions: readonly AnyAction[]): Map<string, AnyAction> {
  const byName = new Map(actions.map((a) => [a.name, a]));
  const twins = new Map<string, AnyAction>();
  for (const a of actions) {
    const procedure = a.twinOf ? byName.get(a.twinOf) : undefined;
    if (procedure) {
      twins.set(a.name, procedure);
      twins.set(procedure.name, a);
    }
  }
  return twins;
}

/** How the index reads the capabilities' texts (fields in the order capabilityDocuments gives them) and a query. */
export const INDEX_OPTIONS: TermIndexOptions = {
  fields: ['name', 'summary', 'intents', 'domain', 'description'],
  boost: { name: 4, summary: 2, intents: 2.5, domain: 1.5, description: 0.6 },
  indexTerm,
  queryTerms,
  // "archiv" finds archive/archived; small typos ("photgraph") still match.
  prefix: (term) => term.length >= 4,
  fuzzy: (term) => (term.length >= 6 ? 0.15 : false),
  weights: { fuzzy: 0.3, prefix: 0.5 },
};

/**
 * The capabilities the index holds, and the texts of each: a procedure with a resource twin is indexed under the
 * resource, with both names' words.
 */
export function capabilityDocuments(
  actions: readonly AnyAction[],
  twins = twinsOf(actions),
): { actions: AnyAction[]; texts: string[][] } {
  const indexed = actions.filter((a) => !(a.kind === 'procedure' && twins.has(a.name)));
  const texts = indexed.map((a) => {
    const twin = twins.get(a.name);
    return [
      twin ? `${words(a.name)} ${words(twin.name)}` : words(a.name),
      a.summary,
      (a.intents ?? twin?.intents ?? []).join('. '),
      words(a.domain),
      whatItDoes(a.description),
    ];
  });
  return { actions: indexed, texts };
}

/**
 * The catalog's search index, built once per catalog: one entry per capability (a resource operation and its
 * procedure twin are one behaviour, found once and named together). The name split into words weighs most, then the
 * summary, the domain and what the description says the action does. Query words pass through the studio's synonym
 * table (see synonyms.ts).
 */
export class ActionSearch {
  private readonly index: TermIndex;
  /** The indexed capabilities, in the index's document order. */
  private readonly indexed: AnyAction[];
  /** The act each indexed capability does (see request-acts.ts). */
  private readonly acts: (Act | undefined)[];
  /** Procedure name → its resource twin, and back. */
  private readonly twins: Map<string, AnyAction>;
  /**
   * Each hit's call outline, made the first time the action is shown: reading a zod shape (isOptional parses) made
   * about a tenth of what a search allocated, and allocation is what the slowest searches wait on (a scavenge).
   */
  private readonly outlines = new Map<string, string>();
  private readonly areas: string[];

  constructor(actions: readonly AnyAction[]) {
    this.twins = twinsOf(actions);
    this.areas = [...new Set(actions.map((a) => a.domain))].sort();
    const indexed = capabilityDocuments(actions, this.twins);
    this.indexed = indexed.actions;
    this.acts = this.indexed.map(actionAct);
    this.index = new TermIndex(indexed.texts, INDEX_OPTIONS);
  }

  search(query: string, caller: Caller, opts: SearchOptions = {}): SearchAnswer {
    const limit = Math.min(Math.max(opts.limit ?? 5, 1), 10);
    // A capability shows under the shape asked for: with kind 'procedure', the twin procedure leads.
    const shown = (a: AnyAction) => (opts.kind && a.kind !== opts.kind ? this.twins.get(a.name) : undefined) ?? a;
    const asked = requestAct(query);
    const hits = this.index.search(
      query,
      (doc) => actWeight(asked, this.acts[doc]),
      (doc) => {
        const a = shown(this.indexed[doc]!);
        return (!opts.domain || a.domain === opts.domain) && (!opts.kind || a.kind === opts.kind);
      },
      limit,
    );
    const top = hits[0]?.score ?? 0;
    const words = query
      .split(/[^\p{L}\p{N}]+/u)
      .map(indexTerm)
      .filter((t): t is string => t !== null);
    const verbsAlone = words.every(isRequestVerb);
    if (top < FLOOR || !hits.some((r) => isMeant(this.index.matchOf(r.doc), verbsAlone))) {
      return {
        actions: [],
        note: 'No action matches that well. Search again with what you want to do to which record, using the words of these areas.',
        areas: this.areas,
      };
    }
    const actions = hits
      .filter((r) => r.score >= FLOOR / 2)
      .map((r) => {
        const a = shown(this.indexed[r.doc]!);
        const twin = this.twins.get(a.name);
        return {
          name: a.name,
          summary: a.summary,
          kind: a.kind,
          domain: a.domain,
          scope: a.scope,
          writes: a.effect === 'mutation',
          allowed: callerMayCall(caller, a),
          score: Math.max(1, Math.round((100 * r.score) / top)),
          call: this.outlineOf(a),
          ...(twin ? { twin: { name: twin.name, kind: twin.kind, note: TWIN_NOTE[twin.kind] } } : {}),
        };
      });
    return { actions };
  }

  private outlineOf(a: AnyAction): string {
    let outline = this.outlines.get(a.name);
    if (outline === undefined) this.outlines.set(a.name, (outline = callOutline(a)));
    return outline;
  }

  /** Names of the top `limit` capabilities, for the relevance measure: a capability's twin counts with it. */
  rank(query: string, limit = 5): string[] {
    return this.search(query, RANKER, { limit }).actions.flatMap((h) => (h.twin ? [h.name, h.twin.name] : [h.name]));
  }
}

/** The relevance measure asks as a caller who may call everything. */
const RANKER: Caller = {
  userId: '',
  memberId: '',
  studioId: '',
  role: 'owner',
  tokenId: '',
  via: 'api_token',
  permissions: new Set(),
};
