/**
 * Operations: acts that take long (an import's commit, a paste, a document render, a delivery, a package) are recorded
 * here in the transaction that accepts them and run by workers (src/jobs). A worker claims a row by setting
 * `claimed_by` and a lease (`lease_until`), renewed while it works; a lease that runs out (the process died) lets
 * another worker take the operation up again, up to a few attempts. The operation's effects and its `succeeded` commit
 * in one transaction that first checks the claim is still the worker's, so nothing is applied twice. Portable SQL.
 */
export const name = 'operations';
export const statements = [
  `CREATE TABLE operations (
    id TEXT PRIMARY KEY,
    studio_id TEXT NOT NULL REFERENCES studios(id),
    project_id TEXT REFERENCES projects(id),
    kind TEXT NOT NULL,
    action TEXT NOT NULL,
    scope TEXT NOT NULL,
    status TEXT NOT NULL,
    progress_completed INTEGER NOT NULL DEFAULT 0,
    progress_total INTEGER NOT NULL DEFAULT 0,
    input TEXT NOT NULL,
    result TEXT,
    problem TEXT,
    requested_by TEXT NOT NULL REFERENCES members(id),
    requested_via TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    claimed_by TEXT,
    lease_until TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX operations_waiting ON operations (status, created_at)`,
  `CREATE INDEX operations_by_studio ON operations (studio_id, created_at)`,
];
