import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { failedCall, nextCallFor } from './next-call.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  McpError,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { AnyAction } from '../../core/define-action.js';
import type { Caller } from '../../core/context.js';
import { invoke, type Runtime } from '../../core/invoke.js';
import { authenticate } from '../../core/auth.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { parseInput } from '../../core/validation.js';
import { boundedResult, pagedRead, type Selection } from '../result-pages/paging.js';
import { snapshotsOf } from '../result-pages/snapshot-cache.js';
import { returnsVersionedRecord } from '../../contract/etag.js';
import { etagOf } from '../../core/etag.js';
import { toolError } from './tool-errors.js';
import { fieldSelection } from './field-selection.js';
import { writeSummary } from './write-summary.js';
import { withImage } from './media.js';
import { followOperation, type Notify, pollHint } from './operations.js';
import type { PresentedOperation } from '../../jobs/operations.js';
import { describeActions } from './describe.js';
import { ActionSearch } from './search.js';
import { buildToolList, callActionInput, getActionInput, readActionResultInput, searchActionsInput } from './tools.js';
import { readCatalogResource, RESOURCES, RESOURCE_TEMPLATES } from './resources.js';
import type { Confirmer } from '../../core/confirmation.js';
import { canElicit, elicitationConfirmer } from './elicitation.js';
import { fileFields, withUploads } from './uploads.js';
import type { StagedBlob } from '../../files/blob-store.js';

export { annotationsOf, callActionInput, getActionInput } from './tools.js';

export const SERVER_INFO = { name: 'studio', version: '0.1.0' };

/** How a connection proves who it acts for: a fixed member (stdio) or a bearer token (HTTP). */
export type McpIdentity = { caller: Caller } | { token: string | undefined };

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
  'search_actions finds any other capability, get_action shows its input, call_action runs it. Keep etags exactly as returned. ' +
  'A result over 8,000 bytes comes back as { result_page }: continue with read_action_result.';

/** What one catalog needs on every connection, built once (HTTP builds a server per request). */
interface CatalogView {
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

/** A versioned record read over MCP also carries its exact ETag, ready to pass back as ifMatch. */
function withEtag(action: AnyAction, output: unknown): unknown {
  const etag = returnsVersionedRecord(action) ? etagOf(output) : undefined;
  return etag ? { ...(output as object), etag } : output;
}

/** At most 40 code points of a field name the caller sent (never half a surrogate pair). */
const clip = (name: string) => {
  const points = [...name];
  return points.length > 40 ? `${points.slice(0, 40).join('')}…` : name;
};
/** Field names as a message lists them: each once, at most 20, none longer than 40 characters. */
const fieldList = (names: string[]) => {
  const unique = [...new Set(names)];
  return unique.slice(0, 20).map(clip).join(', ') + (unique.length > 20 ? ', …' : '');
};

/**
 * call_action's `arguments` as the action's input: a procedure's input is wrapped in `input`, every other action takes
 * its fields at the top level. The two mix-ups are refused by name, with the call to make instead, rather than as the
 * missing fields they would otherwise look like.
 */
export function inputOf(action: AnyAction, args: Record<string, unknown> | undefined): unknown {
  const sent = args ?? {};
  if (action.kind === 'procedure') {
    const outside = Object.keys(sent).filter((k) => k !== 'input');
    if (outside.length) {
      const inside = Object.hasOwn(sent, 'input') && sent.input && typeof sent.input === 'object' ? sent.input : {};
      const fields = fieldList([...Object.keys(inside), ...outside]);
      throw new ServiceError(
        'VALIDATION_FAILED',
        `${action.name} is a procedure: wrap these fields in input, i.e. send arguments: { input: { ${fields} } }.`,
        {
          errors: outside
            .slice(0, 20)
            .map((k) => ({ path: clip(k), message: 'Outside input: procedures take every field inside input.' })),
        },
      );
    }
    return sent.input ?? {};
  }
  if (Object.hasOwn(sent, 'input') && !Object.hasOwn(action.fullInput.shape, 'input')) {
    const wrapped = sent.input && typeof sent.input === 'object' ? Object.keys(sent.input) : [];
    const fields = fieldList([...wrapped, ...Object.keys(sent).filter((k) => k !== 'input')]);
    throw new ServiceError(
      'VALIDATION_FAILED',
      `${action.name} takes its fields at the top level, not wrapped in input: send arguments: { ${fields || '…'} }.`,
      {
        errors: [
          { path: 'input', message: 'Unknown field: this action takes its fields at the top level; unwrap them.' },
        ],
      },
    );
  }
  return sent;
}

/**
 * call_action and read_action_result take the action's own fields inside `arguments`. An agent that puts them beside
 * `name` (or under `input`, `args`, `params`) is told the exact call to make, not only that a field is unknown.
 */
function refuseMisplacedArguments(
  tool: string,
  args: Record<string, unknown> | undefined,
  own: ReadonlySet<string>,
  byName: ReadonlyMap<string, AnyAction>,
) {
  const sent = args ?? {};
  const beside = Object.keys(sent).filter((k) => !own.has(k));
  if (!beside.length) return;
  const action = typeof sent.name === 'string' ? byName.get(sent.name) : undefined;
  const wrapper = beside.length === 1 && /^(input|args|params|parameters)$/.test(beside[0]!) ? beside[0]! : undefined;
  const value = wrapper ? sent[wrapper] : undefined;
  const fields = fieldList(value && typeof value === 'object' ? Object.keys(value) : beside);
  const inner = action?.kind === 'procedure' ? `{ input: { ${fields} } }` : `{ ${fields} }`;
  throw new ServiceError(
    'VALIDATION_FAILED',
    `${tool} takes the action's fields inside arguments, not beside name: send { name: ${JSON.stringify(sent.name ?? '…')}, arguments: ${inner} }.`,
    {
      errors: beside
        .slice(0, 20)
        .map((k) => ({ path: clip(k), message: `Not a field of ${tool}: move it inside arguments.` })),
    },
  );
}

const CALL_ACTION_FIELDS = new Set(Object.keys(callActionInput.shape));
const READ_RESULT_FIELDS = new Set(Object.keys(readActionResultInput.shape));

const asResult = (structured: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(structured) }],
  structuredContent: structured,
});

/** The whole result, or the selected bounded page: never a tool result over 8,000 bytes of JSON. */
function bounded(
  name: string,
  input: unknown,
  doc: unknown,
  selection: Selection | undefined,
  wrap: (d: unknown) => Record<string, unknown>,
) {
  const b = boundedResult(name, input, doc, selection, wrap);
  return asResult('whole' in b ? wrap(b.whole) : { result_page: b.result_page });
}

/** A write's result: whole when it fits, else a summary of what it touched (a write is never re-run for pages). */
function boundedWrite(name: string, input: unknown, doc: unknown, wrap: (d: unknown) => Record<string, unknown>) {
  const b = boundedResult(name, input, doc, undefined, wrap);
  return asResult('whole' in b ? wrap(b.whole) : { result_summary: writeSummary(doc) });
}

/** An unknown name answers with the closest actions by meaning ("delete_line" → archive_line): archival, not deletion. */
function unknownAction(name: string, search: ActionSearch): ServiceError {
  const closest = [...new Set(search.rank(name.replace(/[_-]+/g, ' ').slice(0, 200), 3))].slice(0, 3);
  return new ServiceError(
    'NOT_FOUND',
    `No action is named ${name.slice(0, 100)}.${closest.length ? ` Closest by meaning: ${closest.join(', ')}.` : ''} search_actions finds actions by task; service://actions lists them all.`,
  );
}

/** Builds one MCP server over the catalog. HTTP creates one per request; stdio one per process. */
export function createMcpServer(
  rt: Runtime,
  actions: readonly AnyAction[],
  identity: McpIdentity,
  options: McpServerOptions = { elicitation: true },
): Server {
  const view = catalogView(actions);
  const { byName, tools } = view;
  // logging: clients may set a level (the SDK answers logging/setLevel); completions: action names for the template.
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: {}, logging: {}, completions: {} },
    instructions: INSTRUCTIONS,
  });
  const caller = async (): Promise<Caller> =>
    'caller' in identity ? identity.caller : authenticate(rt.store, identity.token);
  const run = async (action: AnyAction, sent: unknown, requestId: string, who?: Caller, confirmer?: Confirmer) => {
    const { input, upload } = await withUploads(sent, view.fileFields.get(action.name), options.uploads);
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
  };
  /** A read, bounded; a continuation pages through the caller's kept snapshot instead of re-running the read. */
  const pagedRun = async (
    action: AnyAction,
    input: unknown,
    selection: Selection,
    requestId: string,
    fields?: readonly string[],
  ) => {
    const wrap = (d: unknown) => ({ result: d });
    const only = fieldSelection(action, fields);
    let read: unknown;
    // Authenticated once: the snapshot cache is keyed by the caller, and the read (on a miss) acts for the same one.
    const who = await caller();
    const b = await pagedRead(
      snapshotsOf(rt),
      who,
      action.name,
      only ? { input, fields: only.fields } : input,
      selection,
      async () => {
        read = await run(action, input, requestId, who);
        return only ? only.apply(read) : read;
      },
      wrap,
    );
    const result = asResult('whole' in b ? wrap(b.whole) : { result_page: b.result_page });
    return read !== undefined && !only ? withImage(rt, action, read, result) : result;
  };

  /** The discovery reads, also readable page by page through read_action_result. */
  const discoveryReads: Record<string, (args: unknown) => Promise<Record<string, unknown>>> = {
    search_actions: async (args) => {
      const { query, ...opts } = parseInput(searchActionsInput, args);
      return { ...view.search.search(query, await caller(), opts) };
    },
    get_action: async (args) => {
      const { names } = parseInput(getActionInput, args);
      await caller();
      return describeActions(
        [...new Set(names)].map((n) => {
          const a = byName.get(n);
          if (!a) throw unknownAction(n, view.search);
          return a;
        }),
      );
    },
  };

  /** A write that started an operation: followed to its end when the client can hear progress, else how to poll. */
  const operationAnswer = async (
    name: string,
    input: unknown,
    output: unknown,
    notify: Notify | undefined,
    wrap: (d: unknown) => Record<string, unknown>,
  ) => {
    const op = await followOperation(rt, await caller(), output as PresentedOperation, notify);
    return pollHint(boundedWrite(name, input, op, wrap), op);
  };

  const handlers: Record<
    string,
    (
      args: Record<string, unknown> | undefined,
      requestId: string,
      notify?: Notify,
      confirmer?: Confirmer,
    ) => Promise<CallToolResult>
  > = {
    search_actions: async (args) =>
      bounded(
        'search_actions',
        args ?? {},
        await discoveryReads.search_actions!(args),
        undefined,
        (d) => d as Record<string, unknown>,
      ),
    get_action: async (args) =>
      bounded(
        'get_action',
        args ?? {},
        await discoveryReads.get_action!(args),
        undefined,
        (d) => d as Record<string, unknown>,
      ),
    call_action: async (args, requestId, notify, confirmer) => {
      refuseMisplacedArguments('call_action', args, CALL_ACTION_FIELDS, byName);
      const call = parseInput(callActionInput, args, { checkText: false });
      const action = byName.get(call.name);
      if (!action) throw unknownAction(call.name, view.search);
      const input = inputOf(action, call.arguments);
      const wrap = (d: unknown) => ({ result: d });
      if (action.effect === 'mutation') {
        fieldSelection(action, call.fields); // refuses fields on a write before it runs
        const output = await run(action, input, requestId, undefined, confirmer);
        if (action.startsOperation) return operationAnswer(action.name, input, output, notify, wrap);
        return boundedWrite(action.name, input, output, wrap);
      }
      return pagedRun(action, input, {}, requestId, call.fields);
    },
    read_action_result: async (args, requestId) => {
      refuseMisplacedArguments('read_action_result', args, READ_RESULT_FIELDS, byName);
      const {
        name,
        arguments: callArgs,
        fields,
        ...selection
      } = parseInput(readActionResultInput, args, { checkText: false });
      const discovery = Object.hasOwn(discoveryReads, name) ? discoveryReads[name] : undefined;
      if (discovery) {
        if (fields) {
          throw new ServiceError('VALIDATION_FAILED', `${name} describes actions, not records; leave out fields.`, {
            errors: [{ path: 'fields', message: 'Only reads that return records take fields.' }],
          });
        }
        return bounded(name, callArgs ?? {}, await discovery(callArgs), selection, (d) => ({ result: d }));
      }
      const action = byName.get(name);
      if (!action) throw unknownAction(name, view.search);
      if (action.effect !== 'query') {
        throw new ServiceError(
          'METHOD_NOT_ALLOWED',
          `${name} changes data, so it is never re-run to read pages; read the records it changed with a read action instead.`,
        );
      }
      return pagedRun(action, inputOf(action, callArgs), selection, requestId, fields);
    },
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
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
      const action = byName.get(name);
      if (!action?.mcp?.advertised)
        throw new ServiceError('NOT_FOUND', `No tool is named ${name}; call_action reaches every catalogued action.`);
      const input = inputOf(action, args);
      const output = await run(action, input, requestId, undefined, confirmer);
      const wrap = (d: unknown) => d as Record<string, unknown>;
      if (action.startsOperation) return await operationAnswer(name, input, output, notify, wrap);
      return action.effect === 'mutation'
        ? boundedWrite(name, input, output, wrap)
        : withImage(rt, action, output, bounded(name, input, output, undefined, wrap));
    } catch (err) {
      const failed = failedCall(byName, name, args);
      return toolError(err, requestId, (code) => nextCallFor(code, failed, actions));
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: RESOURCES }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => readCatalogResource(actions, req.params.uri));
  server.setRequestHandler(CompleteRequestSchema, async (req) => {
    const { ref, argument } = req.params;
    if (ref.type !== 'ref/resource' || ref.uri !== RESOURCE_TEMPLATES[0]!.uriTemplate || argument.name !== 'name') {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Nothing to complete for ${ref.type === 'ref/prompt' ? `prompt ${ref.name}` : ref.uri} ${argument.name}; this server has no prompts, and completes only {name} of service://actions/{name}.`,
      );
    }
    const matches = actions.map((a) => a.name).filter((n) => n.startsWith(argument.value));
    return { completion: { values: matches.slice(0, 100), total: matches.length, hasMore: matches.length > 100 } };
  });
  return server;
}
