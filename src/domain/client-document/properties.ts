import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Currency, PropertyKind } from '../../../db/vocabulary.js';
import { type ShownValue, shownValue } from '../schedule/line-values.js';

export interface VisibleProperty {
  name: string;
  kind: PropertyKind;
}

/** A piece's value for one shown custom property: choices read as their labels, as the client reads them. */
export interface PieceProperty {
  name: string;
  kind: PropertyKind;
  value: ShownValue;
}

/** The project's active custom properties marked clientVisible, the only ones a client document may show. */
export async function clientVisibleProperties(
  db: Kysely<Database>,
  projectId: string,
): Promise<Map<string, VisibleProperty>> {
  const rows = await db
    .selectFrom('custom_properties')
    .select(['id', 'name', 'kind'])
    .where('project_id', '=', projectId)
    .where('archived_at', 'is', null)
    .where('client_visible', '=', 1)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return new Map(rows.map((r) => [r.id, { name: r.name, kind: r.kind }]));
}

/**
 * Each line's values for the chosen properties, in the order chosen. A choice shows its option's label (an archived
 * option still reads as the label the line chose); the schedule's own reads carry option ids instead.
 */
export async function pieceProperties(
  db: Kysely<Database>,
  projectId: string,
  chosen: readonly string[],
  visible: ReadonlyMap<string, VisibleProperty>,
  currency: Currency,
): Promise<(lineId: string) => PieceProperty[]> {
  const ids = chosen.filter((id) => visible.has(id));
  if (!ids.length) return () => [];
  const values = await db
    .selectFrom('line_property_values')
    .select(['line_id', 'property_id', 'value'])
    .where('project_id', '=', projectId)
    .where('property_id', 'in', ids)
    .execute();
  const labels = new Map(
    (
      await db.selectFrom('custom_property_options').select(['id', 'label']).where('property_id', 'in', ids).execute()
    ).map((o) => [o.id, o.label]),
  );
  const label = (id: string) => labels.get(id) ?? id;
  const byLine = new Map<string, Map<string, ShownValue>>();
  for (const v of values) {
    const { kind } = visible.get(v.property_id)!;
    let shown = shownValue(kind, v.value, currency);
    if (kind === 'single_choice') shown = label(shown as string);
    if (kind === 'multiple_choice') shown = (shown as string[]).map(label);
    const line = byLine.get(v.line_id) ?? new Map<string, ShownValue>();
    line.set(v.property_id, shown);
    byLine.set(v.line_id, line);
  }
  return (lineId) => {
    const line = byLine.get(lineId);
    if (!line) return [];
    return ids.flatMap((id) => {
      const value = line.get(id);
      const p = visible.get(id)!;
      return value === undefined ? [] : [{ name: p.name, kind: p.kind, value }];
    });
  };
}
