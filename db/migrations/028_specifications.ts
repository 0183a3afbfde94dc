/**
 * Specifications: a studio's library of product specification sheets, reused across projects. Dimensions are
 * scale-4 integer strings with their unit (never floating point); materials, finishes, colours, links and the
 * client-visible field names are JSON lists. Versioned reference records, archived, never deleted.
 *
 * line_specifications attaches them to lines, many to many, in an order per line (1-based positions). A row is the
 * attachment itself: detaching deletes it (the line's version and audit feed keep the history), archiving the
 * specification leaves it in place. Portable SQL.
 */
export const name = 'specifications';
export const statements = [
  `CREATE TABLE specifications (
    id TEXT PRIMARY KEY,
    studio_id TEXT NOT NULL REFERENCES studios(id),
    name TEXT NOT NULL,
    category TEXT NOT NULL,
    manufacturer TEXT,
    model TEXT,
    sku TEXT,
    description TEXT NOT NULL,
    width4 TEXT,
    depth4 TEXT,
    height4 TEXT,
    length_unit TEXT,
    materials TEXT NOT NULL,
    finishes TEXT NOT NULL,
    colours TEXT NOT NULL,
    care_notes TEXT NOT NULL,
    installation_notes TEXT NOT NULL,
    lead_time_days INTEGER,
    links TEXT NOT NULL,
    client_fields TEXT NOT NULL,
    notes TEXT NOT NULL,
    archived_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  )`,
  `CREATE INDEX specifications_by_studio_name ON specifications (studio_id, name)`,
  `CREATE TABLE line_specifications (
    line_id TEXT NOT NULL REFERENCES lines(id),
    specification_id TEXT NOT NULL REFERENCES specifications(id),
    project_id TEXT NOT NULL REFERENCES projects(id),
    position INTEGER NOT NULL,
    attached_at TEXT NOT NULL,
    PRIMARY KEY (line_id, specification_id)
  )`,
  `CREATE INDEX line_specifications_by_specification ON line_specifications (specification_id)`,
  `CREATE INDEX line_specifications_by_project ON line_specifications (project_id)`,
];
