import { type ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
// The validators the proxy runs (the package exports them from here, not from its root).
import { validateInput, validateOutput } from '@stoplight/prism-http/dist/validator/index.js';
import type { IHttpOperation } from '@stoplight/types';
import { binOf } from '../mcp/node22-clients.js';
import { ROOT } from './server.js';
import { freePort } from './free-port.js';

/**
 * Stoplight Prism (5.x) as a validation proxy in front of the real server: every request and answer that passes
 * through it is checked against generated/openapi.json, and what disagrees is reported in the `sl-violations` header.
 */

export const OPENAPI = join(ROOT, 'generated/openapi.json');

export interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

export interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text (latin1 for bytes), and parsed when JSON. */
  text: string;
  json: any;
  /** What Prism reported, split by where: the request, or the answer. */
  requestViolations: Violation[];
  responseViolations: Violation[];
}

export interface Outgoing {
  method: string;
  /** Path and query string. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** One HTTP exchange with node:http (a GET may carry a body here, as a careless client's might). */
export function send(base: string, req: Outgoing): Promise<Omit<Exchange, 'requestViolations' | 'responseViolations'>> {
  return new Promise((resolve, reject) => {
    const url = new URL(req.path, base);
    const headers = { ...req.headers, ...(req.body ? { 'content-length': String(req.body.length) } : {}) };
    const r = httpRequest(url, { method: req.method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const type = String(res.headers['content-type'] ?? '');
        const text = /json/.test(type) ? raw.toString('utf8') : raw.toString('latin1');
        let json: unknown;
        if (/json/.test(type) && text) json = JSON.parse(text);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end(req.body);
  });
}

const split = (header: string | string[] | undefined) => {
  const all = header ? (JSON.parse(String(header)) as Violation[]) : [];
  return {
    requestViolations: all.filter((v) => v.location[0] === 'request'),
    responseViolations: all.filter((v) => v.location[0] === 'response'),
  };
};

export interface Prism {
  url: string;
  /** Sends through the proxy and returns the answer with what Prism reported. */
  exchange(req: Outgoing): Promise<Exchange>;
  /**
   * For exchanges the proxy cannot carry (binary bodies: Prism 5 reads every non-JSON body as UTF-8 text and forwards
   * that text, so the bytes of a photograph arrive mangled): sends straight to the server and runs Prism's own
   * request and response validators (@stoplight/prism-http, the ones the proxy runs) on the exchange. The bytes
   * themselves are not checked (the document says only "a string of this media type").
   */
  validated(operationId: string, req: Outgoing): Promise<Exchange>;
  /** Prism's validators on an exchange already made. */
  check(operationId: string, req: Outgoing, res: Omit<Exchange, 'requestViolations' | 'responseViolations'>): Exchange;
  stop(): Promise<void>;
}

/**
 * Starts Prism (`prism mock <spec> --errors`, `prism proxy <spec> <upstream>` …) on a free loopback port, on the test
 * Node 22, and resolves once it listens; it rejects with Prism's own output if it exits first.
 */
export async function spawnPrism(args: string[]): Promise<{ port: number; proc: ChildProcess }> {
  const port = await freePort();
  const proc: ChildProcess = spawn(
    process.execPath,
    [binOf('@stoplight/prism-cli', 'prism'), ...args, '--host', '127.0.0.1', '--port', String(port)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      log += d.toString();
      if (/Prism is listening/.test(log)) resolve();
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`prism exited with ${code}: ${log}`)));
  });
  return { port, proc };
}

export async function startPrism(upstream: string): Promise<Prism> {
  const { port, proc } = await spawnPrism(['proxy', OPENAPI, upstream]);
  const url = `http://127.0.0.1:${port}`;
  const operations: IHttpOperation[] = await getHttpOperationsFromSpec(OPENAPI);
  const prism: Prism = {
    url,
    async exchange(req) {
      const res = await send(url, req);
      return { ...res, ...split(res.headers['sl-violations']) };
    },
    async validated(operationId, req) {
      return prism.check(operationId, req, await send(upstream, req));
    },
    check(operationId, req, res) {
      const operation = operations.find((o) => o.iid === operationId);
      if (!operation) throw new Error(`Prism finds no operation ${operationId}`);
      const url = new URL(req.path, upstream);
      const input = validateInput({
        resource: operation,
        element: {
          method: req.method.toLowerCase() as never,
          url: { path: url.pathname, query: Object.fromEntries(url.searchParams) },
          headers: { ...req.headers, ...(req.body ? { 'content-length': String(req.body.length) } : {}) },
          body: req.body?.toString('latin1'),
        },
      });
      const headers = Object.fromEntries(
        Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
      );
      const output = validateOutput({
        resource: operation,
        element: { statusCode: res.status, headers, body: res.json ?? res.text },
      });
      const diagnostics = (e: { _tag: string; left?: unknown }, where: string) =>
        e._tag === 'Left'
          ? (e.left as Array<{ path?: string[]; severity: number; code?: string; message: string }>).map((d) => ({
              location: [where, ...(d.path ?? [])],
              severity: d.severity === 0 ? 'Error' : 'Warning',
              code: d.code,
              message: d.message,
            }))
          : [];
      return {
        ...res,
        requestViolations: diagnostics(input, 'request'),
        responseViolations: diagnostics(output, 'response'),
      };
    },
    async stop() {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
    },
  };
  return prism;
}
