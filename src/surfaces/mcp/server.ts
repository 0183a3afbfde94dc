import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AnyAction } from '../../core/define-action.js';
import type { Caller } from '../../core/context.js';
import { invoke, type Runtime } from '../../core/invoke.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { parseInput } from '../../core/validation.js';
import { standaloneJsonSchema } from '../json-schema.js';
import { etagOf, returnsVersionedRecord } from '../etag.js';
import { toolError } from './tool-errors.js';
import { describeAction } from './describe.js';

export const SERVER_INFO = { name: 'studio', version: '0.1.0' };

/** How a connection proves who it acts for: a fixed member (stdio) or a bearer token (HTTP). */
export type McpIdentity = { caller: Caller } | { token: string | undefined };

/** MCP annotations follow from the declaration, never written per tool. */
export function annotationsOf(action: AnyAction) {
  const read = action.effect === 'query';
  return {
    title: action.mcp?.title,
    readOnlyHint: read,
    destructiveHint: !read && !action.keyed,
    idempotentHint: read || Boolean(action.versioned) || Boolean(action.keyed),
    openWorldHint: false,
  };
}

/** A versioned record read over MCP also carries its exact ETag, ready to pass back as ifMatch. */
function withEtag(action: AnyAction, output: unknown): unknown {
  const etag = returnsVersionedRecord(action) ? etagOf(output) : undefined;
  return etag ? { ...(output as object), etag } : output;
}

function outputSchemaOf(action: AnyAction): Tool['outputSchema'] {
  const schema = standaloneJsonSchema(action.output, 'output') as Tool['outputSchema'] & { $ref?: string; $defs?: Record<string, { properties?: object }> };
  // Tool output schemas must be objects at the top: resolve a top-level $ref into its definition.
  const resolved = schema.$ref ? { ...schema.$defs![schema.$ref.replace('#/$defs/', '')], $defs: schema.$defs } : schema;
  if (returnsVersionedRecord(action)) {
    (resolved as { properties: Record<string, unknown> }).properties = { ...(resolved as { properties: object }).properties, etag: { type: 'string', description: 'Pass back exactly as ifMatch.' } };
  }
  return resolved as Tool['outputSchema'];
}

export const callActionInput = z.strictObject({
  name: z.string().min(1).max(100).describe('The action name, e.g. update_schedule_line.'),
  arguments: z.record(z.string(), z.unknown()).optional().describe('For procedures: { input: {...} }. For resource actions: the fields themselves.'),
});
export const getActionInput = z.strictObject({
  names: z.array(z.string().min(1).max(100)).min(1).max(10).describe('One or several action names.'),
});

/** Builds one MCP server over the catalog. HTTP creates one per request; stdio one per process. */
export function createMcpServer(rt: Runtime, actions: readonly AnyAction[], identity: McpIdentity): Server {
  const byName = new Map(actions.map((a) => [a.name, a]));
  const advertised = actions.filter((a) => a.mcp?.advertised);
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions:
      'Studio schedules: projects, sections (rooms) and lines. Use list_projects, get_project, list_lines, get_line and update_line for everyday work; call_action reaches every other capability (get_action shows its input). Keep etags exactly as returned.',
  });

  const discovery: Tool[] = [
    {
      name: 'call_action',
      description: 'Run any catalogued action by name. Procedures take { input: {...} }; resource actions take their fields directly.',
      inputSchema: standaloneJsonSchema(callActionInput, 'input') as Tool['inputSchema'],
      annotations: { title: 'Call an action', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    {
      name: 'get_action',
      description: 'Describe actions by name: input and output schema, errors, scope and an example.',
      inputSchema: standaloneJsonSchema(getActionInput, 'input') as Tool['inputSchema'],
      annotations: { title: 'Describe actions', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
  ];
  const tools: Tool[] = [
    ...discovery,
    ...advertised.map((a) => ({
      name: a.name,
      title: a.mcp!.title,
      description: a.summary,
      inputSchema: standaloneJsonSchema(a.fullInput, 'input') as Tool['inputSchema'],
      outputSchema: outputSchemaOf(a),
      annotations: annotationsOf(a),
    })),
  ];

  const run = async (action: AnyAction, args: unknown) => {
    const requestId = newId();
    try {
      const output = withEtag(action, await invoke(rt, action, args, { ...identity, requestId }));
      return { content: [{ type: 'text' as const, text: JSON.stringify(output) }], structuredContent: output as Record<string, unknown> };
    } catch (err) {
      return toolError(err, requestId);
    }
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const { name, arguments: args } = req.params;
    if (name === 'call_action') {
      try {
        const call = parseInput(callActionInput, args);
        const action = byName.get(call.name);
        if (!action) throw new ServiceError('NOT_FOUND', `No action is named ${call.name}; use get_action or the catalog at service://actions.`);
        const input = action.kind === 'procedure' ? (call.arguments ?? {}).input : call.arguments;
        const result = await run(action, input ?? {});
        return 'isError' in result ? result : { content: result.content, structuredContent: { result: result.structuredContent } };
      } catch (err) {
        return toolError(err, newId());
      }
    }
    if (name === 'get_action') {
      try {
        const { names } = parseInput(getActionInput, args);
        const found = names.map((n) => {
          const a = byName.get(n);
          if (!a) throw new ServiceError('NOT_FOUND', `No action is named ${n}.`);
          return describeAction(a);
        });
        return { content: [{ type: 'text' as const, text: JSON.stringify({ actions: found }) }], structuredContent: { actions: found } };
      } catch (err) {
        return toolError(err, newId());
      }
    }
    const action = byName.get(name);
    if (!action?.mcp?.advertised) return toolError(new ServiceError('NOT_FOUND', `No tool is named ${name}; use call_action for catalogued actions.`), newId());
    return run(action, args ?? {});
  });
  return server;
}
