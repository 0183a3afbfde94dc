import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  McpError,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { AnyAction } from '../../core/define-action.js';
import type { Runtime } from '../../core/invoke.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { DEFAULT_PAGE_SIZE } from '../../core/values.js';
import { toolError } from './tool-errors.js';
import { failedCall, nextCallFor } from './next-call.js';
import type { StagedBlob } from '../../files/blob-store.js';
import { withImage } from './media.js';
import {
  DOCUMENT_RESOURCE_TEMPLATE,
  isDocumentUri,
  readDocumentResource,
  withDocumentLink,
} from './document-resources.js';
import type { Notify } from './operations.js';
import { readCatalogResource, RESOURCES, RESOURCE_TEMPLATES } from './resources.js';
import { canElicit, elicitationConfirmer } from './elicitation.js';
import { catalogView } from './catalog-view.js';
import { type McpConnection, type McpIdentity, openConnection } from './connection.js';
import { bounded, boundedWrite, operationAnswer } from './answers.js';
import { inputOf } from './arguments.js';
import { type CatalogTool, catalogTools } from './catalog-tools.js';
import { type CatalogSource, loadedCatalog } from './catalog-source.js';

export { annotationsOf, callActionInput, getActionInput } from './tools.js';
export { catalogView } from './catalog-view.js';
export type { McpIdentity } from './connection.js';
export { inputOf } from './arguments.js';

export const SERVER_INFO = { name: 'studio', version: '0.1.0' };

export interface McpServerOptions {
  /**
   * Whether this connection can carry a question to the person (elicitation) in the middle of a tools/call: true for
   * a connection that lives as long as its client (stdio, in memory). Stateless HTTP cannot: its server never sees
   * the client's initialize, and the answer would arrive as another request, to another server. Acts the person must
   * confirm then take confirm: true, as on the other APIs.
   */
  elicitation: boolean;
  /**
   * The files an HTTP request's body carried base64, read out of it to staged files as it arrived, by the stand-in
   * the message holds in their place (mcp/request-body.ts); a call hands its own to `invoke` as an upload.
   */
  uploads?: ReadonlyMap<string, StagedBlob>;
}

const INSTRUCTIONS =
  'Studio schedules: projects, sections (rooms) and lines (items). list_projects, get_project, list_lines, get_line and update_line cover everyday work; ' +
  "list_photographs then get_photograph shows a line's photographs as images; add_photograph adds one (base64). " +
  'search_actions finds any other capability, get_action shows its input, call_action runs it. ' +
  'ifMatch is the etag of your last read, exactly as returned (quotes included); idempotencyKey is a fresh UUID per act, sent again unchanged to retry it safely. ' +
  `Lists page: send the nextCursor they answer back as cursor; limit is the page size (default ${DEFAULT_PAGE_SIZE} unless its own description says otherwise). ` +
  'A result over 8,000 bytes comes back as { result_page }: continue with read_action_result.';

/** Builds one MCP server over the catalog. HTTP creates one per request; stdio one per process. */
export function createMcpServer(
  rt: Runtime,
  catalog: readonly AnyAction[] | CatalogSource,
  identity: McpIdentity,
  options: McpServerOptions = { elicitation: true },
): Server {
  const source = isSource(catalog) ? catalog : loadedCatalog(catalog);
  // Everything but tools/list and the resource listings needs the actions: the connection is made when they arrive.
  let ready: Promise<Ready> | undefined;
  const connect = () =>
    (ready ??= source.actions().then((actions) => {
      const connection = openConnection(rt, catalogView(actions), identity, options.uploads);
      return { actions, connection, handlers: catalogTools(connection) };
    }));
  // logging: clients may set a level (the SDK answers logging/setLevel); completions: action names for the template.
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: {}, logging: {}, completions: {} },
    instructions: INSTRUCTIONS,
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await source.tools() }));
  serveTools(server, connect, options);
  serveResources(server, connect);
  return server;
}

const isSource = (c: readonly AnyAction[] | CatalogSource): c is CatalogSource => !Array.isArray(c);

/** The catalog once loaded, and what acts through it. */
interface Ready {
  actions: readonly AnyAction[];
  connection: McpConnection;
  handlers: Record<string, CatalogTool>;
}

// Every tool call answers as a tool result the agent reads, errors too: the catalog's own tools, then the actions
// advertised as tools of their own.
function serveTools(server: Server, connect: () => Promise<Ready>, options: McpServerOptions): void {
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const { connection, handlers } = await connect();
    const { rt, view, run } = connection;
    const { name, arguments: args } = req.params;
    const requestId = newId();
    // A client that sent a progress token hears how a long act goes (notifications/progress).
    const progressToken = req.params._meta?.progressToken;
    const notify: Notify | undefined =
      progressToken === undefined
        ? undefined
        : (p) => extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...p } });
    // An act the person must confirm is put to them through their client when it declared it can ask (elicitation).
    const confirmer =
      options.elicitation && canElicit(server.getClientCapabilities()) ? elicitationConfirmer(extra) : undefined;
    try {
      // hasOwn: a tool named "constructor" or "toString" is unknown, not Object.prototype's.
      const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
      if (handler) return await handler(args, requestId, notify, confirmer);
      const action = view.byName.get(name);
      if (!action?.mcp?.advertised)
        throw new ServiceError('NOT_FOUND', `No tool is named ${name}; call_action reaches every catalogued action.`);
      const input = inputOf(action, args);
      const output = await run(action, input, requestId, undefined, confirmer);
      const wrap = (d: unknown) => d as Record<string, unknown>;
      if (action.startsOperation) return await operationAnswer(connection, { name, input, output }, notify, wrap);
      return action.effect === 'mutation'
        ? boundedWrite(name, input, output, wrap)
        : withImage(
            rt,
            action,
            output,
            withDocumentLink(action, input, output, bounded(name, input, output, undefined, wrap)),
          );
    } catch (err) {
      const failed = failedCall(view.byName, name, args);
      return toolError(err, requestId, (code) => nextCallFor(code, failed, view.byName.values()));
    }
  });
}

// The catalog is also readable as resources (service://actions and one per action), with action names completed; and
// each document of the member's studio, by the resource_link download_document answers.
function serveResources(server: Server, connect: () => Promise<Ready>): void {
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: RESOURCES }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [...RESOURCE_TEMPLATES, DOCUMENT_RESOURCE_TEMPLATE],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const { connection, actions } = await connect();
    return isDocumentUri(req.params.uri)
      ? readDocumentResource(connection, req.params.uri)
      : readCatalogResource(actions, req.params.uri);
  });
  server.setRequestHandler(CompleteRequestSchema, async (req) => {
    const { ref, argument } = req.params;
    if (ref.type !== 'ref/resource' || ref.uri !== RESOURCE_TEMPLATES[0]!.uriTemplate || argument.name !== 'name') {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Nothing to complete for ${ref.type === 'ref/prompt' ? `prompt ${ref.name}` : ref.uri} ${argument.name}; this server has no prompts, and completes only {name} of service://actions/{name}.`,
      );
    }
    const { actions } = await connect();
    const matches = actions.map((a) => a.name).filter((n) => n.startsWith(argument.value));
    return { completion: { values: matches.slice(0, 100), total: matches.length, hasMore: matches.length > 100 } };
  });
}
