import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AnyAction } from '../../core/define-action.js';
import { catalogView } from './catalog-view.js';
import { prebuiltTools } from './prebuilt-tools.js';

/**
 * Where an MCP server gets its catalog: the actions, loaded when first needed, and the tools/list answer, which a
 * bundle carries prebuilt (scripts/bundle.mjs) so that a stdio client's handshake never waits for ~200 action modules
 * and their schemas to evaluate. Without a prebuilt list (from source, under test) the list is built from the actions.
 */
export interface CatalogSource {
  tools(): Promise<Tool[]>;
  actions(): Promise<readonly AnyAction[]>;
}

/** A catalog already in memory (HTTP, tests): nothing to load. */
export function loadedCatalog(actions: readonly AnyAction[]): CatalogSource {
  const loaded = Promise.resolve(actions);
  return { tools: async () => catalogView(actions).tools, actions: () => loaded };
}

/**
 * A catalog imported on first use (`load` runs once); tools/list from the bundle's prebuilt list when there is one.
 * It loads on its own soon after the handshake: in the turn after the first tools/list answer has gone out (a
 * client's last handshake step) or `preloadAfterMs` in, whichever comes first, so that a first call rarely waits.
 */
export function lazyCatalog(
  load: () => Promise<readonly AnyAction[]>,
  preloadAfterMs = 1000,
): CatalogSource & { loaded: Promise<void> } {
  let pending: Promise<readonly AnyAction[]> | undefined;
  let markLoaded!: () => void;
  const loaded = new Promise<void>((resolve) => (markLoaded = resolve));
  const actions = () =>
    (pending ??= load().then((a) => {
      markLoaded();
      return a;
    }));
  const preload = () => void actions().catch(() => {});
  setTimeout(preload, preloadAfterMs).unref();
  return {
    actions,
    /** Settles when the actions have loaded (and so the jobs they define), without asking for them. */
    loaded,
    async tools() {
      if (!prebuiltTools) return catalogView(await actions()).tools;
      setImmediate(preload);
      return prebuiltTools;
    },
  };
}
