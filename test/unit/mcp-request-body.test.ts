/**
 * The MCP request body read as it arrives (src/surfaces/mcp/request-body.ts): any JSON, cut anywhere, parses as
 * JSON.parse parses it; malformed JSON and prototype keys are refused; and a long base64 `data` string goes to a staged
 * file (its JSON escapes, a data: URL head and MIME line breaks read as a whole-text decode would), leaving a stand-in
 * that depends on the bytes alone. Also the base64 decoder fed piece by piece against Buffer's whole-text decode.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/core/errors.js';
import { Base64Decoder } from '../../src/files/base64.js';
import { DiskBlobStore } from '../../src/files/blob-store.js';
import { readMcpBody, standIn } from '../../src/surfaces/mcp/request-body.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-body-'));
const files = new DiskBlobStore(dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tooLarge = () => new ServiceError('PAYLOAD_TOO_LARGE', 'Too large.');
/** The text as chunks cut at `cuts` (byte offsets, so a character may be split). */
function* cut(text: string, cuts: number[]) {
  const bytes = Buffer.from(text);
  let at = 0;
  for (const c of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
    yield bytes.subarray(at, c);
    at = c;
  }
  yield bytes.subarray(at);
}
const read = (text: string, cuts: number[] = [], limit = 64 * 1024 * 1024) =>
  readMcpBody(
    (async function* () {
      yield* cut(text, cuts);
    })(),
    { limit, files, tooLarge },
  );

describe('the MCP body, read as it arrives', () => {
  it('parses any JSON, cut anywhere, exactly as JSON.parse does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), fc.array(fc.nat(), { maxLength: 8 }), async (value, cuts) => {
        const text = JSON.stringify(value, null, cuts.length % 2 ? 1 : undefined);
        // Prototype keys are refused on purpose (below).
        fc.pre(!/"(__proto__|constructor)"/.test(text));
        const body = await read(text, cuts);
        expect(body.message).toEqual(JSON.parse(text));
        expect(body.uploads.size).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    '',
    '{',
    '{"a":1,}',
    '[1 2]',
    '{"a" 1}',
    '"\u0001"',
    '{"a":tru}',
    '01',
    '{"a":"\\x"}',
    '{} {}',
    '[1]]',
    '{"a":"\\u12"}',
  ])('refuses %j as not JSON', async (text) => {
    await expect(read(text)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('refuses prototype keys, as fastify is set to, and a body past its limit', async () => {
    await expect(read('{"__proto__":{"x":1}}')).rejects.toMatchObject({ detail: expect.stringContaining('__proto__') });
    await expect(read('{"constructor":{"prototype":{}}}')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(read(JSON.stringify({ a: 'x'.repeat(5000) }), [], 4096)).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    });
  });
});

describe('a file in it', () => {
  const bytes = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 256));
  const b64 = bytes.toString('base64');
  const kept = (body: Awaited<ReturnType<typeof read>>) => {
    const [name, file] = [...body.uploads][0]!;
    return { name, file, bytes: readFileSync(file.path) };
  };

  it('goes to a staged file, cut anywhere, written with escapes, a data: URL head or line breaks', async () => {
    const variants = [
      JSON.stringify({ params: { arguments: { data: b64, mediaType: 'image/png' } } }),
      // Some encoders escape every '/', and wrap base64 at 76 characters (MIME).
      JSON.stringify({ params: { arguments: { data: b64.replace(/(.{76})/g, '$1\n') } } }).replace(/\//g, '\\/'),
      JSON.stringify({ params: { arguments: { data: `data:image/png;base64,${b64}` } } }),
    ];
    for (const [i, text] of variants.entries()) {
      const body = await read(text, [17, 70_000, 70_001, 150_003 + i]);
      const { name, file, bytes: stored } = kept(body);
      expect(stored.equals(bytes)).toBe(true);
      expect(file).toMatchObject({ size: bytes.length, base64: true });
      expect(name).toBe(standIn(file.sha256));
      expect((body.message as any).params.arguments.data).toBe(name);
      for (const f of body.staged) await files.discard(f);
    }
  });

  it('stays text under 64 KiB, or when it is not base64, or is not a data field', async () => {
    const short = await read(JSON.stringify({ data: b64.slice(0, 1000) }));
    expect(short.uploads.size).toBe(0);
    expect((short.message as any).data).toBe(b64.slice(0, 1000));
    const prose = 'Lorem ipsum, dolor sit amet. '.repeat(5000);
    expect(((await read(JSON.stringify({ data: prose }))).message as any).data).toBe(prose);
    const other = await read(JSON.stringify({ text: b64 }));
    expect(other.uploads.size).toBe(0);
    expect((other.message as any).text).toBe(b64);
  });

  it('that turns out not to be base64 leaves a text every action refuses as not base64, and no kept file', async () => {
    const text = JSON.stringify({ data: `${b64}!!` });
    // Known before any of it went to a file (it arrived in one piece): the text itself.
    expect(((await read(text)).message as any).data).toBe(`${b64}!!`);
    // Known only once most of it had gone to a file.
    const body = await read(text, [70_000]);
    expect(body.uploads.size).toBe(0);
    expect((body.message as any).data).toBe('(not base64)');
    for (const f of body.staged) await files.discard(f);
  });

  it('keeps the last of a key sent twice, as JSON.parse does', async () => {
    const body = await read(`{"data":"${b64}","data":"short"}`);
    expect((body.message as any).data).toBe('short');
    for (const f of body.staged) await files.discard(f);
  });
});

describe('base64 decoded piece by piece', () => {
  it('decodes what Buffer decodes whole, and refuses what the whole-text check refuses', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.constantFrom('', '\n', ' '),
        (data, cuts, wrap) => {
          const text = Buffer.from(data)
            .toString('base64')
            .replace(/(.{10})/g, `$1${wrap}`);
          const d = new Base64Decoder();
          const parts: Buffer[] = [];
          let at = 0;
          for (const c of [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)) {
            parts.push(d.write(text.slice(at, c)));
            at = c;
          }
          parts.push(d.write(text.slice(at)), d.end());
          expect(d.valid).toBe(true);
          expect(Buffer.concat(parts).equals(Buffer.from(data))).toBe(true);
        },
      ),
    );
    for (const bad of ['QQ=A', 'QQ===', 'Q', 'QQQQQ', 'QQ!Q', 'QQ==QQ']) {
      const d = new Base64Decoder();
      d.write(bad);
      d.end();
      expect(d.valid, bad).toBe(false);
    }
  });
});
