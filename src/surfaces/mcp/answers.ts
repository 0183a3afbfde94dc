import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AnyAction } from '../../core/define-action.js';
import type { PresentedOperation } from '../../jobs/operations.js';
import { boundedResult, pagedRead, type Selection } from '../result-pages/paging.js';
import { snapshotsOf } from '../result-pages/snapshot-cache.js';
import type { McpConnection } from './connection.js';
import { fieldSelection } from './field-selection.js';
import { withImage } from './media.js';
import { withDocumentLink } from './document-resources.js';
import { followOperation, type Notify, pollHint } from './operations.js';
import { writeSummary } from './write-summary.js';

/**
 * How a tool's result goes back to the agent: never a tool result over 8,000 bytes of JSON. A read is paged, a write
 * summarised, an operation followed or pointed to.
 */

export const asResult = (structured: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(structured) }],
  structuredContent: structured,
});

/** The whole result, or the selected bounded page: never a tool result over 8,000 bytes of JSON. */
export function bounded(
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
export function boundedWrite(
  name: string,
  input: unknown,
  doc: unknown,
  wrap: (d: unknown) => Record<string, unknown>,
) {
  const b = boundedResult(name, input, doc, undefined, wrap);
  return asResult('whole' in b ? wrap(b.whole) : { result_summary: writeSummary(doc) });
}

/** A read, bounded; a continuation pages through the caller's kept snapshot instead of re-running the read. */
export async function pagedRun(
  connection: McpConnection,
  action: AnyAction,
  call: { input: unknown; selection: Selection; requestId: string; fields?: readonly string[] },
) {
  const { rt, caller, run } = connection;
  const { input, selection, requestId, fields } = call;
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
  if (read === undefined) return result;
  const linked = withDocumentLink(action, input, read, result);
  return only ? linked : withImage(rt, action, read, linked);
}

/** A write that started an operation: followed to its end when the client can hear progress, else how to poll. */
export async function operationAnswer(
  connection: McpConnection,
  written: { name: string; input: unknown; output: unknown },
  notify: Notify | undefined,
  wrap: (d: unknown) => Record<string, unknown>,
) {
  const op = await followOperation(
    connection.rt,
    await connection.caller(),
    written.output as PresentedOperation,
    notify,
  );
  return pollHint(boundedWrite(written.name, written.input, op, wrap), op);
}
