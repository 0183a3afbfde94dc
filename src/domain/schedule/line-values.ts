import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Currency, PropertyKind } from '../../../db/vocabulary.js';

/** A value as the API shows it: text, a yes/no, option ids, or an amount (money in the project's currency). */
export type ShownValue = string | boolean | string[] | { amount4: string } | { amount4: string; currency: Currency };

/** A line's value for one custom property, as line reads show it. */
export interface ShownPropertyValue {
  propertyId: string;
  name: string;
  value: ShownValue;
}

/** A stored value (canonical JSON of its API form) as the API shows it; money gains the project's currency. */
export function shownValue(kind: PropertyKind, stored: string, currency: Currency): ShownValue {
  const value = JSON.parse(stored) as ShownValue;
  return kind === 'money' ? { ...(value as { amount4: string }), currency } : value;
}

/**
 * The most lines whose values are read by naming them (one bound variable each): the largest page a list answers
 * (Limit). SQLite binds at most 32,766 variables in a statement and PostgreSQL 65,535, and a project may hold more
 * lines than either.
 */
const NAMED_LINES = 1000;

/**
 * The values these lines of a project hold for its active properties, in the properties' display order, in one query.
 * Values of archived properties are kept but not shown. Up to a page of lines is read by their ids; more (a whole
 * client document) as the project's values, by its properties, so no statement binds a variable per line.
 */
export async function valuesOfLines(
  db: Kysely<Database>,
  projectId: string,
  lineIds: readonly string[],
  currency: Currency,
): Promise<Map<string, ShownPropertyValue[]>> {
  const byLine = new Map<string, ShownPropertyValue[]>(lineIds.map((id) => [id, []]));
  if (!lineIds.length) return byLine;
  const query = db
    .selectFrom('line_property_values as v')
    .innerJoin('custom_properties as p', 'p.id', 'v.property_id')
    .select(['v.line_id', 'v.property_id', 'v.value', 'p.name', 'p.kind'])
    .where('p.archived_at', 'is', null);
  // A few lines by the values' primary key (a line read is the hot path); many by the project's properties.
  const rows = await (lineIds.length <= NAMED_LINES
    ? query.where('v.line_id', 'in', lineIds)
    : query.where('p.project_id', '=', projectId)
  )
    .orderBy('p.position')
    .orderBy('p.id')
    .execute();
  // Only the lines asked about: the project's other lines' values are passed over.
  for (const r of rows) {
    byLine.get(r.line_id)?.push({
      propertyId: r.property_id,
      name: r.name,
      value: shownValue(r.kind, r.value, currency),
    });
  }
  return byLine;
}
