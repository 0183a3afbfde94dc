import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AnyAction } from '../../core/define-action.js';
import { CONTROL_FIELDS } from '../../core/define-action.js';
import type { ErrorCode } from '../../core/errors.js';

/**
 * A call an agent can send exactly as written over MCP: the tool and its arguments. Hints that name a call carry one
 * (`nextCall` in a tool error), so what the text tells an agent to do is a call that works, not a paraphrase of one.
 */
export interface NextCall {
  tool: string;
  arguments: Record<string, unknown>;
}

/** The action a failed tool call was about, and the input it was given in the action's own shape. */
export interface FailedCall {
  action: AnyAction;
  input: Record<string, unknown>;
}

/**
 * `action` with `input` (its own fields) over MCP: its advertised tool, or call_action, a procedure's fields inside
 * `input` as call_action takes them.
 */
export function mcpCall(action: AnyAction, input: Record<string, unknown>): NextCall {
  const args = action.kind === 'procedure' ? { input } : input;
  return action.mcp?.advertised
    ? { tool: action.name, arguments: args }
    : { tool: 'call_action', arguments: { name: action.name, arguments: args } };
}

/** What a failed MCP call was about: the catalogued action it named and its input, when the arguments say. */
export function failedCall(
  byName: ReadonlyMap<string, AnyAction>,
  tool: string,
  args: Record<string, unknown> | undefined,
): FailedCall | undefined {
  const via = tool === 'call_action';
  const action = byName.get(via && typeof args?.name === 'string' ? args.name : tool);
  if (!action || (!via && !action.mcp?.advertised)) return undefined;
  const given = (via ? args?.arguments : args) as Record<string, unknown> | undefined;
  const input = (action.kind === 'procedure' ? given?.input : given) as Record<string, unknown> | undefined;
  return { action, input: input && typeof input === 'object' ? input : {} };
}

/**
 * The read that answers the record a versioned write changes, with the version or etag to send: the resource's
 * `etagFrom`; else a read of the same kind that takes only ids the write was given, the record's own id among them,
 * and answers a record with its version (get_supplier for update_supplier and archive_supplier), the write's own
 * output first.
 */
export function readOf(write: AnyAction, actions: Iterable<AnyAction>): AnyAction | undefined {
  if (write.etagFrom) return write.etagFrom;
  const versioned = write.versioned;
  if (!versioned || !('idField' in versioned)) return undefined;
  const writeFields = new Set(Object.keys(write.input.shape));
  // The caller's own studio is never named by an id: its read takes none.
  const namesRecord = (fields: string[]) => versioned.idField === 'studioId' || fields.includes(versioned.idField);
  const required = (a: AnyAction) =>
    Object.entries(a.input.shape as Record<string, z.ZodType>).flatMap(([f, t]) =>
      t.safeParse(undefined).success ? [] : [f],
    );
  const reads = [...actions].filter((a) => a.effect === 'query' && a.kind === write.kind);
  // Its own read carries the record's name or answers the write's own record (get_studio_project for a project, not
  // the project's document settings).
  const records = reads.filter((a) => {
    const fields = Object.keys(a.input.shape);
    const own = a.name.includes(entityWord(write)) || a.output === write.output;
    return own && hasVersion(a.output) && namesRecord(fields) && fields.every((f) => writeFields.has(f));
  });
  // A record only ever listed (a property's options, saved views): the list that holds it, given the write's ids.
  const lists = reads.filter((a) => {
    const items = a.output instanceof z.ZodObject ? a.output.shape.items : undefined;
    return items instanceof z.ZodArray && hasVersion(items.element) && required(a).every((f) => writeFields.has(f));
  });
  return (
    records.find((a) => a.output === write.output) ??
    records[0] ??
    lists.find((a) => a.name.includes(entityWord(write)))
  );
}

const hasVersion = (schema: unknown) => schema instanceof z.ZodObject && 'version' in schema.shape;
/** The word a list's name carries for the record a write changes: saved_view, custom_property_option … */
const entityWord = (write: AnyAction) => write.versioned!.entity.name.replaceAll(' ', '_');

/** The input of `read` taken from a write's input: the ids they share. */
const readInput = (read: AnyAction, input: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(read.input.shape).flatMap((f) => (f in input ? [[f, input[f]]] : [])));

/** The call that moves a failed call on, for the codes whose next step is a call; undefined for the others. */
export function nextCallFor(
  code: ErrorCode,
  failed: FailedCall | undefined,
  actions: Iterable<AnyAction>,
): { call: NextCall; says: string } | undefined {
  if (!failed) return undefined;
  const { action, input } = failed;
  const key = CONTROL_FIELDS[action.kind].key;
  const where = action.kind === 'procedure' ? ' (inside input)' : '';
  switch (code) {
    case 'IDEMPOTENCY_KEY_REQUIRED':
    case 'IDEMPOTENCY_KEY_REUSED':
      return {
        call: mcpCall(action, { ...input, [key]: randomUUID() }),
        says: `Send the call again with ${key}${where}: a fresh UUID for this act (the same key retries it safely), as nextCall shows.`,
      };
    case 'IDEMPOTENCY_IN_PROGRESS':
      return {
        call: mcpCall(action, input),
        says: `Wait a second, then send the same call with the same ${key} (nextCall): it answers as the first one did.`,
      };
    case 'VERSION_CONFLICT':
    case 'PRECONDITION_REQUIRED': {
      const read = action.versioned ? readOf(action, actions) : undefined;
      if (!read) return undefined;
      const field = CONTROL_FIELDS[action.kind].version;
      const value = action.kind === 'resource' ? 'its etag, exactly as returned' : 'its version';
      return {
        call: mcpCall(read, readInput(read, input)),
        says:
          code === 'VERSION_CONFLICT'
            ? `Read it again with ${read.name} (nextCall), show the person what changed, and only then retry with ${value} as ${field}${where}. Do not replay automatically.`
            : `Read it first with ${read.name} (nextCall) and send ${value} as ${field}${where}.`,
      };
    }
    case 'VERIFICATION_REQUIRED':
    case 'VERIFICATION_FAILED':
      if (!('verificationCode' in action.input.shape)) return undefined;
      return {
        call: mcpCall(action, { ...input, verificationCode: '<the 6-digit code from the email>' }),
        says:
          code === 'VERIFICATION_REQUIRED'
            ? 'Ask the person for the 6-digit code just emailed to them (sentTo), then send nextCall with verificationCode set to it, within 10 minutes. The same idempotencyKey is fine.'
            : 'Ask the person to check the latest email for the code and send nextCall with it; without verificationCode the call emails a new code.',
      };
    default:
      return undefined;
  }
}

/** How to follow an operation that is still running: get_operation_status (a procedure), through call_action. */
export const operationPoll = (operationId: string): NextCall => ({
  tool: 'call_action',
  arguments: { name: 'get_operation_status', arguments: { input: { operationId } } },
});
