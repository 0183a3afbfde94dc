import type { z } from 'zod';
import { sha256 } from './ids.js';

/** Fields of a record's schema (by its definition) that other records' acts move without moving its version. */
const APART = new WeakMap<object, readonly string[]>();
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: object } })._zod.def;

/**
 * Declares fields of a versioned record that other records' acts change without the record's version moving, and
 * that no write of the record takes (a line's ordering, moved by purchase orders and their deliveries). Its ETag then
 * has a second digest over these fields alone (`"4-1c9e0a7b-5d2e81aa"`): a read compares the whole tag, so a cached
 * copy is never stale; If-Match compares the version and the first digest only (`guardedPart`), so a pending edit is
 * not refused for a change it did not make and cannot overwrite.
 */
export function keptApartFromVersion<T extends z.ZodObject>(
  schema: T,
  fields: ReadonlyArray<keyof T['shape'] & string>,
) {
  APART.set(defOf(schema), fields);
  return schema;
}

/** The fields a record's schema keeps apart from its version (none unless declared). */
export const apartFields = (schema: z.ZodType): readonly string[] => APART.get(defOf(schema)) ?? [];

const digestOf = (text: string) => sha256(text).slice(0, 8);

/**
 * The ETag of a versioned record as this caller reads it: its version, then a digest of the body, quoted
 * (`"4-1c9e0a7b"`), the same text over REST (the ETag header) and MCP (`etag`). The digest makes it strong: If-Match
 * must equal the tag the record's read answers now, so another record's tag, a forged one, or one read before the
 * body changed without the version moving (a project's default markup repricing a line) is a conflict; and
 * If-None-Match never answers 304 for a body that changed.
 */
export function etagOf(
  output: unknown,
  ignores: readonly string[] = [],
  apart: readonly string[] = [],
): string | undefined {
  return taggedText(output, ignores, apart)?.etag;
}

/**
 * A versioned record's ETag and its JSON text, from one JSON.stringify: the digests are of that text with the
 * ignored and kept-apart members cut out (`{"a":1,"b":2}` without b is `{"a":1}`, byte for byte what stringifying the
 * record without b gives), and of the kept-apart members alone, so no copy of the record is made or stringified again.
 */
export function taggedText(
  output: unknown,
  ignores: readonly string[] = [],
  apart: readonly string[] = [],
): { etag: string; text: string } | undefined {
  const v = (output as { version?: unknown } | null)?.version;
  if (typeof v !== 'number') return undefined;
  const text = JSON.stringify(output);
  if (!ignores.length && !apart.length) return { etag: `"${v}-${digestOf(text)}"`, text };
  const members = topLevelMembers(text, ignores, apart);
  let guarded = '';
  let from = 1;
  for (const m of members) {
    guarded += text.slice(from, m.start);
    // A member and one comma beside it go: the one after it, or for the last member the one before it.
    if (text.charCodeAt(m.end) === 44 /* , */) from = m.end + 1;
    else {
      from = m.end;
      if (guarded.length) guarded = guarded.slice(0, -1);
    }
  }
  guarded = `{${guarded}${text.slice(from, -1)}}`;
  const tag = `${v}-${digestOf(guarded)}`;
  if (!apart.length) return { etag: `"${tag}"`, text };
  // The kept-apart members in the order declared; one the record lacks counts as null.
  const keptApart = members.filter((m) => m.apart);
  const kept =
    keptApart.length === apart.length && keptApart.every((m, i) => m.name === apart[i])
      ? keptApart.map((m) => text.slice(m.start, m.end)).join(',')
      : apart
          .map((k) => `${JSON.stringify(k)}:${JSON.stringify((output as Record<string, unknown>)[k] ?? null)}`)
          .join(',');
  return { etag: `"${tag}-${digestOf(`{${kept}}`)}"`, text };
}

interface Member {
  name: string;
  apart: boolean;
  /** From the member's key to the end of its value (the comma or brace after it). */
  start: number;
  end: number;
}

/**
 * The top-level members of an object's JSON text named in `ignores` or `apart`, in text order. The text is read from
 * its end, member by member, stepping over strings (with their escapes) and nested values, and the reading stops once
 * every name is found (a key appears once in an object JSON.stringify wrote): a record's fields kept apart or ignored
 * sit near its end (a line's ordering, before its prices and timestamps), so most of the text is never read. A key is
 * compared where it lies in the text, not cut out of it: only a key with an escape in it (rare) is decoded first, since
 * it reads as another name than its text.
 */
function topLevelMembers(text: string, ignores: readonly string[], apart: readonly string[]): Member[] {
  const found: Member[] = [];
  // JSON.stringify writes no white space: a member is `"key":value`, and `end` is just past its value (a comma or the
  // closing brace).
  let end = text.length - 1;
  while (end > 1) {
    const colon = startOfValue(text, end) - 1;
    const start = startOfString(text, colon - 1);
    const name = escaped(text, start, colon)
      ? namedIn(JSON.parse(text.slice(start, colon)) as string, ignores, apart)
      : keyAt(text, start, colon, ignores, apart);
    if (name !== undefined) {
      found.push({ name, apart: apart.includes(name), start, end });
      if (found.length === ignores.length + apart.length) break;
    }
    end = start - 1;
  }
  return found.reverse();
}

/** The name among `ignores` and `apart` that the unescaped key from `start` (its opening quote) to `end` spells. */
function keyAt(text: string, start: number, end: number, ignores: readonly string[], apart: readonly string[]) {
  const length = end - start - 2;
  for (let i = 0; i < apart.length; i++) if (spells(text, start, length, apart[i]!)) return apart[i];
  for (let i = 0; i < ignores.length; i++) if (spells(text, start, length, ignores[i]!)) return ignores[i];
  return undefined;
}

function spells(text: string, start: number, length: number, name: string): boolean {
  return name.length === length && text.startsWith(name, start + 1);
}

/** Whether the JSON string from `start` (its opening quote) to `end` has an escape in it. */
function escaped(text: string, start: number, end: number): boolean {
  for (let j = start + 1; j < end - 1; j++) if (text.charCodeAt(j) === 92 /* \ */) return true;
  return false;
}

const namedIn = (key: string, ignores: readonly string[], apart: readonly string[]) =>
  apart.includes(key) || ignores.includes(key) ? key : undefined;

/**
 * The opening quote of the JSON string whose closing quote is at `close`: the first quote before it not escaped, that
 * is with an even run of backslashes before it (inside a string every quote is escaped, so has an odd run).
 */
function startOfString(text: string, close: number): number {
  for (let j = text.lastIndexOf('"', close - 1); j !== -1; j = text.lastIndexOf('"', j - 1)) {
    let backslashes = 0;
    while (text.charCodeAt(j - 1 - backslashes) === 92 /* \ */) backslashes++;
    if (backslashes % 2 === 0) return j;
  }
  return 0;
}

/** Where the JSON value ending just before `end` starts: a string, a nested object or array, or a number or literal. */
function startOfValue(text: string, end: number): number {
  const last = text.charCodeAt(end - 1);
  if (last === 34 /* " */) return startOfString(text, end - 1);
  if (last !== 125 /* } */ && last !== 93 /* ] */) return text.lastIndexOf(':', end - 1) + 1;
  let depth = 0;
  for (let j = end - 1; j > 0; j--) {
    const c = text.charCodeAt(j);
    if (c === 34) j = startOfString(text, j);
    else if (c === 125 || c === 93) depth++;
    else if ((c === 123 || c === 91) && --depth === 0) return j;
  }
  return 0;
}

/** The shape of the tags `etagOf` makes; `version` is the record's version inside it. */
const OURS = /^"(\d{1,15})-[0-9a-f]{8}(?:-[0-9a-f]{8})?"$/;

/** What If-Match compares of a tag: the version and the first digest, without a digest of fields kept apart. */
export const guardedPart = (tag: string) => tag.replace(/^("\d{1,15}-[0-9a-f]{8})-[0-9a-f]{8}"$/, '$1"');

/** The version inside an ETag this API made, or undefined for any other tag. */
export function versionInTag(tag: string): number | undefined {
  const m = OURS.exec(tag);
  return m ? Number(m[1]) : undefined;
}

/**
 * An If-Match value as RFC 9110 writes it: `*`, or a comma-separated list of entity-tags, each quoted and optionally
 * weak (`W/"…"`). Answers the tags, or undefined when the text is not that (a tag without its quotes, stray text).
 */
export function entityTags(value: string): { tag: string; weak: boolean }[] | undefined {
  const tags: { tag: string; weak: boolean }[] = [];
  for (const part of value.split(',')) {
    const m = /^\s*(W\/)?("[\x21\x23-\x7e\x80-\xff]*")\s*$/.exec(part);
    if (!m) return undefined;
    tags.push({ tag: m[2]!, weak: m[1] !== undefined });
  }
  return tags;
}
