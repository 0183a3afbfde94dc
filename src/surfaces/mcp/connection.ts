import { returnsVersionedRecord, versionTagOf } from '../../contract/etag.js';
import { authenticate } from '../../core/auth.js';
import type { Confirmer } from '../../core/confirmation.js';
import type { Caller } from '../../core/context.js';
import type { AnyAction } from '../../core/define-action.js';
import { invoke, type Runtime } from '../../core/invoke.js';
import type { CatalogView } from './catalog-view.js';
import type { StagedBlob } from '../../files/blob-store.js';
import { withUploads } from './uploads.js';

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

export function openConnection(
  rt: Runtime,
  view: CatalogView,
  identity: McpIdentity,
  uploads?: ReadonlyMap<string, StagedBlob>,
): McpConnection {
  return {
    rt,
    view,
    caller: async () => ('caller' in identity ? identity.caller : authenticate(rt.store, identity.token)),
    run: async (action, sent, requestId, who, confirmer) => {
      const { input, upload } = await withUploads(sent, view.fileFields.get(action.name), uploads);
      try {
        return withEtag(
          action,
          await invoke(rt, action, input, {
            ...(who ? { caller: who } : identity),
            requestId,
            surface: 'mcp',
            ...(confirmer ? { confirmer } : {}),
            ...(upload ? { upload } : {}),
          }),
        );
      } finally {
        // As an HTTP upload's route does: what the call did not keep goes before it is answered.
        if (upload) await rt.files.discard(upload);
      }
    },
  };
}

/** A versioned record read over MCP also carries its exact ETag, ready to pass back as ifMatch. */
function withEtag(action: AnyAction, output: unknown): unknown {
  const etag = returnsVersionedRecord(action) ? versionTagOf(action, output) : undefined;
  return etag ? { ...(output as object), etag } : output;
}
