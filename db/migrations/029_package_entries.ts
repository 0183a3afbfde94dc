/**
 * A project package no longer keeps a copy of what it packs: it is the list of its entries, each a file already kept
 * in the blob store (a document, a photograph's original, the schedule export made for it) by its SHA-256, under the
 * name it has in the ZIP, in order. The download writes the ZIP from them as it sends it (src/domain/documents/
 * package-stream.ts), always the same bytes, so the document's `blob_sha256` is the digest of those bytes and names no
 * stored file. A package made before this keeps its stored ZIP and has no entries.
 *
 * The studio's storage figure (src/domain/storage/references.ts) reads each studio's photographs, documents and
 * imports, on every upload once a quota is set: by studio, not by scanning every studio's. Portable SQL.
 */
export const name = 'package_entries';
export const statements = [
  `CREATE TABLE package_entries (
    document_id TEXT NOT NULL REFERENCES documents(id),
    position INTEGER NOT NULL,
    path TEXT NOT NULL,
    blob_sha256 TEXT NOT NULL,
    byte_size INTEGER NOT NULL,
    PRIMARY KEY (document_id, position)
  )`,
  `CREATE INDEX line_photographs_by_studio ON line_photographs (studio_id)`,
  `CREATE INDEX documents_by_studio ON documents (studio_id)`,
  `CREATE INDEX imports_by_studio ON imports (studio_id)`,
];
