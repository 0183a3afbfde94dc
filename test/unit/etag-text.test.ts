import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { taggedText } from '../../src/core/etag.js';

/** The tag by its definition: the record stringified without the ignored and kept-apart fields, then those alone. */
function byDefinition(output: Record<string, unknown>, ignores: string[], apart: string[]) {
  const digest = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 8);
  const without = Object.fromEntries(
    Object.entries(output).filter(([k]) => !ignores.includes(k) && !apart.includes(k)),
  );
  const guarded = `${output.version as number}-${digest(without)}`;
  if (!apart.length) return `"${guarded}"`;
  return `"${guarded}-${digest(Object.fromEntries(apart.map((k) => [k, output[k] ?? null])))}"`;
}

const KEYS = ['a', 'b', 'ordering', 'c,', 'd"e', 'f\\', '{g}', 'x'];

describe('taggedText: the tag from one stringify is the tag by its definition', () => {
  it('for any record, any fields ignored or kept apart, in any order', () => {
    const value = fc.jsonValue({ maxDepth: 3 }).map((v) => (v === undefined ? null : v));
    const record = fc
      .tuple(fc.dictionary(fc.constantFrom(...KEYS, 'version'), value), fc.nat(99), fc.nat(KEYS.length))
      .map(([fields, version, at]) => {
        const entries = Object.entries(fields).filter(([k]) => k !== 'version');
        entries.splice(Math.min(at, entries.length), 0, ['version', version]);
        return Object.fromEntries(entries);
      });
    const names = fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 3 });
    fc.assert(
      fc.property(record, names, names, (output, ignores, apartAll) => {
        const apart = apartAll.filter((k) => !ignores.includes(k));
        const tagged = taggedText(output, ignores, apart)!;
        expect(tagged.text).toBe(JSON.stringify(output));
        expect(tagged.etag).toBe(byDefinition(output, ignores, apart));
      }),
      { numRuns: 2000 },
    );
  });

  it('answers nothing for a record without a version', () => {
    expect(taggedText({ id: 'x' })).toBeUndefined();
  });
});
