import { ServiceError } from '../../core/errors.js';
import { type ImportField, MULTI_COLUMN_FIELDS } from './fields.js';

/**
 * What every mapping must be, saved or used: one column at most per field (description may take several), and a
 * column for the line's heading (every line needs one). `where` names a column in messages ("C (Net)").
 */
export function assertMappable(columns: ReadonlyArray<{ field: ImportField | null; path: string; where: string }>) {
  const used = new Map<ImportField, string>();
  for (const c of columns) {
    if (!c.field || MULTI_COLUMN_FIELDS.has(c.field)) continue;
    const first = used.get(c.field);
    if (first) {
      throw new ServiceError(
        'VALIDATION_FAILED',
        `Columns ${first} and ${c.where} both map to ${c.field}; a line has one ${c.field}, so map one of them to null.`,
        { errors: [{ path: `${c.path}.field`, message: `${c.field} is already mapped from ${first}.` }] },
      );
    }
    used.set(c.field, c.where);
  }
  if (!used.has('heading')) {
    const named = columns
      .slice(0, 30)
      .map((c) => c.where)
      .join(', ');
    throw new ServiceError(
      'VALIDATION_FAILED',
      `No column is mapped to heading (the item's name, which every line needs). Map one: the columns are ${named || 'none'}.`,
      { errors: [{ path: 'mapping.columns', message: 'Map one column to heading.' }] },
    );
  }
}
