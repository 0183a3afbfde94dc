import { z } from 'zod';
import type { AnyAction } from '../../core/define-action.js';
import { ServiceError } from '../../core/errors.js';

/**
 * `fields` on call_action and read_action_result: an agent that reads a long list to scan it (a 450-line schedule is
 * some 370 KB of JSON, 57 result pages) asks for the few fields it needs and reads the list in a page or two. The
 * projection applies to the records an action returns — each item of a listed page, or the one record of a read — and
 * always keeps `id`, so a record can be fetched whole afterwards. Nothing else of the result changes (`nextCursor`).
 */

type Json = Record<string, unknown>;

const objectShape = (s: z.ZodType): Record<string, z.ZodType> | null =>
  s instanceof z.ZodObject ? (s.shape as Record<string, z.ZodType>) : null;

/** The record a read returns: its listed items (a page's `items`), or the output itself. */
function recordShape(action: AnyAction): { listed: boolean; shape: Record<string, z.ZodType> } | null {
  const out = objectShape(action.output);
  if (!out) return null;
  const items = out.items;
  if (items instanceof z.ZodArray) {
    const item = objectShape(items.element as z.ZodType);
    return item ? { listed: true, shape: item } : null;
  }
  return { listed: false, shape: out };
}

/** Checks the names against the action's record, so a typo answers with the fields there are, not a silent `{ id }`. */
export function fieldSelection(action: AnyAction, fields: readonly string[] | undefined) {
  if (!fields) return undefined;
  const record = recordShape(action);
  if (!record || action.effect !== 'query') {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `${action.name} returns no records to select fields from; leave out fields.`,
      {
        errors: [{ path: 'fields', message: 'Only reads that return records take fields.' }],
      },
    );
  }
  const known = Object.keys(record.shape);
  const unknown = fields.filter((f) => !Object.hasOwn(record.shape, f));
  if (unknown.length) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `${action.name} records have no field ${unknown.slice(0, 5).join(', ')}; choose from ${known.join(', ')}.`,
      { errors: [{ path: 'fields', message: `Unknown: ${unknown.slice(0, 5).join(', ')}.` }] },
    );
  }
  // A single record keeps its etag too: the next step after reading one is often an edit.
  const keep = new Set(['id', ...(record.listed ? [] : ['etag']), ...fields]);
  const pick = (r: unknown) =>
    r && typeof r === 'object' ? Object.fromEntries(Object.entries(r as Json).filter(([k]) => keep.has(k))) : r;
  return {
    /** Part of the snapshot's identity: the same read with other fields is another result. */
    fields: [...keep].sort(),
    apply(doc: unknown): unknown {
      if (!record.listed) return pick(doc);
      const page = doc as Json;
      return Array.isArray(page.items) ? { ...page, items: page.items.map(pick) } : doc;
    },
  };
}
