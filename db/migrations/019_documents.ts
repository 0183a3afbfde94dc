/**
 * Documents: files the studio made from a project (a client schedule or spec sheets as PDF, an export of the client
 * schedule as XLSX or CSV, a ZIP package), each kept in the blob store by its SHA-256 and recorded here with where it
 * came from (the live client document, a minted version by number, or what a share showed), and its deliveries by
 * email. A document never changes once recorded: archival is its one later act. 017 is the imports', 018 the
 * operations'. Portable SQL.
 */
export const name = 'documents';
export const statements = [
  `CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    studio_id TEXT NOT NULL REFERENCES studios(id),
    project_id TEXT NOT NULL REFERENCES projects(id),
    kind TEXT NOT NULL,
    format TEXT NOT NULL,
    source_kind TEXT NOT NULL,
    source_version INTEGER,
    source_share_id TEXT REFERENCES shares(id),
    title TEXT NOT NULL,
    filename TEXT NOT NULL,
    blob_sha256 TEXT NOT NULL,
    byte_size INTEGER NOT NULL,
    page_count INTEGER,
    created_by TEXT NOT NULL REFERENCES members(id),
    created_at TEXT NOT NULL,
    archived_at TEXT
  )`,
  `CREATE INDEX documents_by_project ON documents (project_id, created_at)`,
  `CREATE TABLE document_deliveries (
    id TEXT PRIMARY KEY,
    studio_id TEXT NOT NULL REFERENCES studios(id),
    project_id TEXT NOT NULL REFERENCES projects(id),
    document_id TEXT NOT NULL REFERENCES documents(id),
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    message TEXT NOT NULL,
    status TEXT NOT NULL,
    error_code TEXT,
    error_detail TEXT,
    message_id TEXT,
    requested_by TEXT NOT NULL REFERENCES members(id),
    created_at TEXT NOT NULL,
    sent_at TEXT,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX document_deliveries_by_project ON document_deliveries (project_id, created_at)`,
  `CREATE INDEX document_deliveries_by_document ON document_deliveries (document_id, created_at)`,
];
