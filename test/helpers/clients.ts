import { createTRPCClient, httpBatchLink, httpLink } from '@trpc/client';
import type { AppRouter } from '../../generated/router.js';
import { floatsIn } from './fixtures.js';

/** Every JSON body the e2e suite receives passes through here, so "no float anywhere" is checked on all of them. */
export const seenBodies: unknown[] = [];
/** Records a JSON body received by other means (MCP structured results), failing on any float in it. */
export function recordBody<T>(body: T): T {
  return record(body) as T;
}
function record(body: unknown) {
  const floats = floatsIn(body);
  if (floats.length) throw new Error(`floating-point number in a response: ${floats.join(', ')}`);
  seenBodies.push(body);
  return body;
}

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Plain HTTP with fetch: bearer token, JSON in and out, nothing hidden. */
export async function http<T = any>(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if (text && (res.headers.get('content-type') ?? '').includes('json')) parsed = record(JSON.parse(text));
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/** The type of a typed tRPC client from `trpc(...)`. */
export type Trpc = ReturnType<typeof trpc>;

/** The typed tRPC client, as an application would use it. */
export function trpc(base: string, token: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${base}/api/trpc`,
        headers: { authorization: `Bearer ${token}` },
        fetch: async (url, init) => {
          const res = await fetch(url, init as RequestInit);
          const clone = res.clone();
          try {
            record(await clone.json());
          } catch (err) {
            if (err instanceof Error && err.message.startsWith('floating-point')) throw err;
          }
          return res;
        },
      }),
    ],
  });
}

/**
 * tRPC's official batching client (calls made in the same tick travel as one request), keeping the HTTP status and the
 * number of calls of every request it sends. With `recordBodies`, every response body goes through the no-float check
 * as the `trpc` client's do.
 */
export function batchingTrpc(base: string, token: string, opts: { recordBodies?: boolean } = {}) {
  const requests: Array<{ status: number; calls: number }> = [];
  const client = createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${base}/api/trpc`,
        headers: { authorization: `Bearer ${token}` },
        fetch: async (url, init) => {
          const res = await fetch(url, init as RequestInit);
          const path = new URL(String(url)).pathname.slice('/api/trpc/'.length);
          requests.push({ status: res.status, calls: path.split(',').length });
          if (opts.recordBodies) record(await res.clone().json());
          return res;
        },
      }),
    ],
  });
  return { client, requests };
}

/** The ETag a member read answers now (GET `path`), for a write's If-Match: only the current tag itself writes. */
export async function currentEtag(base: string, token: string, path: string): Promise<string> {
  const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
  const etag = res.headers.get('etag');
  if (!res.ok || !etag) throw new Error(`GET ${path} answered ${res.status} without an ETag`);
  return etag;
}
