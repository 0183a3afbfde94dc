import { z } from 'zod';
import { Cursor, Limit } from '../../src/core/values.js';

/** The parts every list query takes. */

/** Keyset paging, as every list takes it: the previous page's nextCursor, and a page size. */
export const pageQuery = { cursor: Cursor.optional(), limit: Limit.optional() };

/** Whether a list shows archived records; `records` names them in the description, e.g. "lines". */
export const archivedFilter = (records: string) =>
  z.enum(['exclude', 'include', 'only']).optional().describe(`Archived ${records}: excluded by default.`);
