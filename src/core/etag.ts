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

const without = (output: unknown, names: readonly string[]) =>
  names.length ? Object.fromEntries(Object.entries(output as object).filter(([k]) => !names.includes(k))) : output;
const digest = (value: unknown) => sha256(JSON.stringify(value)).slice(0, 8);

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
  const v = (output as { version?: unknown } | null)?.version;
  if (typeof v !== 'number') return undefined;
  const guarded = `${v}-${digest(without(output, [...ignores, ...apart]))}`;
  if (!apart.length) return `"${guarded}"`;
  const kept = Object.fromEntries(apart.map((k) => [k, (output as Record<string, unknown>)[k] ?? null]));
  return `"${guarded}-${digest(kept)}"`;
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
