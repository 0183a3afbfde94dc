/**
 * Photographs on lines. The row is the photograph's record; its bytes live in the blob store (src/blobs), the original
 * kept byte-exact under its SHA-256 and derivatives made from it. `width`/`height` are the upright original's (EXIF
 * orientation applied); `rotation` is the studio's own quarter turns on top (0, 90, 180, 270, clockwise), which
 * changes the derivatives, never the original. Removal sets removed_at: minted client documents and the audit feed keep
 * naming the photograph. Among a line's photographs not removed, `position` is the 1-based display order and at most
 * one has `is_cover` (none: the first is the cover). Portable SQL.
 */
export const name = 'line_photographs';
export const statements = [
  `CREATE TABLE line_photographs (
    id TEXT PRIMARY KEY,
    studio_id TEXT NOT NULL REFERENCES studios(id),
    project_id TEXT NOT NULL REFERENCES projects(id),
    line_id TEXT NOT NULL REFERENCES lines(id),
    position INTEGER NOT NULL,
    is_cover INTEGER NOT NULL DEFAULT 0,
    original_sha256 TEXT NOT NULL,
    media_type TEXT NOT NULL,
    filename TEXT NOT NULL,
    byte_size INTEGER NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    rotation INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    removed_at TEXT
  )`,
  `CREATE INDEX line_photographs_by_line ON line_photographs (line_id, position)`,
  `CREATE INDEX line_photographs_by_project ON line_photographs (project_id)`,
];
