import MiniSearch from 'minisearch';
import type { AnyAction, ActionKind } from '../../core/define-action.js';
import type { Caller } from '../../core/context.js';
import { indexTerm, queryTerms } from './synonyms.js';

/** One search_actions hit: enough to choose, and to know whether this caller may call it. */
export interface ActionHit {
  name: string;
  summary: string;
  kind: ActionKind;
  domain: string;
  scope: string;
  writes: boolean;
  allowed: boolean;
}

export interface SearchOptions {
  domain?: string;
  kind?: ActionKind;
  limit?: number;
}

/** `purchaseOrders` → "purchase orders", `update_line` → "update line". */
const words = (s: string) => s.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ');

/** Whether the caller's permissions reach an action (project grants are checked when it runs). */
export function callerMayCall(caller: Caller, action: AnyAction): boolean {
  return action.scope === 'member' || action.scope === 'capability' || caller.permissions.has(action.scope as never);
}

/**
 * The catalog's search index, built once per catalog: the name split into words weighs most, then the summary, the
 * domain and the description. Query words pass through the studio's synonym table (see synonyms.ts).
 */
export class ActionSearch {
  private readonly index: MiniSearch<{
    id: string;
    name: string;
    summary: string;
    domain: string;
    description: string;
  }>;
  private readonly byName: Map<string, AnyAction>;

  constructor(actions: readonly AnyAction[]) {
    this.byName = new Map(actions.map((a) => [a.name, a]));
    this.index = new MiniSearch({
      fields: ['name', 'summary', 'domain', 'description'],
      storeFields: [],
      processTerm: (term) => indexTerm(term),
      searchOptions: {
        boost: { name: 4, summary: 2, domain: 1.5, description: 0.6 },
        processTerm: (term) => queryTerms(term),
        // "archiv" finds archive/archived; small typos ("photgraph") still match.
        prefix: (term) => term.length >= 4,
        fuzzy: (term) => (term.length >= 6 ? 0.15 : false),
        weights: { fuzzy: 0.3, prefix: 0.5 },
      },
    });
    this.index.addAll(
      actions.map((a) => ({
        id: a.name,
        name: words(a.name),
        summary: a.summary,
        domain: words(a.domain),
        description: a.description,
      })),
    );
  }

  search(query: string, caller: Caller, opts: SearchOptions = {}): ActionHit[] {
    const limit = Math.min(Math.max(opts.limit ?? 5, 1), 10);
    const hits = this.index.search(query, {
      filter: (r) => {
        const a = this.byName.get(r.id as string)!;
        return (!opts.domain || a.domain === opts.domain) && (!opts.kind || a.kind === opts.kind);
      },
    });
    return hits.slice(0, limit).map((r) => {
      const a = this.byName.get(r.id as string)!;
      return {
        name: a.name,
        summary: a.summary,
        kind: a.kind,
        domain: a.domain,
        scope: a.scope,
        writes: a.effect === 'mutation',
        allowed: callerMayCall(caller, a),
      };
    });
  }

  /** Names only, for the relevance benchmark. */
  rank(query: string, limit = 5): string[] {
    return this.index
      .search(query)
      .slice(0, limit)
      .map((r) => r.id as string);
  }
}
