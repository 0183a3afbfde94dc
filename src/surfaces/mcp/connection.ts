import { returnsVersionedRecord } from '../../contract/etag.js';
import { authenticate } from '../../core/auth.js';
import type { Confirmer } from '../../core/confirmation.js';
import type { Caller } from '../../core/context.js';
import type { AnyAction } from '../../core/define-action.js';
import { etagOf } from '../../core/etag.js';
import { invoke, type Runtime } from '../../core/invoke.js';
import type { CatalogView } from './catalog-view.js';

/** How a connection proves who it acts for: a fixed member (stdio) or a bearer token (HTTP). */
export type McpIdentity = { caller: Caller } | { token: string | undefined };

/**
 * What every tool of one MCP server acts through, so each tool is a function of the connection rather than a closure
 * inside the server: the runtime, the catalog, who the connection acts for and how an action runs over MCP.
 */
export interface McpConnection {
  rt: Runtime;
  view: CatalogView;
  /** The member the connection acts for: fixed (stdio), or read from its token on each call (HTTP). */
  caller(): Promise<Caller>;
  /** Runs the action as the connection (or as `who`, already authenticated); a versioned record with its ETag. */
  run(action: AnyAction, input: unknown, requestId: string, who?: Caller, confirmer?: Confirmer): Promise<unknown>;
}

export function openConnection(rt: Runtime, view: CatalogView, identity: McpIdentity): McpConnection {
  return {
    rt,
    view,
    caller: async () => ('caller' in identity ? identity.caller : authenticate(rt.store, identity.token)),
    run: async (action, input, requestId, who, confirmer) =>
      withEtag(
        action,
        await invoke(rt, action, input, {
          ...(who ? { caller: who } : identity),
          requestId,
          surface: 'mcp',
          ...(confirmer ? { confirmer } : {}),
        }),
      ),
  };
}

/** A versioned record read over MCP also carries its exact ETag, ready to pass back as ifMatch. */
function withEtag(action: AnyAction, output: unknown): unknown {
  const etag = returnsVersionedRecord(action) ? etagOf(output) : undefined;
  return etag ? { ...(output as object), etag } : output;
}
