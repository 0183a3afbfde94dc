import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { expect } from 'vitest';
import { ERROR_CATALOG } from '../../src/core/errors.js';
import { CLI } from './server.js';
import { expectNoInternals } from './e2e.js';

/**
 * HTTP as an attacker writes it: bytes on a loopback socket, nothing normalised (no `..` resolved, no header merged,
 * any method), and the answer read back as it came.
 */

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body as JSON when it parses, else undefined. */
  json: any;
  /** Every byte the server sent on the connection, as text (to count answers). */
  wire: string;
}

/** The port of a `http://127.0.0.1:PORT` base URL. */
const portOf = (base: string) => Number(new URL(base).port);

/** Reads one HTTP/1.1 response from its bytes (the request asked for `Connection: close`, so it ends at close). */
export function parseResponse(raw: Buffer): RawResponse {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no HTTP response: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const lineEnd = body.indexOf('\r\n', at);
      const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
      if (!size) break;
      parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  }
  const str = body.toString('utf8');
  let json: unknown;
  try {
    json = str ? JSON.parse(str) : undefined;
  } catch {
    json = undefined;
  }
  return { status, headers, body: str, json, wire: text };
}

/**
 * Sends `head` (request line and headers, without the blank line) and an optional body exactly as given, asking for
 * the connection to close after the answer, and resolves with the answer.
 */
export function rawRequest(
  base: string,
  req: { method: string; path: string; headers?: Array<[string, string]>; body?: string },
): Promise<RawResponse> {
  const headers: Array<[string, string]> = [['Host', new URL(base).host], ...(req.headers ?? [])];
  if (req.body !== undefined) headers.push(['Content-Length', String(Buffer.byteLength(req.body))]);
  headers.push(['Connection', 'close']);
  const head = `${req.method} ${req.path} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
  return rawExchange(base, Buffer.concat([Buffer.from(head, 'utf8'), Buffer.from(req.body ?? '', 'utf8')]));
}

/** Writes `bytes` to the server and resolves with the response it sends before closing the connection. */
export function rawExchange(base: string, bytes: Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(portOf(base), '127.0.0.1', () => socket.write(bytes));
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (err) {
        reject(err);
      }
    });
  });
}

export interface Outcome {
  /** The status line's code, or 0 when the connection closed without an answer. */
  status: number;
  /** The problem's or envelope's catalog code, when the answer carried one. */
  code?: string;
}

/** True once `raw` holds a whole response (its headers and the body they announce). */
function wholeResponse(raw: Buffer): boolean {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const head = raw.subarray(0, end).toString('latin1').toLowerCase();
  const length = /\r\ncontent-length:\s*(\d+)/.exec(head)?.[1];
  if (length !== undefined) return raw.length - end - 4 >= Number(length);
  if (/\r\ntransfer-encoding:\s*chunked/.test(head)) return raw.subarray(-5).toString('latin1') === '0\r\n\r\n';
  return false;
}

/**
 * Opens a connection, sends the request head declaring `declared` body bytes, then `send` (a few bytes or the whole
 * body), and reports what the server answered: once a whole answer has arrived the client hangs up, as a real one
 * would. Never rejects: a connection that ends without an answer is status 0.
 */
export async function bodyRequest(
  base: string,
  opts: { path: string; declared: number; send: Buffer; headers?: Array<[string, string]> },
): Promise<Outcome> {
  const res = await bodyExchange(base, opts);
  return res ? { status: res.status, code: res.json?.code ?? res.json?.error?.data?.serviceCode } : { status: 0 };
}

/** What bodyRequest reads, whole (headers and body); undefined when the connection ended without an answer. */
export function bodyExchange(
  base: string,
  opts: { path: string; declared: number; send: Buffer; headers?: Array<[string, string]> },
): Promise<RawResponse | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const headers: Array<[string, string]> = [
      ['Host', new URL(base).host],
      ['Content-Type', 'application/json'],
      ['Content-Length', String(opts.declared)],
      ...(opts.headers ?? []),
    ];
    const head = `POST ${opts.path} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      socket.destroy();
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch {
        resolve(undefined);
      }
    };
    const socket = connect(portOf(base), '127.0.0.1', () => {
      socket.write(head);
      socket.write(opts.send);
    });
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      if (wholeResponse(Buffer.concat(chunks))) settle();
    });
    socket.on('error', () => {
      // Reported as what arrived before it (nothing: undefined).
    });
    socket.on('close', settle);
  });
}

/** The resident memory of a process, in MiB, from /proc/<pid>/status (VmRSS). */
export function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) / 1024;
}

/**
 * The CPU time a process has used, in seconds (user and system, from /proc/<pid>/stat; clock ticks of 1/100 s, as
 * Linux reports them to user space). Unlike the time an answer takes, it hardly moves with the machine's load.
 */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces; the fields after its closing parenthesis are fixed.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A refusal as problem+json with a catalog code (and never a stack trace), whatever its status. */
export function expectCatalogProblem(res: RawResponse, where: string) {
  const what = `${where}: ${res.status} ${res.headers['content-type']} ${res.body.slice(0, 300)}`;
  expect(res.headers['content-type'] ?? '', what).toMatch(/^application\/problem\+json/);
  expect(Object.keys(ERROR_CATALOG), what).toContain(res.json?.code);
  expect(res.json.status, what).toBe(res.status);
  expect(res.status, what).toBe(ERROR_CATALOG[res.json.code as keyof typeof ERROR_CATALOG].status);
  expectNoInternals(res.body);
}

/** A refusal in tRPC's envelope with a catalog `serviceCode`. */
export function expectCatalogEnvelope(res: RawResponse, where: string) {
  const what = `${where}: ${res.status} ${res.body.slice(0, 300)}`;
  expect(res.headers['content-type'] ?? '', what).toMatch(/json/);
  const envelopes = Array.isArray(res.json) ? res.json : [res.json];
  for (const e of envelopes) {
    expect(Object.keys(ERROR_CATALOG), what).toContain(e?.error?.data?.serviceCode);
    expect(e.error.data.httpStatus, what).toBe(
      ERROR_CATALOG[e.error.data.serviceCode as keyof typeof ERROR_CATALOG].status,
    );
  }
  expectNoInternals(res.body);
}

export interface Served {
  url: string;
  proc: ChildProcess;
  /** Everything the process printed on stdout up to the banner's end. */
  stdout: string;
  stop(): Promise<void>;
}

/**
 * `studio serve` over an existing database (a second start), resolved once the banner is printed. The caller owns the
 * database folder; stop() only ends the process.
 */
export async function serveOn(databaseEnv: Record<string, string>, env: Record<string, string> = {}): Promise<Served> {
  const proc = spawn(process.execPath, [CLI, 'serve'], {
    env: { ...process.env, ...databaseEnv, STUDIO_PORT: '0', STUDIO_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url && /\n {2}Token {6}.*\n?/.test(out)) resolve(url);
    });
    proc.once('exit', (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
  return {
    url,
    proc,
    get stdout() {
      return out;
    },
    async stop() {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
    },
  };
}
