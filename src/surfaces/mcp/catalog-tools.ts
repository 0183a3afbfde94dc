import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Confirmer } from '../../core/confirmation.js';
import { ServiceError } from '../../core/errors.js';
import { parseInput } from '../../core/validation.js';
import { bounded, boundedWrite, operationAnswer, pagedRun } from './answers.js';
import { inputOf, refuseMisplacedArguments } from './arguments.js';
import type { McpConnection } from './connection.js';
import { describeActions } from './describe.js';
import { fieldSelection } from './field-selection.js';
import type { Notify } from './operations.js';
import type { ActionSearch } from './search.js';
import { callActionInput, getActionInput, readActionResultInput, searchActionsInput } from './tools.js';

/** A tool of the server's own: its arguments as sent, and what the call carries (progress, a way to confirm). */
export type CatalogTool = (
  args: Record<string, unknown> | undefined,
  requestId: string,
  notify?: Notify,
  confirmer?: Confirmer,
) => Promise<CallToolResult>;

type DiscoveryRead = (args: unknown) => Promise<Record<string, unknown>>;

const CALL_ACTION_FIELDS = new Set(Object.keys(callActionInput.shape));
const READ_RESULT_FIELDS = new Set(Object.keys(readActionResultInput.shape));

/** The four tools that reach the whole catalog: find an action, read its input, call it, page through its result. */
export function catalogTools(connection: McpConnection): Record<string, CatalogTool> {
  const discovery = discoveryReads(connection);
  return {
    search_actions: async (args) =>
      bounded(
        'search_actions',
        args ?? {},
        await discovery.search_actions!(args),
        undefined,
        (d) => d as Record<string, unknown>,
      ),
    get_action: async (args) =>
      bounded(
        'get_action',
        args ?? {},
        await discovery.get_action!(args),
        undefined,
        (d) => d as Record<string, unknown>,
      ),
    call_action: (args, requestId, notify, confirmer) => callAction(connection, args, requestId, notify, confirmer),
    read_action_result: (args, requestId) => readActionResult(connection, discovery, args, requestId),
  };
}

// The discovery reads are tools and also reads whose long answers read_action_result pages through.
function discoveryReads(connection: McpConnection): Record<string, DiscoveryRead> {
  const { view, caller } = connection;
  return {
    search_actions: async (args) => {
      const { query, ...opts } = parseInput(searchActionsInput, args);
      return { ...view.search.search(query, await caller(), opts) };
    },
    get_action: async (args) => {
      const { names } = parseInput(getActionInput, args);
      await caller();
      return describeActions(
        [...new Set(names)].map((n) => {
          const a = view.byName.get(n);
          if (!a) throw unknownAction(n, view.search);
          return a;
        }),
      );
    },
  };
}

// call_action runs any catalogued action: a write whole or summarised (never re-run), a read paged.
async function callAction(
  connection: McpConnection,
  args: Record<string, unknown> | undefined,
  requestId: string,
  notify?: Notify,
  confirmer?: Confirmer,
): Promise<CallToolResult> {
  const { view, run } = connection;
  refuseMisplacedArguments('call_action', args, CALL_ACTION_FIELDS, view.byName);
  const call = parseInput(callActionInput, args, { checkText: false });
  const action = view.byName.get(call.name);
  if (!action) throw unknownAction(call.name, view.search);
  const input = inputOf(action, call.arguments);
  const wrap = (d: unknown) => ({ result: d });
  if (action.effect === 'mutation') {
    fieldSelection(action, call.fields); // refuses fields on a write before it runs
    const output = await run(action, input, requestId, undefined, confirmer);
    if (action.startsOperation) return operationAnswer(connection, { name: action.name, input, output }, notify, wrap);
    return boundedWrite(action.name, input, output, wrap);
  }
  return pagedRun(connection, action, { input, selection: {}, requestId, fields: call.fields });
}

// read_action_result pages through a read's kept result; a write is never re-run to produce pages.
async function readActionResult(
  connection: McpConnection,
  discoveryReads: Record<string, DiscoveryRead>,
  args: Record<string, unknown> | undefined,
  requestId: string,
): Promise<CallToolResult> {
  const { view } = connection;
  refuseMisplacedArguments('read_action_result', args, READ_RESULT_FIELDS, view.byName);
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
  const action = view.byName.get(name);
  if (!action) throw unknownAction(name, view.search);
  if (action.effect !== 'query') {
    throw new ServiceError(
      'METHOD_NOT_ALLOWED',
      `${name} changes data, so it is never re-run to read pages; read the records it changed with a read action instead.`,
    );
  }
  return pagedRun(connection, action, { input: inputOf(action, callArgs), selection, requestId, fields });
}

export /** An unknown name answers with the closest actions by meaning ("delete_line" → archive_line): archival, not deletion. */
function unknownAction(name: string, search: ActionSearch): ServiceError {
  const closest = [...new Set(search.rank(name.replace(/[_-]+/g, ' ').slice(0, 200), 3))].slice(0, 3);
  return new ServiceError(
    'NOT_FOUND',
    `No action is named ${name.slice(0, 100)}.${closest.length ? ` Closest by meaning: ${closest.join(', ')}.` : ''} search_actions finds actions by task; service://actions lists them all.`,
  );
}
