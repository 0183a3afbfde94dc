import { z } from 'zod';
import type { AnyAction } from '../core/define-action.js';

/** Whether an action returns one versioned record (it then carries an ETag over REST and an `etag` over MCP). */
export const returnsVersionedRecord = (action: AnyAction): boolean =>
  action.kind === 'resource' && action.output instanceof z.ZodObject && 'version' in action.output.shape;

/** The ETag of a versioned record: its version, quoted. The same text MCP hands agents as `etag`. */
export function etagOf(output: unknown): string | undefined {
  const v = (output as { version?: unknown } | null)?.version;
  return typeof v === 'number' ? `"${v}"` : undefined;
}
