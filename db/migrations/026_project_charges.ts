/**
 * Project charges: what the studio bills besides goods (design fees, time, reimbursables, disbursements, freight).
 * Each keeps the figures its type takes (a fixed amount; hours and an hourly rate; a cost and an optional handling
 * markup), its tax rate and the currency of its project when it was made; net, tax and gross are worked out from
 * them on every read, never stored. `invoiced_at` and `invoice_reference` stay null until the accounting push sets
 * them; from then on the charge never changes. Portable SQL.
 */
export const name = 'project_charges';
export const statements = [
  `CREATE TABLE project_charges (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    type TEXT NOT NULL,
    description TEXT NOT NULL,
    charge_date TEXT NOT NULL,
    currency TEXT NOT NULL,
    amount4 TEXT,
    hours4 TEXT,
    hourly_rate4 TEXT,
    cost4 TEXT,
    handling_markup4 TEXT,
    tax_rate4 TEXT NOT NULL,
    invoiced_at TEXT,
    invoice_reference TEXT,
    archived_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1
  )`,
  `CREATE INDEX project_charges_by_project_date ON project_charges (project_id, charge_date)`,
];
