/**
 * Libraries: a studio's named collections of products it specifies again and again ("Lighting we trust"). A product
 * carries a line's descriptive fields and its trade and retail prices (amounts in the product's own currency), and
 * remembers the line it was captured from, if any. Both are versioned reference records, archived, never deleted.
 */
export const name = 'libraries';
export const statements = [
  `CREATE TABLE libraries (
    id TEXT PRIMARY KEY,
    studio_id TEXT NOT NULL REFERENCES studios(id),
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    archived_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  )`,
  `CREATE INDEX libraries_by_studio_name ON libraries (studio_id, name)`,
  `CREATE TABLE library_products (
    id TEXT PRIMARY KEY,
    studio_id TEXT NOT NULL REFERENCES studios(id),
    library_id TEXT NOT NULL REFERENCES libraries(id),
    heading TEXT NOT NULL,
    description TEXT NOT NULL,
    supplier_id TEXT REFERENCES suppliers(id),
    brand TEXT,
    product_code TEXT,
    url TEXT,
    finish TEXT,
    dimensions TEXT,
    lead_time_days INTEGER,
    currency TEXT NOT NULL,
    trade_state TEXT NOT NULL,
    trade4 TEXT,
    retail_state TEXT NOT NULL,
    retail4 TEXT,
    source_project_id TEXT,
    source_line_id TEXT,
    archived_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  )`,
  `CREATE INDEX library_products_by_library ON library_products (library_id, heading)`,
  `CREATE INDEX library_products_by_studio ON library_products (studio_id, heading)`,
];
