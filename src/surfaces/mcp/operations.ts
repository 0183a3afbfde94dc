import type { CallToolResult, ProgressToken } from '@modelcontextprotocol/sdk/types.js';
import { operationPoll } from './next-call.js';
import type { Caller } from '../../core/context.js';
import type { Runtime } from '../../core/invoke.js';
import { getOperation, type PresentedOperation } from '../../jobs/operations.js';

const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);
/** Clients give up on a call after about a minute (the SDK's default): answer before then, saying how to go on. */
const FOLLOW_MS = 50_000;

export type Notify = (progress: { progress: number; total?: number; message: string }) => Promise<void>;

/**
 * An MCP call that started an operation and brought a progress token: the operation is followed to its end, each
 * change of progress sent as notifications/progress, and the final record answered. Without a token, or past the
 * time a client waits, the operation is answered as it stands, with how to poll.
 */
export async function followOperation(
  rt: Runtime,
  who: Caller,
  started: PresentedOperation,
  notify: Notify | undefined,
): Promise<PresentedOperation> {
  if (!notify) return started;
  const until = Date.now() + FOLLOW_MS;
  let op = started;
  let reported = -1;
  while (!TERMINAL.has(op.status) && Date.now() < until) {
    if (op.progress.completed !== reported) {
      reported = op.progress.completed;
      await notify({
        progress: op.progress.completed,
        ...(op.progress.total ? { total: op.progress.total } : {}),
        message: `${op.kind}: ${op.status}`,
      });
    }
    await new Promise((r) => setTimeout(r, 200));
    op = await rt.store.readSnapshot((db) => getOperation({ db, studioId: who.studioId }, started.id));
  }
  return op;
}

/** The poll instruction an operation's tool result carries while it is not finished. */
export function pollHint(result: CallToolResult, op: PresentedOperation): CallToolResult {
  if (TERMINAL.has(op.status)) return result;
  return {
    ...result,
    content: [
      ...result.content,
      {
        type: 'text',
        text: `Operation ${op.id} is ${op.status}: send this call about every second until its status is succeeded, failed or canceled: ${JSON.stringify(operationPoll(op.id))}`,
      },
    ],
  };
}

export type { ProgressToken };
