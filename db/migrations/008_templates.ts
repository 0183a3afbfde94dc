/**
 * Project templates: a named starting point for new projects, its sections each with starting lines (heading,
 * description, quantity, status; no prices). The sections are the template's value, kept whole as JSON text (portable
 * SQL: TEXT only) and replaced whole by an update; they are not records of their own.
 */
export const name = 'templates';
export const statements = [
  `CREATE TABLE project_templates (
    id TEXT PRIMARY KEY,
    studio_id TEXT NOT NULL REFERENCES studios(id),
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    sections_json TEXT NOT NULL,
    archived_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  )`,
  `CREATE INDEX project_templates_by_studio_name ON project_templates (studio_id, name)`,
];
