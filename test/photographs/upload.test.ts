/**
 * Photographs through HTTP and MCP with real files: the upload streamed to disk and refused by size, type and damage
 * without leaving a record or a temporary file; the original kept byte-exact; derivatives upright, bounded and free of
 * EXIF and GPS; the bytes served with strong ETags; MCP's get_photograph answering the picture as image content.
 */
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../helpers/calls.js';
import { httpMcp } from '../helpers/e2e.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { imageFacts, noisyPng, pixelBombPng, sidewaysCameraJpeg, solid, truncatedJpeg } from '../helpers/images.js';
import { postFile } from '../helpers/uploads.js';
import { sha256 } from '../helpers/blobs.js';

const UPLOAD_LIMIT = 3 * 1024 * 1024;
/** A response's JSON body, loosely typed as tests read it. */
const json = (res: Response): Promise<any> => res.json();

let app: TestApp;
let mcp: Client;
let lineId: string;
let base: string;

openTestAppWithMcp((opened) => ({ app, mcp } = opened), { STUDIO_UPLOAD_LIMIT: String(UPLOAD_LIMIT) });
beforeAll(async () => {
  const lines = await get(`/v1/projects/${app.projectId}/items?limit=5`);
  lineId = (await json(lines)).items[3].id;
  base = `/v1/projects/${app.projectId}/items/${lineId}/photographs`;
});

const auth = () => ({ authorization: `Bearer ${app.token}` });
const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}${path}`, { headers: { ...auth(), ...headers } });
const upload = (bytes: Buffer, type: string, filename = 'sofa.jpg', extra: Record<string, string> = {}) =>
  postFile(app, `${base}?filename=${encodeURIComponent(filename)}`, bytes, type, extra);
const listed = async () => (await json(await get(base))).items as Array<{ id: string }>;
const incoming = () => {
  try {
    return readdirSync(join(app.rt.config.blobDir, 'incoming'));
  } catch {
    return [];
  }
};

describe('an HTTP upload', () => {
  it('keeps the original byte-exact and serves upright, bounded derivatives without EXIF or GPS', async () => {
    const camera = await sidewaysCameraJpeg();
    expect(camera.includes('AcmeCam')).toBe(true);
    const res = await upload(camera, 'image/jpeg', 'C:\\Users\\me\\Pictures\\sofa front.jpg');
    expect(res.status).toBe(201);
    const photo = await json(res);
    expect(res.headers.get('location')).toBe(`${base}/${photo.id}`);
    expect(photo).toMatchObject({
      lineId,
      filename: 'sofa front.jpg',
      mediaType: 'image/jpeg',
      byteSize: camera.length,
      sha256: sha256(camera),
      // Stored 600×400 on its side (orientation 6): upright it is portrait.
      width: 400,
      height: 600,
      rotation: 0,
      cover: true,
      removedAt: null,
    });
    expect(photo.variants.display).toMatchObject({ width: 400, height: 600 });

    const original = await get(photo.variants.original.url);
    expect(Buffer.from(await original.arrayBuffer()).equals(camera)).toBe(true);
    expect(original.headers.get('content-type')).toBe('image/jpeg');

    for (const variant of ['display', 'thumbnail'] as const) {
      const r = await get(photo.variants[variant].url);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/jpeg');
      const bytes = Buffer.from(await r.arrayBuffer());
      const facts = await imageFacts(bytes);
      expect([facts.width, facts.height]).toEqual([photo.variants[variant].width, photo.variants[variant].height]);
      expect(facts.height).toBeGreaterThan(facts.width);
      // Upright in the pixels themselves, with nothing left to say how to turn it: no EXIF at all.
      expect(facts.orientation).toBeUndefined();
      expect(facts.exif).toBeUndefined();
      expect(bytes.includes('AcmeCam')).toBe(false);
      expect(bytes.includes('Studio Secret')).toBe(false);
    }
  });

  it('answers strong ETags, 304 on If-None-Match, and immutable caching only for the tagged URL', async () => {
    const photo = await json(await upload(await solid('png', 120, 80), 'image/png', 'swatch.png'));
    const tagged = await get(photo.variants.display.url);
    const etag = tagged.headers.get('etag')!;
    expect(etag).toMatch(/^"[^W]/);
    expect(tagged.headers.get('cache-control')).toContain('immutable');
    expect((await get(photo.variants.display.url, { 'if-none-match': etag })).status).toBe(304);
    expect((await get(photo.variants.display.url, { 'if-none-match': `"x", W/${etag}` })).status).toBe(304);
    const untagged = await get(`${base}/${photo.id}?variant=display`);
    expect(untagged.headers.get('cache-control')).toBe('private, no-cache');
    expect(untagged.headers.get('etag')).toBe(etag);
    const bad = await get(`${base}/${photo.id}?variant=poster`);
    expect(bad.status).toBe(400);
    expect((await json(bad)).code).toBe('VALIDATION_FAILED');
  });

  it('refuses a type the bytes contradict, a type not kept, a damaged file and a pixel bomb, leaving nothing', async () => {
    const before = await listed();
    const cases: Array<[Buffer, string, number, string]> = [
      [await solid('png'), 'image/jpeg', 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [await solid('gif'), 'image/gif', 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [Buffer.from('%PDF-1.7 not a photograph'), 'application/octet-stream', 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [await truncatedJpeg(), 'image/jpeg', 422, 'IMAGE_UNREADABLE'],
      [await pixelBombPng(), 'image/png', 422, 'IMAGE_TOO_LARGE'],
    ];
    for (const [bytes, type, status, code] of cases) {
      const res = await upload(bytes, type);
      const body = await json(res);
      expect([res.status, body.code], `${type} ${code}`).toEqual([status, code]);
      expect(body.detail).toMatch(/\.$/);
      expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/);
    }
    expect(await listed()).toEqual(before);
    expect(incoming()).toEqual([]);
  });

  it('refuses an upload without a token (401, the body unread) and one sent as JSON to the file route', async () => {
    const anonymous = await fetch(`${app.url}${base}`, {
      method: 'POST',
      headers: { 'content-type': 'image/png', 'idempotency-key': crypto.randomUUID() },
      body: await solid('png'),
    });
    expect([anonymous.status, (await json(anonymous)).code]).toEqual([401, 'UNAUTHENTICATED']);
    const asJson = await upload(Buffer.from(JSON.stringify({ data: 'iVBORw0KGgo=' })), 'application/json');
    expect([asJson.status, (await json(asJson)).code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const empty = await upload(Buffer.alloc(0), 'image/png');
    expect([empty.status, (await json(empty)).code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('accepts the real type under application/octet-stream, and sniffs it', async () => {
    const res = await upload(await solid('webp'), 'application/octet-stream', 'swatch');
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({ mediaType: 'image/webp', filename: 'swatch' });
  });

  it('refuses a declared length over the limit at once, and an undeclared one as soon as it crosses it', async () => {
    const big = Buffer.alloc(UPLOAD_LIMIT + 1024 * 1024, 7);
    const declared = await upload(big, 'image/jpeg');
    expect(declared.status).toBe(413);
    expect((await json(declared)).code).toBe('PAYLOAD_TOO_LARGE');
    // Chunked, no Content-Length: cut off when the limit is crossed, before the rest arrives.
    let sent = 0;
    const chunk = Buffer.alloc(256 * 1024, 7);
    const body = new ReadableStream({
      async pull(controller) {
        if (sent > UPLOAD_LIMIT * 4) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const streamed = await fetch(`${app.url}${base}`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'image/jpeg', 'idempotency-key': crypto.randomUUID() },
      body,
      duplex: 'half',
    } as RequestInit).catch(() => undefined);
    expect(streamed?.status).toBe(413);
    expect((await json(streamed!)).code).toBe('PAYLOAD_TOO_LARGE');
    expect(sent).toBeLessThan(UPLOAD_LIMIT * 4);
    await new Promise((r) => setTimeout(r, 100));
    expect(incoming()).toEqual([]);
  });

  it('leaves no record and no temporary file when the client hangs up mid-upload', async () => {
    const before = await listed();
    const whole = await noisyPng(600, 600);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(new URL(app.url).port), '127.0.0.1', () => {
        socket.write(
          `POST ${base} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${app.token}\r\nContent-Type: image/png\r\nIdempotency-Key: ${crypto.randomUUID()}\r\nContent-Length: ${whole.length}\r\n\r\n`,
        );
        socket.write(whole.subarray(0, whole.length >> 1), () => setTimeout(() => socket.destroy(), 50));
      });
      socket.on('close', () => resolve());
      socket.on('error', () => undefined);
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(await listed()).toEqual(before);
    expect(incoming()).toEqual([]);
  });
});

describe('photographs over MCP', () => {
  it('add_photograph takes base64 beyond the 1 MiB JSON limit; get_photograph answers the picture as image content', async () => {
    const big = await noisyPng(1200, 900);
    expect(big.length).toBeGreaterThan(1024 * 1024 * 2);
    const added = await callTool(mcp, 'add_photograph', {
      projectId: app.projectId,
      itemId: lineId,
      data: big.toString('base64'),
      mediaType: 'image/png',
      filename: 'noise.png',
      idempotencyKey: crypto.randomUUID(),
    });
    expect(added.error).toBeUndefined();
    expect(added.result).toMatchObject({ mediaType: 'image/png', width: 1200, height: 900, byteSize: big.length });

    const res = await mcp.callTool({
      name: 'get_photograph',
      arguments: { projectId: app.projectId, itemId: lineId, photographId: added.result.id },
    });
    const [image, text] = res.content as Array<{ type: string; data?: string; mimeType?: string; text?: string }>;
    expect(image!.type).toBe('image');
    expect(image!.mimeType).toBe('image/jpeg');
    const bytes = Buffer.from(image!.data!, 'base64');
    expect(bytes.length).toBeLessThanOrEqual(1_000_000);
    const facts = await imageFacts(bytes);
    expect(Math.max(facts.width!, facts.height!)).toBeLessThanOrEqual(1568);
    expect(JSON.parse(text!.text!)).toMatchObject({ id: added.result.id, filename: 'noise.png' });
    expect(res.structuredContent).toMatchObject({ id: added.result.id });
  });

  it('over Streamable HTTP, /mcp takes a 3 MiB photograph (its own body limit; other routes keep 1 MiB)', async () => {
    const big = await noisyPng(1100, 1000);
    expect(big.length).toBeGreaterThan(3 * 1024 * 1024);
    const remote = await httpMcp(app.url, app.token);
    try {
      const res = await remote.client.callTool({
        name: 'add_photograph',
        arguments: {
          projectId: app.projectId,
          itemId: lineId,
          data: big.toString('base64'),
          mediaType: 'image/png',
          filename: 'over-http.png',
          idempotencyKey: crypto.randomUUID(),
        },
      });
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent).toMatchObject({ filename: 'over-http.png', byteSize: big.length });
    } finally {
      await remote.close();
    }
    // The same bytes as JSON to a route with the ordinary limit are refused by size.
    const trpcRes = await fetch(`${app.url}/api/trpc/photographs.addLinePhotograph`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: app.projectId, lineId, data: big.toString('base64'), mediaType: 'image/png' }),
    });
    expect(trpcRes.status).toBe(413);
  });

  it('over Streamable HTTP, the base64 streams to disk: as the file however it is written, by its bytes for the key', async () => {
    const png = await noisyPng(400, 300);
    const b64 = png.toString('base64');
    /** tools/call add_photograph over /mcp as raw JSON, `write` turning the JSON text as some encoders do. */
    const call = async (data: string, key: string, write = (t: string) => t) => {
      const body = write(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'add_photograph',
            arguments: { projectId: app.projectId, itemId: lineId, data, mediaType: 'image/png', idempotencyKey: key },
          },
        }),
      );
      const res = await fetch(`${app.url}/mcp`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as any).result;
    };
    const first = await call(b64, crypto.randomUUID(), (t) => t.replace(/\//g, '\\/'));
    expect(first.isError, JSON.stringify(first)).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ byteSize: png.length, sha256: sha256(png) });
    const mime = await call(`data:image/png;base64,${b64.replace(/(.{76})/g, '$1\n')}`, crypto.randomUUID());
    expect(mime.structuredContent).toMatchObject({ byteSize: png.length, sha256: sha256(png) });
    // The same key again: the same photograph; with other bytes: the key was used for something else.
    const key = crypto.randomUUID();
    const once = await call(b64, key);
    expect((await call(b64, key)).structuredContent.id).toBe(once.structuredContent.id);
    const other = (await noisyPng(300, 400)).toString('base64');
    expect((await call(other, key)).structuredContent).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    // Not base64 past the first 64 KiB, and more than 24 MiB decoded, by name; nothing is left staged.
    const broken = await call(`${b64}${'A'.repeat(70_000)}!`, crypto.randomUUID());
    expect(broken.structuredContent).toMatchObject({ code: 'VALIDATION_FAILED' });
    const huge = await call(Buffer.alloc(24 * 1024 * 1024 + 3).toString('base64'), crypto.randomUUID());
    expect(huge.structuredContent).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(incoming()).toEqual([]);
  });

  it('takes AVIF, as its bytes say, and serves it as upright JPEG sizes', async () => {
    const avif = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#336699' } })
      .heif({ compression: 'av1' })
      .toBuffer();
    const res = await upload(avif, 'image/avif', 'swatch.avif');
    expect(res.status).toBe(201);
    const photo = await json(res);
    expect(photo).toMatchObject({ mediaType: 'image/avif', width: 300, height: 200 });
    const display = await get(photo.variants.display.url);
    expect(display.headers.get('content-type')).toBe('image/jpeg');
    expect(await imageFacts(Buffer.from(await display.arrayBuffer()))).toMatchObject({ format: 'jpeg', width: 300 });
  });

  it('a large photograph is bounded to 1,568 px on its long edge and 1 MB', async () => {
    const huge = await noisyPng(3000, 2000);
    const added = await callTool(mcp, 'add_photograph', {
      projectId: app.projectId,
      itemId: lineId,
      data: huge.toString('base64'),
      mediaType: 'image/png',
      idempotencyKey: crypto.randomUUID(),
    });
    expect(added.result.variants.display).toMatchObject({ width: 1568, height: 1045 });
    expect(added.result.filename).toBe('photograph.png');
    const res = await get(added.result.variants.display.url);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBeLessThanOrEqual(1_000_000);
    expect(await imageFacts(bytes)).toMatchObject({ width: 1568, height: 1045 });
  });

  it('refuses what is not base64 and what decodes past 24 MiB, by name', async () => {
    const notBase64 = await callTool(mcp, 'add_photograph', {
      projectId: app.projectId,
      itemId: lineId,
      data: 'not base64 at all!',
      mediaType: 'image/png',
      idempotencyKey: crypto.randomUUID(),
    });
    expect(notBase64.code).toBe('VALIDATION_FAILED');
    const missing = await callTool(mcp, 'add_photograph', {
      projectId: app.projectId,
      itemId: lineId,
      mediaType: 'image/png',
      idempotencyKey: crypto.randomUUID(),
    });
    expect(missing.code).toBe('VALIDATION_FAILED');
  });
});
