import { ServiceError } from '../../core/errors.js';

/**
 * Opaque keyset cursors: base64url JSON of the sort they belong to and the last row's key. A cursor from another sort,
 * or one that was edited, is refused with a clear 400 rather than silently giving a wrong page.
 */
export function encodeCursor(sort: string, key: unknown[]): string {
  return Buffer.from(JSON.stringify({ s: sort, k: key })).toString('base64url');
}

/** The key a cursor holds, which has `arity` parts (one per column of its sort). */
export function decodeCursor(cursor: string, sort: string, arity: number): unknown[] {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown; k?: unknown };
    const k = parsed.k;
    if (parsed.s === sort && Array.isArray(k) && k.length === arity && k.every(isKeyPart)) return k;
  } catch {
    // fall through to the error below
  }
  throw new ServiceError(
    'VALIDATION_FAILED',
    'The cursor is not valid for this list and sort; pass nextCursor exactly as returned, with the same sort, or omit it to start over.',
    {
      errors: [{ path: 'cursor', message: 'Unknown or altered cursor.' }],
    },
  );
}

const isKeyPart = (v: unknown) => v === null || typeof v === 'string' || Number.isSafeInteger(v);
