import { isPostgresUrl } from '../../db/open.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { recordBody, type HttpResult } from './clients.js';
import { ROOT } from './server.js';

/**
 * A refusal over REST as the contract promises it: the status, problem+json, the stable code, and a `detail` that is a
 * sentence for a person, not a stack trace or an internal message.
 */
export function expectProblem(res: HttpResult, status: number, code: string) {
  const where = `${res.status} ${JSON.stringify(res.body)}`;
  expect(res.status, where).toBe(status);
  expect(res.headers.get('content-type') ?? '', where).toMatch(/^application\/problem\+json/);
  expect(res.body.code, where).toBe(code);
  expect(res.body.status, where).toBe(status);
  expect(typeof res.body.requestId, where).toBe('string');
  expectSentence(res.body.detail);
  expectNoInternals(res.body);
}

/** A message meant for a person: long enough to say something, and free of stack traces and file paths. */
export function expectSentence(detail: unknown) {
  expect(typeof detail, String(detail)).toBe('string');
  const text = detail as string;
  expect(text.length, text).toBeGreaterThanOrEqual(20);
  expect(text, 'looks like a stack frame').not.toMatch(/\bat \//);
  expect(text).not.toMatch(/\bError:/);
  expectNoInternals(text);
}

/** No file paths, stack frames or internal error names anywhere in a body. */
export function expectNoInternals(body: unknown) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  expect(text, 'leaks a file path').not.toMatch(
    /(?:file:\/\/|node_modules|\/(?:src|dist|work|home|tmp)\/|\.(?:ts|js|mjs|cjs):\d+)/,
  );
  expect(text, 'leaks a stack trace').not.toMatch(/\n\s+at |\bat [\w.<>]+ \(/);
  expect(text, 'leaks an internal error').not.toMatch(
    /\b(?:TypeError|ReferenceError|SqliteError|ZodError|SyntaxError)\b/,
  );
}

/** Every path (like `$.items[0].tradePrice`) at which one of `keys` occurs as an object key, at any depth. */
export function keyPaths(value: unknown, keys: readonly string[], path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keyPaths(v, keys, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [
      ...(keys.includes(k) ? [`${path}.${k}`] : []),
      ...keyPaths(v, keys, `${path}.${k}`),
    ]);
  }
  return [];
}

export interface StdioMcp {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Resolves once stderr matches (or the stream ends, so a missing message fails the assertion, not a timer). */
  stderrMatching(re: RegExp): Promise<string>;
  /** tools/call, with the structured result recorded for the suite's float check. */
  call(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ isError?: boolean; structuredContent?: any; content?: unknown }>;
  close(): Promise<void>;
}

/** tools/call on `client`, with the structured result recorded for the suite's float check. */
function recordedCall(client: Client): StdioMcp['call'] {
  return async (name, args) => {
    const res = (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      structuredContent?: any;
      content?: unknown;
    };
    if (res.structuredContent !== undefined) recordBody(res.structuredContent);
    return res;
  };
}

/** The MCP server exactly as mcp.json says to start it (command, args, env), from the project root. */
export function mcpJsonServer(): { command: string; args: string[]; env: Record<string, string> } {
  const cfg = JSON.parse(readFileSync(join(ROOT, 'mcp.json'), 'utf8')) as {
    mcpServers: Record<string, { command: string; args?: string[]; env?: Record<string, string> }>;
  };
  const [server] = Object.values(cfg.mcpServers);
  if (!server) throw new Error('mcp.json names no server');
  return { command: server.command, args: server.args ?? [], env: server.env ?? {} };
}

/**
 * Spawns the stdio MCP server over a database (a path or a postgres:// URL), acting for STUDIO_TOKEN's member, or the
 * local owner without one. `capabilities` are what the client declares at initialize (elicitation: it can ask its
 * user; set the request handler on `client` before calling).
 */
export async function spawnStdioMcp(opts: {
  database: string;
  token?: string;
  capabilities?: ClientCapabilities;
}): Promise<StdioMcp> {
  const { command, args, env } = mcpJsonServer();
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: ROOT,
    env: {
      ...env,
      ...(isPostgresUrl(opts.database) ? { STUDIO_DATABASE_URL: opts.database } : { STUDIO_DATABASE: opts.database }),
      STUDIO_STRICT_ERRORS: '1',
      ...(opts.token ? { STUDIO_TOKEN: opts.token } : {}),
    },
    stderr: 'pipe',
  });
  let err = '';
  let ended = false;
  const waiters: Array<() => void> = [];
  const stream = transport.stderr as Readable;
  stream.on('data', (d: Buffer) => {
    err += d.toString();
    for (const w of waiters.splice(0)) w();
  });
  stream.on('end', () => {
    ended = true;
    for (const w of waiters.splice(0)) w();
  });
  const client = new Client({ name: 'e2e', version: '1.0.0' }, { capabilities: opts.capabilities ?? {} });
  try {
    await client.connect(transport);
  } catch (e) {
    // Say why the server did not come up: its stderr is the only place it can.
    await new Promise<void>((r) => (ended ? r() : waiters.push(r)));
    throw new Error(`the stdio MCP server did not start (${String(e)}); its stderr: ${err}`);
  }
  return {
    client,
    stderr: () => err,
    async stderrMatching(re) {
      while (!re.test(err) && !ended) await new Promise<void>((r) => waiters.push(r));
      return err;
    },
    call: recordedCall(client),
    async close() {
      await client.close();
    },
  };
}

/** An MCP client over Streamable HTTP at `<url>/mcp`, with the bearer token on every request. */
export async function httpMcp(
  url: string,
  token: string,
  capabilities: ClientCapabilities = {},
): Promise<Pick<StdioMcp, 'client' | 'call' | 'close'>> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'e2e-http', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  return {
    client,
    call: recordedCall(client),
    async close() {
      await client.close();
    },
  };
}
