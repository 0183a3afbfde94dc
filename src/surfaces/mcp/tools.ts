import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type AnyAction, etagSchema, idempotencyKeySchema } from '../../core/define-action.js';
import { Cursor, DEFAULT_PAGE_SIZE, pageLimit } from '../../core/values.js';
import { standaloneJsonSchema } from '../../contract/json-schema.js';
import { compactSchema } from './compact-schema.js';
import { discoveryOutputSchema, toolOutputSchema } from './output-schema.js';

/** The four discovery tools: mechanism, not catalog entries. */
export const DISCOVERY_TOOLS = ['search_actions', 'get_action', 'call_action', 'read_action_result'] as const;

const name = z.string().min(1).max(100);
const args = z.record(z.string(), z.unknown());

export const searchActionsInput = z.strictObject({
  query: z.string().min(1).max(300).describe('What you want to do, in plain words.'),
  domain: z.string().max(40).optional().describe('Only this domain, e.g. schedule.'),
  kind: z.enum(['resource', 'procedure', 'file']).optional(),
  limit: z.int().min(1).max(10).optional().describe('Default 5.'),
});

export const getActionInput = z.strictObject({
  names: z.array(name).min(1).max(10),
});

const fields = z
  .array(z.string().max(64))
  .min(1)
  .max(40)
  .optional()
  .describe('Reads: only these fields (and id); a list comes as rows.');

export const callActionInput = z.strictObject({
  name,
  arguments: args.optional().describe('Procedures: { input: {...} }. Resource actions: their fields.'),
  fields,
});

export const readActionResultInput = z.strictObject({
  name,
  arguments: args.optional().describe('Exactly as in the first call.'),
  fields,
  snapshot: z.string().max(64).optional().describe('From the page; omit for a fresh read.'),
  path: z.string().max(2000).optional().describe('A node (n12, k12) or JSON Pointer; default the root.'),
  offset: z.int().min(0).optional().describe('nextOffset of the page.'),
});

/**
 * Descriptions the server's instructions give once (how every list pages, what ifMatch and idempotencyKey are), left
 * out of each tool's listing so that tools/list stays in its budget; get_action keeps them on every field. A list
 * whose page size is not the default keeps its limit's description, which says its own.
 */
const SAID_IN_INSTRUCTIONS = new Set([
  Cursor.description,
  pageLimit(DEFAULT_PAGE_SIZE).description,
  etagSchema.description,
  idempotencyKeySchema.description,
]);

function inputSchema(schema: z.ZodType): Tool['inputSchema'] {
  const listed = compactSchema(standaloneJsonSchema(schema, 'input'), { listing: true }) as Tool['inputSchema'];
  for (const field of Object.values(listed.properties ?? {}) as Array<{ description?: string }>)
    if (SAID_IN_INSTRUCTIONS.has(field.description)) delete field.description;
  return listed;
}
const readOnly = { readOnlyHint: true, openWorldHint: false };

/**
 * MCP annotations follow from the declaration, never written per tool. destructiveHint and idempotentHint mean
 * something only when readOnlyHint is false (MCP spec), so reads carry just readOnlyHint and openWorldHint.
 */
export function annotationsOf(action: AnyAction) {
  const read = action.effect === 'query';
  return {
    title: action.mcp?.title,
    readOnlyHint: read,
    ...(read
      ? {}
      : { destructiveHint: !action.keyed, idempotentHint: Boolean(action.versioned) || Boolean(action.keyed) }),
    openWorldHint: false,
  };
}

function discoveryTools(): Tool[] {
  return [
    {
      name: 'search_actions',
      description: 'Find actions for a task in plain words; then get_action and call_action.',
      inputSchema: inputSchema(searchActionsInput),
      outputSchema: discoveryOutputSchema(),
      annotations: { title: 'Search actions', ...readOnly },
    },
    {
      name: 'get_action',
      description: 'Describe actions: arguments for call_action, output, errors, scope, example.',
      inputSchema: inputSchema(getActionInput),
      outputSchema: discoveryOutputSchema(),
      annotations: { title: 'Describe actions', ...readOnly },
    },
    {
      name: 'call_action',
      description: 'Run any action by name. Errors carry a code and the next step.',
      inputSchema: inputSchema(callActionInput),
      annotations: {
        title: 'Call an action',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    {
      name: 'read_action_result',
      description:
        'Reads over 8,000 bytes return { result_page }: read on with the same name, arguments, its snapshot, a node path, offset.',
      inputSchema: inputSchema(readActionResultInput),
      annotations: { title: 'Read a large result', ...readOnly },
    },
  ];
}

/** Every tool the server lists: the discovery tools, then the advertised everyday actions. */
export function buildToolList(actions: readonly AnyAction[]): Tool[] {
  return [
    ...discoveryTools(),
    ...actions
      .filter((a) => a.mcp?.advertised)
      .map((a) => ({
        name: a.name,
        description: a.summary,
        inputSchema: withoutOptionalNotes(inputSchema(a.publishedInput)),
        // In outline (see toolOutputSchema): the full output schemas are one get_action away.
        outputSchema: toolOutputSchema(a),
        annotations: annotationsOf(a),
      })),
  ];
}

/**
 * An advertised action's input as tools/list gives it: the notes on its optional fields left out (13 tools within
 * 10,240 bytes), those on the fields it requires kept. get_action gives the schema whole, every note included, and a
 * refusal names the field and what to send.
 */
function withoutOptionalNotes(schema: Tool['inputSchema']): Tool['inputSchema'] {
  const required = new Set(schema.required ?? []);
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([field, p]) => {
      if (required.has(field) || !p || typeof p !== 'object') return [field, p];
      const { description: _note, ...rest } = p as Record<string, unknown>;
      return [field, rest];
    }),
  );
  return { ...schema, properties };
}
