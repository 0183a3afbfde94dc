import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AnyAction } from '../../core/define-action.js';
import { ActionSearch } from './search.js';
import { buildToolList } from './tools.js';
import { fileFields } from './uploads.js';

/** What one catalog needs on every connection, built once (HTTP builds a server per request). */
export interface CatalogView {
  byName: Map<string, AnyAction>;
  /** The input field each file-taking action takes its file in. */
  fileFields: Map<string, string>;
  tools: Tool[];
  readonly search: ActionSearch;
}
const views = new WeakMap<readonly AnyAction[], CatalogView>();
export function catalogView(actions: readonly AnyAction[]): CatalogView {
  let v = views.get(actions);
  if (!v) {
    let search: ActionSearch | undefined;
    v = {
      byName: new Map(actions.map((a) => [a.name, a])),
      fileFields: fileFields(actions),
      tools: buildToolList(actions),
      // Built on first use: a stdio client waits for initialize and tools/list before anything searches.
      get search() {
        search ??= new ActionSearch(actions);
        return search;
      },
    };
    views.set(actions, v);
  }
  return v;
}
