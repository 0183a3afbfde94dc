/**
 * Anonymous memory and connection exhaustion against the real server process. A request to an authenticated route is
 * refused before its body is read, a slow client is cut off by the request and header timeouts (short ones, set
 * through the environment for this server), and only a bounded number of admitted bodies are received at once.
 * Everything here asserts what the server answered, never how long it took.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { http } from '../helpers/clients.js';
import { createTestApp, type TestApp } from '../helpers/in-process.js';
import { bodyRequest, type Outcome, parseResponse, rawExchange, rssMiB } from '../helpers/raw-http.js';

const MAX_BODIES = 4;
/** The server the slow clients meet: short timeouts, so they are cut off within a test. */
let server: RunningServer;
/**
 * The server the 1,000 anonymous requests meet: its timeouts outlast the test. Those requests are refused on their
 * headers, so no timeout has a part in what they are answered; with short ones, a client too loaded to send 250
 * requests' headers within a second would be answered 408 for being slow, which is right, and not what is tested here.
 */
let flooded: RunningServer;
const OUTLASTS_THE_TEST = String(10 * 60_000);

beforeAll(async () => {
  [server, flooded] = await Promise.all([
    startServer({
      STUDIO_REQUEST_TIMEOUT_MS: '2000',
      STUDIO_HEADERS_TIMEOUT_MS: '1000',
      STUDIO_MAX_INFLIGHT_BODIES: String(MAX_BODIES),
    }),
    startServer({
      STUDIO_REQUEST_TIMEOUT_MS: OUTLASTS_THE_TEST,
      STUDIO_HEADERS_TIMEOUT_MS: OUTLASTS_THE_TEST,
      STUDIO_MAX_INFLIGHT_BODIES: String(MAX_BODIES),
    }),
  ]);
});
afterAll(async () => Promise.all([server?.stop(), flooded?.stop()]));

const MiB = 1024 * 1024;
const wholeBody = Buffer.alloc(MiB, 0x20); // a 1 MiB body, sent at once
const fewBytes = Buffer.from('{"na'); // the start of a declared 1 MiB body, the rest never sent

/** A normal authenticated read. */
const ownerRead = async (on = server) => (await http(on.url, 'GET', '/v1/projects', { token: on.token })).status;

describe('1,000 anonymous oversized or slow requests', () => {
  it('are refused 401 before their bodies are read; RSS stays under 300 MB and members are still served', async () => {
    const BATCH = 250;
    const outcomes: Outcome[] = [];
    const during: number[] = [];
    const pid = flooded.proc.pid!;
    const before = rssMiB(pid);
    let peak = before;
    // Sampled while the batches run, so the highest point is seen, not only the level between batches.
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 10);
    try {
      for (let batch = 0; batch < 4; batch++) {
        // Alternate: 500 connections declaring 1 MiB and sending a few bytes, 500 sending 1 MiB at once.
        const send = batch % 2 === 0 ? fewBytes : wholeBody;
        const paths = [
          '/v1/projects',
          '/api/trpc/projects.createStudioProject',
          '/mcp',
          '/v1/projects/00000000000000000000000000/items',
        ];
        const [answers, read] = await Promise.all([
          Promise.all(
            Array.from({ length: BATCH }, (_, i) =>
              bodyRequest(flooded.url, { path: paths[i % paths.length]!, declared: MiB, send }),
            ),
          ),
          ownerRead(flooded),
        ]);
        outcomes.push(...answers);
        during.push(read);
        peak = Math.max(peak, rssMiB(pid));
      }
    } finally {
      clearInterval(sampler);
    }
    const after = rssMiB(pid);
    console.log(
      `RSS of the server: ${before.toFixed(0)} MiB before, ${peak.toFixed(0)} MiB at the highest, ${after.toFixed(0)} MiB after 1,000 anonymous 1 MiB requests`,
    );
    expect(outcomes).toHaveLength(1000);
    // Every one was answered 401 UNAUTHENTICATED (the connection then closed), none was read, none succeeded.
    const tally = Object.entries(
      outcomes.reduce<Record<string, number>>((t, o) => {
        const key = `${o.status} ${o.code ?? ''}`;
        t[key] = (t[key] ?? 0) + 1;
        return t;
      }, {}),
    );
    expect(tally).toEqual([['401 UNAUTHENTICATED', 1000]]);
    expect(peak).toBeLessThan(300);
    expect(after).toBeLessThan(300);
    expect(during.every((s) => s === 200)).toBe(true);
    expect(await ownerRead(flooded)).toBe(200);
  });
});

describe('slow clients are cut off by the timeouts', () => {
  it('a body sent to no route is answered 404 at once, unread', async () => {
    for (const path of ['/nothing', '/v1/nothing', '/api/trpc']) {
      expect(await bodyRequest(server.url, { path, declared: MiB, send: fewBytes }), path).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
    }
  });

  it('a body trickled after authentication answers 408 REQUEST_TIMEOUT and the connection closes', async () => {
    const res = await bodyRequest(server.url, {
      path: '/v1/projects',
      declared: MiB,
      send: fewBytes,
      headers: [['Authorization', `Bearer ${server.token}`]],
    });
    expect(res).toEqual({ status: 408, code: 'REQUEST_TIMEOUT' });
  });

  it('an anonymous body trickled by a client that ignores the 401 is cut off, without a second answer', async () => {
    const head = `POST /v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${MiB}\r\n\r\n`;
    // Resolves only when the server closes the connection.
    const res = await rawExchange(server.url, Buffer.concat([Buffer.from(head), fewBytes]));
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('UNAUTHENTICATED');
    expect(res.wire.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });

  it('headers that never end answer 408 REQUEST_TIMEOUT and the connection closes', async () => {
    const res = await rawExchange(server.url, Buffer.from('GET /v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
    expect(res.status).toBe(408);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json.code).toBe('REQUEST_TIMEOUT');
  });
});

describe('a bound on admitted bodies received at once', () => {
  /** A small write that is admitted, read and refused (no name), so it changes nothing. */
  const probe = () =>
    bodyRequest(server.url, {
      path: '/v1/projects',
      declared: 2,
      send: Buffer.from('{}'),
      headers: [['Authorization', `Bearer ${server.token}`]],
    });

  it(`past ${MAX_BODIES} slow authenticated uploads, another body answers 503 SERVER_BUSY; reads go on; then it clears`, async () => {
    const holders = Array.from({ length: MAX_BODIES }, () =>
      bodyRequest(server.url, {
        path: '/v1/projects',
        declared: MiB,
        send: fewBytes,
        headers: [['Authorization', `Bearer ${server.token}`]],
      }),
    );
    // The holders are admitted as soon as their headers arrive; ask until the server says it is full.
    let busy: Outcome | undefined;
    for (let i = 0; i < 50 && busy?.status !== 503; i++) busy = await probe();
    expect(busy).toEqual({ status: 503, code: 'SERVER_BUSY' });
    expect(await ownerRead()).toBe(200);
    // The holders are cut off by the request timeout, which gives their places back.
    expect(await Promise.all(holders)).toEqual(
      Array.from({ length: MAX_BODIES }, () => ({ status: 408, code: 'REQUEST_TIMEOUT' })),
    );
    let after: Outcome | undefined;
    for (let i = 0; i < 50 && (!after || after.status === 503); i++) after = await probe();
    expect(after).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
  });
});

describe('a server kept busy past the headers timeout', () => {
  const HEADERS_MS = 200;
  let app: TestApp;
  beforeAll(async () => {
    // In this process, so the test can keep the server's event loop busy exactly when it means to.
    app = await createTestApp({ STUDIO_HEADERS_TIMEOUT_MS: String(HEADERS_MS), STUDIO_REQUEST_TIMEOUT_MS: '1000' });
  });
  afterAll(async () => app?.close());

  /**
   * Opens a connection and, once the server has accepted it, sends `bytes` and holds the event loop (the server's: it
   * runs in this process) for twice the headers timeout, so the bytes wait unread in the server's socket while the time
   * runs out. Resolves with what the server answered before closing the connection.
   */
  async function sentWhileBusy(bytes: string) {
    const accepted = once(app.httpServer, 'connection');
    const socket = connect(Number(new URL(app.url).port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    const closed = once(socket, 'close');
    await Promise.all([accepted, once(socket, 'connect')]);
    socket.write(bytes);
    const until = performance.now() + 2 * HEADERS_MS;
    while (performance.now() < until);
    await closed;
    return parseResponse(Buffer.concat(chunks));
  }

  it('reads a request that arrived while it was busy, and answers it, not 408', async () => {
    const res = await sentWhileBusy(
      'POST /v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    );
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('UNAUTHENTICATED');
  });

  it('still cuts off headers that never end, even when their first bytes waited for it', async () => {
    const res = await sentWhileBusy('GET /v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(res.status).toBe(408);
    expect(res.json.code).toBe('REQUEST_TIMEOUT');
  });

  it('still cuts off a connection that sends nothing', async () => {
    const res = await rawExchange(app.url, Buffer.alloc(0));
    expect(res.status).toBe(408);
    expect(res.json.code).toBe('REQUEST_TIMEOUT');
  });
});
