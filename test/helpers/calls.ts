import { TRPCClientError } from '@trpc/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { AppRouter } from '../../generated/router.js';
import { recordBody, type Trpc } from './clients.js';

/**
 * How tests make a call and read what came back, the same way in every suite: the refusal of a typed tRPC call, and a
 * tool or procedure reached over MCP.
 */

/** The rejection of a typed tRPC call, as the client reports it. Fails the test if the call succeeded or broke otherwise. */
export async function trpcFailure(call: Promise<unknown>): Promise<TRPCClientError<AppRouter>> {
  const err = await call.then(
    (value) => {
      throw new Error(`expected the call to be refused, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  if (!(err instanceof TRPCClientError)) throw err;
  return err as TRPCClientError<AppRouter>;
}

/** The stable service code and HTTP status of a refused tRPC call. */
export async function refusal(call: Promise<unknown>): Promise<{ code: string; status: number }> {
  const err = await trpcFailure(call);
  return { code: err.data?.serviceCode ?? `no service code: ${err.message}`, status: err.data?.httpStatus ?? 0 };
}

/** The stable service code of a refused tRPC call. */
export async function codeOf(call: Promise<unknown>): Promise<string> {
  return (await refusal(call)).code;
}

/**
 * What an MCP tool answered: `result` when it succeeded, otherwise the refusal's stable `code` and its whole structured
 * `error` body (for details such as `currentVersion`). Loosely typed so tests can read either side without narrowing.
 */
export interface McpOutcome {
  result?: any;
  code?: string;
  error?: Record<string, any>;
}

/** One MCP tool call; its structured content is recorded, which fails on any floating-point number in it. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<McpOutcome> {
  const res = await client.callTool({ name, arguments: args });
  const body = recordBody((res.structuredContent ?? {}) as Record<string, any>);
  return res.isError ? { code: body.code, error: body } : { result: body };
}

/** A procedure through MCP's `call_action`, as an agent reaches it: its `result`, or the refusal's code and body. */
export async function callAction(client: Client, name: string, input: Record<string, unknown>): Promise<McpOutcome> {
  const out = await callTool(client, 'call_action', { name, arguments: { input } });
  return out.error ? out : { result: out.result.result };
}

/** Every item of a keyset-paged list: `page` reads one page from a cursor (undefined for the first). */
export async function allPages<T>(
  page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const next = await page(cursor);
    items.push(...next.items);
    cursor = next.nextCursor ?? undefined;
  } while (cursor);
  return items;
}

const FINISHED = ['succeeded', 'failed', 'canceled'];

/**
 * An operation followed to its end through get_operation_status, as a client polls it (the test's own timeout bounds
 * the wait; nothing here is timed). Answers the last record read.
 */
export async function settledOperation(client: Trpc, operationId: string) {
  for (;;) {
    const op = await client.operations.getOperationStatus.query({ operationId });
    if (FINISHED.includes(op.status)) return op;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A refused call's sentence and data, loosely typed to read the details some refusals add (currentVersion, lineId). */
export async function errorOf(call: Promise<unknown>): Promise<{ message: string; data: Record<string, any> }> {
  return (await trpcFailure(call)) as unknown as { message: string; data: Record<string, any> };
}
