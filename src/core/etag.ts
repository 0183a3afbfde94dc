import { sha256 } from './ids.js';

/**
 * The ETag of a versioned record as this caller reads it: its version, then a digest of the body, quoted
 * (`"4-1c9e0a7b"`), the same text over REST (the ETag header) and MCP (`etag`). The digest makes it strong: If-Match
 * must equal the tag the record's read answers now, so another record's tag, a forged one, or one read before the
 * body changed without the version moving (a project's default markup repricing a line) is a conflict; and
 * If-None-Match never answers 304 for a body that changed.
 */
export function etagOf(output: unknown, ignores: readonly string[] = []): string | undefined {
  const v = (output as { version?: unknown } | null)?.version;
  if (typeof v !== 'number') return undefined;
  const tagged = ignores.length
    ? Object.fromEntries(Object.entries(output as object).filter(([k]) => !ignores.includes(k)))
    : output;
  return `"${v}-${sha256(JSON.stringify(tagged)).slice(0, 8)}"`;
}

/** The shape of the tags `etagOf` makes; `version` is the record's version inside it. */
const OURS = /^"(\d{1,15})-[0-9a-f]{8}"$/;

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
