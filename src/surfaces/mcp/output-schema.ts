import type { AnyAction } from '../../core/define-action.js';
import { standaloneJsonSchema } from '../../contract/json-schema.js';
import { returnsVersionedRecord } from '../../contract/etag.js';

type Schema = Record<string, unknown>;

/**
 * An advertised tool's `outputSchema`: every shape its structuredContent can take, each named by the fields that tell
 * it apart (`required`) and nothing more, so that the tools' outputs fit tools/list's 10 KB budget beside their inputs
 * (the full output schemas, with the Line shape, would take some 10 KB on their own; get_action gives them whole):
 * - the action's output: a record by its `id`, a list or page by its `items`; any other output by every field its
 *   schema requires (less any withheld from callers
 *   without pricing:read);
 * - `{ result_page }`: a read too large for one result; `{ result_summary }`: such a write;
 * - `{ code }`: an error result, which also carries its message (the MCP SDK client validates structuredContent against
 *   the outputSchema even when isError is set, so a schema without it would turn a VERSION_CONFLICT into a protocol
 *   error).
 */
export function toolOutputSchema(action: AnyAction): Schema & { type: 'object' } {
  const { $defs, ...output } = standaloneJsonSchema(action.output, 'output');
  const root = resolve(output, ($defs ?? {}) as Record<string, Schema>);
  const withheld = action.plan.redaction;
  const required = ((root.required ?? []) as string[]).filter((f) => withheld?.get(f) !== true);
  if (returnsVersionedRecord(action)) required.push('etag');
  const telling = required.filter((f) => TELLING.has(f));
  const fields = telling.length ? telling : required;
  return outlineSchema(fields, action.effect === 'query' ? 'result_page' : 'result_summary');
}

/**
 * The discovery reads' outputSchema (search_actions, get_action): `{ actions }` (each hit or description is spelled
 * out in service://actions and get_action's own answer), a `{ result_page }` when the answer is too large, or an error.
 */
export const discoveryOutputSchema = () => outlineSchema(['actions'], 'result_page');

function outlineSchema(fields: string[], large: string): Schema & { type: 'object' } {
  return { type: 'object', anyOf: [{ required: fields }, { required: [large] }, { required: ['code'] }] };
}

/** The fields that say what kind of result this is: a record's id, a list's items (its version and etag are in the description). */
const TELLING = new Set(['id', 'items']);

function resolve(s: Schema, defs: Record<string, Schema>): Schema {
  const ref = s.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return s;
  const { $ref: _r, ...siblings } = s;
  return resolve({ ...defs[ref.slice('#/$defs/'.length)], ...siblings }, defs);
}
