import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseInput } from '../../src/core/validation.js';
import { ServiceError } from '../../src/core/errors.js';

const anything = z.unknown();
const LONE = '\uD800';

/** The path parseInput's refusal names for a raw input, or undefined when it takes it. */
function refusedAt(raw: unknown): string | undefined {
  try {
    parseInput(anything, raw);
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError);
    return (err as ServiceError).errors![0]!.path;
  }
}

describe('malformed text is refused where it is, at any depth', () => {
  it('names the path of a string with a lone surrogate or NUL, through objects and arrays', () => {
    expect(refusedAt({ a: 'fine', b: { c: [0, 'ok', `x${LONE}`] } })).toBe('b.c.2');
    expect(refusedAt({ items: [{ name: 'a\u0000b' }] })).toBe('items.0.name');
    expect(refusedAt(`top${LONE}`)).toBe('(input)');
  });

  it('names a malformed key as (key) under its parent', () => {
    expect(refusedAt({ outer: { [`k${LONE}`]: 1 } })).toBe('outer.(key)');
    expect(refusedAt({ [`k${LONE}`]: 1 })).toBe('(key)');
  });

  it('takes well-formed text, surrogate pairs included, and the first problem is the one named', () => {
    expect(refusedAt({ a: '😀 emoji', b: ['é', { c: 'ok' }] })).toBeUndefined();
    expect(refusedAt({ first: LONE, second: LONE })).toBe('first');
  });
});
