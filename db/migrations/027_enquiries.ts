/**
 * Supplier enquiries: a request to one or more suppliers for prices and lead times on some of a project's lines (or on
 * free-text items), its email to each supplier (the outbox a worker sends from), and the responses recorded against
 * it, appended, never edited. The items and a response's lines are kept as JSON on their record: they are written
 * once, read whole, and never queried apart. Portable SQL.
 */
export const name = 'enquiries';
export const statements = [
  `CREATE TABLE enquiries (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    title TEXT NOT NULL,
    message TEXT NOT NULL,
    reply_by TEXT NOT NULL,
    state TEXT NOT NULL,
    items TEXT NOT NULL,
    sent_at TEXT,
    closed_at TEXT,
    close_reason TEXT,
    created_by TEXT NOT NULL REFERENCES members(id),
    version INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX enquiries_by_project ON enquiries (project_id, created_at)`,
  `CREATE TABLE enquiry_recipients (
    enquiry_id TEXT NOT NULL REFERENCES enquiries(id),
    supplier_id TEXT NOT NULL REFERENCES suppliers(id),
    project_id TEXT NOT NULL REFERENCES projects(id),
    position INTEGER NOT NULL,
    email TEXT,
    mail_status TEXT NOT NULL,
    mail_error TEXT,
    message_id TEXT,
    sent_at TEXT,
    PRIMARY KEY (enquiry_id, supplier_id)
  )`,
  `CREATE INDEX enquiry_recipients_by_supplier ON enquiry_recipients (supplier_id)`,
  `CREATE TABLE enquiry_responses (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    enquiry_id TEXT NOT NULL REFERENCES enquiries(id),
    supplier_id TEXT NOT NULL REFERENCES suppliers(id),
    lines TEXT NOT NULL,
    note TEXT NOT NULL,
    recorded_by TEXT NOT NULL REFERENCES members(id),
    applied_at TEXT,
    applied_by TEXT REFERENCES members(id),
    version INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX enquiry_responses_by_enquiry ON enquiry_responses (enquiry_id, created_at)`,
];
