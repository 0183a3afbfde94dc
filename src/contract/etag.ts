import { z } from 'zod';
import type { AnyAction } from '../core/define-action.js';
import { sha256 } from '../core/ids.js';
import { apartFields, etagOf, taggedText } from '../core/etag.js';

const hasVersion = (action: AnyAction) =>
  action.kind === 'resource' && action.output instanceof z.ZodObject && 'version' in action.output.shape;

/**
 * Whether an action returns one record whose version is its ETag: REST sends it, MCP hands it to agents as `etag`,
 * and writes take it back as If-Match / ifMatch.
 */
export const returnsVersionedRecord = (action: AnyAction): boolean =>
  hasVersion(action) && action.http?.etag !== 'content';

/** How a member read is tagged over REST, if at all: a record without a version is tagged only by its content. */
export function etagMode(action: AnyAction): 'version' | 'content' | undefined {
  if (action.kind === 'resource' && action.http?.etag === 'content') return 'content';
  if (!hasVersion(action)) return undefined;
  return action.http?.etag ?? 'version';
}

/** The REST ETag for an action's output: the version, or a digest of the body for content-tagged records. */
export function restEtag(action: AnyAction, output: unknown): string | undefined {
  const mode = etagMode(action);
  if (mode === 'content') {
    const ignored = action.http?.etagIgnores ?? [];
    const tagged = ignored.length
      ? Object.fromEntries(Object.entries(output as object).filter(([k]) => !ignored.includes(k)))
      : output;
    return `"c${sha256(JSON.stringify(tagged)).slice(0, 20)}"`;
  }
  return mode === 'version' ? versionTagOf(action, output) : undefined;
}

/** A versioned record's ETag as a read or a write answers it: a write is tagged as the read it takes If-Match from. */
export function versionTagOf(action: AnyAction, output: unknown) {
  const read = action.etagFrom ?? action;
  return etagOf(output, read.http?.etagIgnores, apartFields(read.output));
}

/**
 * A version-tagged record and its JSON text, made together from one stringify (`taggedText`): the body sent is the text
 * the tag digests. Undefined for any other record.
 */
export function taggedBody(action: AnyAction, output: unknown): { etag: string; text: string } | undefined {
  if (etagMode(action) !== 'version') return undefined;
  const read = action.etagFrom ?? action;
  return taggedText(output, read.http?.etagIgnores, apartFields(read.output));
}
