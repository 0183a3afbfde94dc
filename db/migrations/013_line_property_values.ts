/**
 * The value each line holds for a custom property: one row per line and property, the value as canonical JSON of its
 * API form (text, a scale-4 amount, a date, yes/no, option ids). No row: no value. Portable SQL.
 */
export const name = 'line_property_values';
export const statements = [
  `CREATE TABLE line_property_values (
    line_id TEXT NOT NULL REFERENCES lines(id),
    property_id TEXT NOT NULL REFERENCES custom_properties(id),
    project_id TEXT NOT NULL REFERENCES projects(id),
    value TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (line_id, property_id)
  )`,
  `CREATE INDEX line_property_values_by_property ON line_property_values (property_id)`,
];
