import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  boundedResult,
  pageOf,
  PAGE_BYTES,
  snapshotOf,
  type ResultPage,
} from '../../src/surfaces/result-pages/paging.js';
import { ServiceError } from '../../src/core/errors.js';
import { reassemble } from './reassemble.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), 'utf8');

/** Pages straight from the pure function, checking every page against the budget on the way. */
function pager(doc: Json, sizes: number[] = []) {
  const json = JSON.stringify(doc);
  const snapshot = snapshotOf('test_read', {}, json);
  return (path: string | undefined, offset: number): ResultPage => {
    const page = pageOf(JSON.parse(json) as Json, snapshot, path, offset);
    const size = bytes({ result_page: page });
    sizes.push(size);
    if (size > PAGE_BYTES) throw new Error(`page of ${size} bytes at ${path ?? 'root'}+${offset}`);
    return page;
  };
}

// Text with what makes JSON escaping and UTF-8 sizes differ: quotes, backslashes, controls, accents, emoji.
const piece = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('"', '\\', '\n', '\u0001', 'é', '€', '😀', '👩‍🎨', '\u2028', 'Ω'),
);
const shortText = fc.array(piece, { maxLength: 6 }).map((p) => p.join(''));
const longText = fc
  .tuple(fc.array(piece, { minLength: 1, maxLength: 4 }), fc.integer({ min: 50, max: 1200 }))
  .map(([p, n]) => p.join('').repeat(n));
const text = fc.oneof({ weight: 6, arbitrary: shortText }, { weight: 1, arbitrary: longText });
const key = fc.oneof(
  { weight: 8, arbitrary: shortText },
  { weight: 1, arbitrary: longText },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', '~/', '') },
);
const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.integer({ min: -1000, max: 1000 }).map((n) => n / 8),
  text,
);

const { doc } = fc.letrec<{ doc: Json; obj: Json; arr: Json }>((tie) => ({
  doc: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('obj'), tie('arr')),
  obj: fc.dictionary(key, tie('doc'), { maxKeys: 12 }) as fc.Arbitrary<Json>,
  arr: fc.array(tie('doc'), { maxLength: 30 }) as fc.Arbitrary<Json>,
}));

/** A value under many levels of single-member objects and arrays: its path outgrows any page. */
const deep = fc
  .tuple(doc, fc.array(fc.oneof(fc.constant<null>(null), key), { minLength: 40, maxLength: 160 }))
  .map(([leaf, levels]) => levels.reduce<Json>((inner, k) => (k === null ? [inner] : { [k]: inner }), leaf));

const big = fc.array(fc.oneof(doc, deep), { minLength: 1, maxLength: 10 });

describe('result pages', () => {
  it('reassemble exactly the original JSON, and no page exceeds 8,000 bytes (generated documents)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(doc, deep, big), async (value) => {
        const got = await reassemble(pager(value));
        expect(JSON.stringify(got)).toBe(JSON.stringify(value));
      }),
      { numRuns: 120 },
    );
  });

  it('cut off a long key as a keyNode and a deep value as a node, with no path once it is too long', async () => {
    const longKey = 'k'.repeat(20_000);
    let deepValue: Json = { leaf: 'x'.repeat(9_000) };
    for (let i = 0; i < 300; i++) deepValue = { [`level-${i}`]: deepValue };
    const value: Json = { [longKey]: 'short value', deep: deepValue };
    const sizes: number[] = [];
    const fetch = pager(value, sizes);
    const root = fetch(undefined, 0);
    expect(root.entries![0]).toMatchObject({ keyNode: expect.stringMatching(/^k\d+$/) });
    expect(root.entries![0]!.key).toBeUndefined();
    expect(root.entries![1]).toMatchObject({ key: 'deep', node: expect.stringMatching(/^n\d+$/), type: 'object' });
    const key = fetch(root.entries![0]!.keyNode, 0);
    expect(key.type).toBe('string');
    expect(key.nextOffset).toBeGreaterThan(0);
    expect(JSON.stringify(await reassemble(fetch))).toBe(JSON.stringify(value));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(PAGE_BYTES);
  });

  it('opens the largest cut-off node in the first page: its first entries, nextOffset and how many remain', async () => {
    // Eight lines just over the budget under a list envelope: the root page carries most of them already.
    const line = (i: number) => ({ id: `line-${i}`, heading: `Line ${i}`, description: 'd'.repeat(960) });
    const value = { items: Array.from({ length: 8 }, (_, i) => line(i)), nextCursor: null, note: 'x'.repeat(40) };
    expect(bytes(value)).toBeGreaterThan(PAGE_BYTES);
    const fetch = pager(value);
    const root = fetch(undefined, 0);
    expect(root.nextOffset).toBeNull();
    expect(root.remaining).toBeUndefined();
    const items = root.entries!.find((e) => e.key === 'items')!;
    expect(items).toMatchObject({ node: 'n1', type: 'array', count: 8, nextOffset: expect.any(Number) });
    expect(items.entries!.length).toBeGreaterThanOrEqual(6);
    expect(items.entries!.every((e) => 'value' in e)).toBe(true);
    expect(items.remaining).toBe(8 - items.nextOffset!);
    // Exactly what a page of that node from 0 starts with, and the next page carries on from its nextOffset.
    const own = fetch(items.node, 0);
    expect(own.entries!.slice(0, items.entries!.length)).toEqual(items.entries);
    const rest = fetch(items.node, items.nextOffset!);
    expect(rest.offset).toBe(items.nextOffset);
    expect(rest.nextOffset).toBeNull();
    // Two calls for the whole value, where a bare pointer took three.
    let calls = 0;
    const counted = (path: string | undefined, offset: number) => {
      calls++;
      return fetch(path, offset);
    };
    expect(JSON.stringify(await reassemble(counted))).toBe(JSON.stringify(value));
    expect(calls).toBe(2);
  });

  it('says how many members remain on every page that has a next one', () => {
    const value = Array.from({ length: 300 }, (_, i) => ({ i, text: 'z'.repeat(100) }));
    const fetch = pager(value);
    let page = fetch(undefined, 0);
    for (;;) {
      if (page.nextOffset === null) {
        expect(page.remaining).toBeUndefined();
        break;
      }
      expect(page.remaining).toBe(page.count - page.nextOffset);
      page = fetch(page.node, page.nextOffset);
    }
  });

  it('never splits an emoji between two pages of a string', () => {
    const s = '😀'.repeat(10_000);
    const fetch = pager({ s });
    const first = fetch('/s', 0);
    expect(first.chunk!.length % 2).toBe(0);
    const second = fetch(first.node, first.nextOffset!);
    expect(second.chunk!.codePointAt(0)).toBe(0x1f600);
  });

  it('accepts JSON Pointers and node references for the same node', () => {
    const value = { items: Array.from({ length: 50 }, (_, i) => ({ i, text: 'x'.repeat(300) })), 'a/b~c': [1] };
    const fetch = pager(value);
    const root = fetch(undefined, 0);
    const items = root.entries!.find((e) => e.key === 'items')!;
    expect(fetch('/items', 0)).toEqual(fetch(items.node, 0));
    expect(fetch('/a~1b~0c', 0).entries).toEqual([{ value: 1 }]);
    expect(() => fetch('/nothing', 0)).toThrow(ServiceError);
    expect(() => fetch('n99999', 0)).toThrow(/Nothing is at/);
    expect(() => fetch(items.node, 51)).toThrow(/past the end/);
  });

  it('gives the whole result when it fits, a page when it does not, and SNAPSHOT_CHANGED for another snapshot', () => {
    expect(boundedResult('r', {}, { a: 1 })).toEqual({ whole: { a: 1 } });
    const large = { items: Array.from({ length: 40 }, (_, i) => ({ i, text: 'y'.repeat(400) })) };
    const first = boundedResult('r', { p: 1 }, large);
    expect('result_page' in first).toBe(true);
    const snapshot = (first as { result_page: ResultPage }).result_page.snapshot;
    // The same read continues; the same data read with other input is another snapshot.
    expect(() => boundedResult('r', { p: 1 }, large, { snapshot, path: 'n1', offset: 3 })).not.toThrow();
    expect(() => boundedResult('r', { p: 2 }, large, { snapshot })).toThrow(
      expect.objectContaining({ code: 'SNAPSHOT_CHANGED' }),
    );
    const changed = { items: [...large.items.slice(1)] };
    expect(() => boundedResult('r', { p: 1 }, changed, { snapshot, path: 'n1', offset: 3 })).toThrow(
      expect.objectContaining({ code: 'SNAPSHOT_CHANGED' }),
    );
  });
});
