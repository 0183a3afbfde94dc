import { z } from 'zod';
import type { AnyAction } from '../../core/define-action.js';
import { ServiceError } from '../../core/errors.js';

/**
 * `fields` on call_action and read_action_result: an agent that reads a long list to scan it (a 450-line schedule is
 * some 370 KB of JSON, 57 result pages) asks for the few fields it needs and reads the list in a few pages. A listed
 * page's items become rows under one `columns` header (`id` first, then the fields asked for, in that order), so no
 * key is repeated per record; the one record of a single read keeps its shape with only those fields, `id` and `etag`.
 * `id` is always kept, so a record can be fetched whole afterwards. Nothing else of the result changes (`nextCursor`).
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
  const columns = [...keep];
  return {
    /** Part of the snapshot's identity: the same read with other fields is another result. */
    fields: columns,
    apply(doc: unknown): unknown {
      if (!record.listed) {
        return Object.fromEntries(Object.entries(doc as Json).filter(([k]) => keep.has(k)));
      }
      const { items, ...rest } = doc as Json;
      if (!Array.isArray(items)) return doc;
      // Rows under one header: a record's keys are not repeated 450 times.
      return { columns, items: items.map((r) => columns.map((c) => (r as Json)[c] ?? null)), ...rest };
    },
  };
}
