/**
 * Custom properties: a project's own columns (the seed's path /projects/{projectId}/custom-properties/{propertyId}),
 * each of one kind, in a display order, shown to the client only when marked so; choice properties have options.
 * Both are archived, never deleted. Portable SQL: the same statements serve SQLite and PostgreSQL.
 */
export const name = 'custom_properties';
export const statements = [
  `CREATE TABLE custom_properties (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    client_visible INTEGER NOT NULL DEFAULT 0,
    position INTEGER NOT NULL,
    archived_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  )`,
  `CREATE INDEX custom_properties_by_project ON custom_properties (project_id, position)`,
  `CREATE TABLE custom_property_options (
    id TEXT PRIMARY KEY,
    property_id TEXT NOT NULL REFERENCES custom_properties(id),
    project_id TEXT NOT NULL REFERENCES projects(id),
    label TEXT NOT NULL,
    position INTEGER NOT NULL,
    archived_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  )`,
  `CREATE INDEX custom_property_options_by_property ON custom_property_options (property_id, position)`,
];
