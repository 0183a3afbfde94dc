/**
 * Purchase orders: what the studio buys from one supplier for a project. The draft (purchase_orders,
 * purchase_order_lines) is edited and versioned; removed lines are archived, never deleted. Issuing freezes it into a
 * numbered revision (purchase_order_revisions: canonical JSON content, SHA-256 digest, trade totals), never changed
 * afterwards but for its state. Each delivery is appended (purchase_order_deliveries) with what each line received.
 * Money is scale-4 integer text. Portable SQL.
 */
export const name = 'purchase_orders';
export const statements = [
  `CREATE TABLE purchase_orders (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    number INTEGER NOT NULL,
    supplier_id TEXT NOT NULL REFERENCES suppliers(id),
    state TEXT NOT NULL,
    currency TEXT NOT NULL,
    delivery_address TEXT NOT NULL DEFAULT '',
    wanted_by TEXT,
    supplier_reference TEXT,
    notes TEXT NOT NULL DEFAULT '',
    current_revision_id TEXT,
    revision_count INTEGER NOT NULL DEFAULT 0,
    cancel_reason TEXT,
    shortfall_note TEXT,
    cancelled_at TEXT,
    created_by TEXT NOT NULL REFERENCES members(id),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL,
    UNIQUE (project_id, number)
  )`,
  `CREATE INDEX purchase_orders_by_project ON purchase_orders (project_id, number)`,
  `CREATE TABLE purchase_order_lines (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    purchase_order_id TEXT NOT NULL REFERENCES purchase_orders(id),
    line_id TEXT NOT NULL REFERENCES lines(id),
    position INTEGER NOT NULL,
    reference TEXT,
    product_code TEXT,
    description TEXT NOT NULL,
    quantity4 TEXT NOT NULL,
    unit_name TEXT,
    currency TEXT NOT NULL,
    trade4 TEXT NOT NULL,
    tax_rate4 TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL,
    archived_at TEXT
  )`,
  `CREATE INDEX purchase_order_lines_by_order ON purchase_order_lines (purchase_order_id, position)`,
  `CREATE INDEX purchase_order_lines_by_line ON purchase_order_lines (line_id)`,
  `CREATE TABLE purchase_order_revisions (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    purchase_order_id TEXT NOT NULL REFERENCES purchase_orders(id),
    number INTEGER NOT NULL,
    state TEXT NOT NULL,
    issued_at TEXT NOT NULL,
    issued_by TEXT NOT NULL REFERENCES members(id),
    valid_until TEXT,
    content TEXT NOT NULL,
    digest TEXT NOT NULL,
    currency TEXT NOT NULL,
    net4 TEXT NOT NULL,
    tax4 TEXT NOT NULL,
    gross4 TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL,
    UNIQUE (purchase_order_id, number)
  )`,
  `CREATE TABLE purchase_order_deliveries (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    purchase_order_id TEXT NOT NULL REFERENCES purchase_orders(id),
    revision_id TEXT NOT NULL REFERENCES purchase_order_revisions(id),
    received_on TEXT NOT NULL,
    received TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    recorded_by TEXT NOT NULL REFERENCES members(id),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  )`,
  `CREATE INDEX purchase_order_deliveries_by_order ON purchase_order_deliveries (purchase_order_id, created_at)`,
];
