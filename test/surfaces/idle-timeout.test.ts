/**
 * The idle timeout (STUDIO_IDLE_TIMEOUT_MS) against the real server in this process, with short timeouts: a connection
 * silent because the server is still working on the answer to a request that has arrived whole is left open, and the
 * answer goes out when ready; connections silent for any other reason are still closed (idle between requests, an
 * answer the client stopped reading), and a client trickling its request still meets the 408 of the request timeouts.
 * The slow answer is a real one: the share page's "email me a code" form waits for the mail server to accept the
 * message, and this test's mail server (smtp-server, in this process) accepts each only after several idle timeouts.
 */
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Trpc } from '../helpers/clients.js';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { openMailServer } from '../helpers/mail.js';
import { parseResponse, type RawResponse } from '../helpers/raw-http.js';
import { askForCode, decideLink } from '../share-decisions/fixture.js';

const IDLE_MS = 300;
const KEEP_ALIVE_MS = 300;
const HEADERS_MS = 1000;
const REQUEST_MS = 1500;
/** The mail server takes this long to accept a message, so the page's answer takes longer than four idle timeouts. */
const ACCEPT_AFTER_MS = 4 * IDLE_MS;
/** Far past any timeout here: a connection still open then was not closed by them. */
const LONG_AFTER_MS = 10_000;

const mail = openMailServer({ acceptAfterMs: ACCEPT_AFTER_MS });
let app: TestApp;
let owner: Trpc;
openTestApp(
  (opened) => ({ app, owner } = opened),
  () => ({
    ...mail.env(),
    STUDIO_IDLE_TIMEOUT_MS: String(IDLE_MS),
    STUDIO_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
    STUDIO_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
    STUDIO_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
  }),
);

const port = () => Number(new URL(app.url).port);

/** True once `socket` closes, false if it is still open `ms` from now. */
const closesWithin = (socket: Socket, ms: number) =>
  new Promise<boolean>((resolve) => {
    if (socket.destroyed) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

/** The server's end of the next connection made to it, with the client's end. */
async function connection() {
  const accepted = once(app.httpServer, 'connection') as Promise<[Socket]>;
  const client = connect(port(), '127.0.0.1');
  const [[server]] = await Promise.all([accepted, once(client, 'connect')]);
  return { client, server };
}

describe('a request whose answer takes longer than the idle timeout', () => {
  it('is answered in full when the answer is ready (the connection is not closed while the server works)', async () => {
    const link = await decideLink(app, owner);
    const before = mail.received.length;
    const started = performance.now();
    const res = await askForCode(app, link);
    // The answer did wait for the slow mail server: the connection was silent through several idle timeouts.
    expect(performance.now() - started).toBeGreaterThanOrEqual(ACCEPT_AFTER_MS);
    expect(res.status).toBe(200);
    expect(res.body).toContain('We emailed a 6-digit code to');
    expect(Buffer.byteLength(res.body)).toBe(Number(res.headers['content-length']));
    expect(mail.received.length).toBe(before + 1);
  });
});

describe('connections silent for any other reason are still closed', () => {
  it('a keep-alive connection idle after its answer is closed by the server', async () => {
    const { client, server } = await connection();
    const chunks: Buffer[] = [];
    client.on('data', (d: Buffer) => chunks.push(d));
    client.write(`GET /health HTTP/1.1\r\nHost: ${new URL(app.url).host}\r\n\r\n`);
    expect(await closesWithin(server, LONG_AFTER_MS)).toBe(true);
    const res = parseResponse(Buffer.concat(chunks));
    expect(res.status).toBe(200);
    expect(res.headers.connection).toBe('keep-alive');
    client.destroy();
  });

  it('a client that stops reading a large answer is cut off', async () => {
    const { client, server } = await connection();
    // The answers the server finished writing on this connection.
    let finished = 0;
    const count = (req: IncomingMessage, res: ServerResponse) => {
      if (req.socket === server) res.once('finish', () => finished++);
    };
    app.httpServer.on('request', count);
    // The client reads nothing: a dozen answers of about 1 MB each fill the socket buffers, and the server's writes stop.
    client.pause();
    const get = `GET /docs/api/actions.json HTTP/1.1\r\nHost: ${new URL(app.url).host}\r\n\r\n`;
    client.write(get.repeat(12));
    expect(await closesWithin(server, LONG_AFTER_MS)).toBe(true);
    app.httpServer.off('request', count);
    // Cut off in the middle of its answers, not closed as a keep-alive connection idle after all twelve.
    expect(finished).toBeLessThan(12);
    client.destroy();
  });
});

describe('a client trickling its request is cut off by the request timeouts, as before', () => {
  /**
   * Sends `head`, then `drip` every IDLE_MS / 3 (so the connection is never idle for long) until the server closes the
   * connection; resolves with what the server answered.
   */
  async function trickled(head: string, drip: string): Promise<RawResponse> {
    const { client } = await connection();
    const chunks: Buffer[] = [];
    client.on('data', (d: Buffer) => chunks.push(d));
    client.on('error', () => undefined);
    client.write(head);
    const dripping = setInterval(() => client.writable && client.write(drip), IDLE_MS / 3);
    await once(client, 'close');
    clearInterval(dripping);
    return parseResponse(Buffer.concat(chunks));
  }

  it('headers trickled a line at a time answer 408 REQUEST_TIMEOUT', async () => {
    const res = await trickled(`GET /v1/projects HTTP/1.1\r\nHost: ${new URL(app.url).host}\r\n`, 'X-Slow: 1\r\n');
    expect(res.status).toBe(408);
    expect(res.json.code).toBe('REQUEST_TIMEOUT');
  });

  it('an authenticated body trickled a byte at a time answers 408 REQUEST_TIMEOUT', async () => {
    const head = [
      'POST /v1/projects HTTP/1.1',
      `Host: ${new URL(app.url).host}`,
      `Authorization: Bearer ${app.token}`,
      'Content-Type: application/json',
      `Content-Length: ${1024 * 1024}`,
      '',
      '',
    ].join('\r\n');
    const res = await trickled(head, ' ');
    expect(res.status).toBe(408);
    expect(res.json.code).toBe('REQUEST_TIMEOUT');
  });
});
