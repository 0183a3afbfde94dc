/**
 * The client document: a project's settings for it (one row per project, made on its first save) and its minted
 * versions (numbered 1, 2, 3 … per project, never changed once written). The document itself is a projection
 * computed on read; a version keeps the projection as canonical JSON, and apart from it what is needed to serve the
 * photographs it froze (their originals' SHA-256 and rotation), which the document's schema does not show.
 *
 * `client_document_settings_versions` gives every project its settings' version, 1 while none were saved: the
 * version an update checks before the first save made a row. Portable SQL: SQLite and PostgreSQL take it as it is.
 */
export const name = 'client_documents';
export const statements = [
  `CREATE TABLE client_document_settings (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL UNIQUE REFERENCES projects(id),
    title TEXT,
    introduction TEXT NOT NULL DEFAULT '',
    show_prices INTEGER NOT NULL DEFAULT 1,
    shown_columns TEXT NOT NULL,
    property_ids TEXT NOT NULL DEFAULT '[]',
    studio_name TEXT,
    accent_colour TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  )`,
  `CREATE VIEW client_document_settings_versions AS
    SELECT p.id AS id, p.id AS project_id, COALESCE(s.version, 1) AS version
    FROM projects p LEFT JOIN client_document_settings s ON s.project_id = p.id`,
  `CREATE TABLE client_document_versions (
    id TEXT PRIMARY KEY,
    studio_id TEXT NOT NULL REFERENCES studios(id),
    project_id TEXT NOT NULL REFERENCES projects(id),
    number INTEGER NOT NULL,
    title TEXT NOT NULL,
    piece_count INTEGER NOT NULL,
    minted_at TEXT NOT NULL,
    minted_by TEXT NOT NULL REFERENCES members(id),
    document TEXT NOT NULL,
    photograph_sources TEXT NOT NULL,
    UNIQUE (project_id, number)
  )`,
];
