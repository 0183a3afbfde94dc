/**
 * Photographs sent base64 over MCP, many at once, against the real server process (issue 29, item 2): 24 concurrent
 * add_line_photograph calls of 23 MiB of base64 each peaked at 1.88 GB, kept 1.14 GB afterwards, and the 64
 * bodies-in-flight bound allowed about 5 GB. A body's base64 now streams into the staged file as it arrives (as an HTTP
 * upload's body does), and the bodies held at once are bounded by their bytes, not their count: a call past the bound
 * is answered 503 SERVER_BUSY with Retry-After before its body is read, and a client that waits and sends it again
 * gets it through. Memory is asserted generously (a loaded 2-core machine); the server runs with a capped heap, so a
 * regression fails this test instead of taking the machine.
 */
import { readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../helpers/clients.js';
import { noisyPng } from '../helpers/images.js';
import { rssMiB } from '../helpers/raw-http.js';
import { startServer, type RunningServer } from '../helpers/server.js';

let server: RunningServer;
let blobDir: string;
let projectId: string;
let lineId: string;

beforeAll(async () => {
  blobDir = mkdtempSync(join(tmpdir(), 'studio-mcp-uploads-'));
  server = await startServer({
    STUDIO_BLOB_DIR: blobDir,
    NODE_OPTIONS: [process.env.NODE_OPTIONS, '--max-old-space-size=1536'].filter(Boolean).join(' '),
  });
  // A line of the demo project the first start made.
  const projects = await http(server.url, 'GET', '/v1/projects?limit=1', { token: server.token });
  projectId = projects.body.items[0].id;
  const lines = await http(server.url, 'GET', `/v1/projects/${projectId}/items?limit=1`, { token: server.token });
  lineId = lines.body.items[0].id;
});
afterAll(async () => {
  await server?.stop();
  rmSync(blobDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  retryAfter?: string;
  body: any;
}

/**
 * One tools/call of call_action → add_line_photograph over /mcp, its body written in three parts around the one
 * base64 buffer every call shares (so the test itself holds one copy, not 24).
 */
function addPhotograph(base64: Buffer, name: string): Promise<Answer> {
  const head = Buffer.from(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'call_action',
        arguments: {
          name: 'add_line_photograph',
          arguments: {
            input: { projectId, lineId, mediaType: 'image/png', filename: name, commandKey: crypto.randomUUID() },
          },
        },
      },
    }).replace(/}}}}}$/, ',"data":"'),
  );
  const tail = Buffer.from('"}}}}}');
  const url = new URL('/mcp', server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': head.length + base64.length + tail.length,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // reported as text
          }
          const retryAfter = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, body, ...(retryAfter ? { retryAfter: String(retryAfter) } : {}) });
        });
      },
    );
    // A refusal before the body is read ends the exchange early: what was answered is what counts.
    req.on('error', reject);
    req.write(head);
    req.write(base64);
    req.end(tail);
  });
}

/** As a well-behaved client: a 503 is waited out (Retry-After) and sent again. */
async function addPatiently(base64: Buffer, name: string) {
  let refusals = 0;
  for (;;) {
    const a = await addPhotograph(base64, name).catch(() => undefined);
    if (a && a.status !== 503) return { answer: a, refusals };
    if (a) expect(a.body.code).toBe('SERVER_BUSY');
    refusals++;
    if (refusals > 180) throw new Error(`${name}: still refused after ${refusals} tries`);
    await new Promise((r) => setTimeout(r, 1000 * Number(a?.retryAfter ?? 1)));
  }
}

describe('24 photographs of 23 MiB of base64 sent over MCP at once', () => {
  it('are all kept, with the server holding far less than the bodies, and giving it back', async () => {
    // Random pixels, stored: a PNG of about 17.3 MiB, 23 MiB as base64.
    const png = await noisyPng(2460, 2450);
    const base64 = Buffer.from(png.toString('base64'));
    expect(base64.length).toBeGreaterThan(23 * 1024 * 1024);
    const photographs = `/v1/projects/${projectId}/items/${lineId}/photographs`;
    const already = (await http(server.url, 'GET', photographs, { token: server.token })).body.items.length;
    const pid = server.proc.pid!;
    const before = rssMiB(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 10);
    let slowestPing = 0;
    const pinger = setInterval(async () => {
      const t0 = performance.now();
      await fetch(`${server.url}/health`).catch(() => undefined);
      slowestPing = Math.max(slowestPing, performance.now() - t0);
    }, 250);
    let results: Array<{ answer: Answer; refusals: number }>;
    const started = performance.now();
    try {
      results = await Promise.all(Array.from({ length: 24 }, (_, i) => addPatiently(base64, `noise-${i}.png`)));
    } finally {
      clearInterval(sampler);
      clearInterval(pinger);
    }
    const seconds = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 2000));
    const after = rssMiB(pid);
    const refused = results.reduce((n, r) => n + r.refusals, 0);
    console.log(
      `24 × ${(base64.length / 1048576).toFixed(1)} MiB of base64 over /mcp: ${seconds.toFixed(1)} s, ${refused} times asked to wait (503); RSS ${before.toFixed(0)} MiB before, ${peak.toFixed(0)} MiB at the highest, ${after.toFixed(0)} MiB 2 s after; slowest /health ${slowestPing.toFixed(0)} ms`,
    );
    for (const { answer } of results) {
      expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
      expect(answer.body.result.isError, JSON.stringify(answer.body).slice(0, 300)).toBeFalsy();
      expect(answer.body.result.structuredContent.result).toMatchObject({ byteSize: png.length, width: 2460 });
    }
    const listed = await http(server.url, 'GET', photographs, { token: server.token });
    expect(listed.body.items).toHaveLength(already + 24);
    // No staged file is left behind.
    expect(readdirSync(join(blobDir, 'incoming'))).toEqual([]);
    // The bodies were 24 × 23 MiB (552 MiB); before, the server peaked 1.88 GB above that and kept 1.14 GB.
    expect(peak - before).toBeLessThan(500);
    expect(after - before).toBeLessThan(300);
  }, 300_000);
});
