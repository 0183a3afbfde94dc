/**
 * Spreadsheet imports. An import is a record of one uploaded file on its way into a project's schedule: the file
 * itself is kept byte-exact in the blob store under its SHA-256 (file_sha256); its sheets, read once at upload, are
 * kept here as tables of cell texts (import_sheets.cells, JSON), so a preview or a commit reads them inside its
 * transaction without parsing the file again. `status` moves uploaded → previewed → committing → committed, or to
 * canceled or failed; `mapping` is the column mapping of the last preview (JSON), and a commit applies exactly it.
 * The cells are cleared once the import is committed or canceled (the file stays in the blob store).
 *
 * Saved mappings are the studio's own: found again by the headings they were made for (headings_key: the sheet's
 * normalised headings, sorted), and unique by name (name_key, lower-cased) among the studio's. Portable SQL.
 */
export const name = 'imports';
export const statements = [
  `CREATE TABLE imports (
    id TEXT PRIMARY KEY,
    studio_id TEXT NOT NULL REFERENCES studios(id),
    project_id TEXT NOT NULL REFERENCES projects(id),
    file_sha256 TEXT NOT NULL,
    filename TEXT NOT NULL,
    media_type TEXT NOT NULL,
    byte_size INTEGER NOT NULL,
    format TEXT NOT NULL,
    encoding TEXT,
    delimiter TEXT,
    sheet TEXT,
    status TEXT NOT NULL,
    mapping TEXT,
    mapping_source TEXT,
    default_section_id TEXT REFERENCES sections(id),
    row_count INTEGER,
    error_count INTEGER,
    warning_count INTEGER,
    result TEXT,
    created_by TEXT NOT NULL REFERENCES members(id),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    previewed_at TEXT,
    committed_by TEXT REFERENCES members(id),
    committed_at TEXT,
    canceled_at TEXT,
    version INTEGER NOT NULL
  )`,
  `CREATE INDEX imports_by_project ON imports (project_id, created_at)`,
  `CREATE TABLE import_sheets (
    import_id TEXT NOT NULL REFERENCES imports(id),
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    row_count INTEGER NOT NULL,
    too_large INTEGER NOT NULL,
    cells TEXT,
    PRIMARY KEY (import_id, position)
  )`,
  `CREATE TABLE import_mappings (
    id TEXT PRIMARY KEY,
    studio_id TEXT NOT NULL REFERENCES studios(id),
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    headings_key TEXT NOT NULL,
    mapping TEXT NOT NULL,
    created_by TEXT NOT NULL REFERENCES members(id),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  )`,
  `CREATE UNIQUE INDEX import_mappings_by_name ON import_mappings (studio_id, name_key)`,
  `CREATE INDEX import_mappings_by_headings ON import_mappings (studio_id, headings_key, updated_at)`,
];
