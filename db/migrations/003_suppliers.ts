/**
 * Suppliers become full reference records: versioned, with contact details, searchable by name. Existing suppliers
 * keep their ids; they start at version 1 with updated_at = created_at.
 */
export const name = 'suppliers';
export const statements = [
  `ALTER TABLE suppliers ADD COLUMN email TEXT`,
  `ALTER TABLE suppliers ADD COLUMN phone TEXT`,
  `ALTER TABLE suppliers ADD COLUMN website TEXT`,
  `ALTER TABLE suppliers ADD COLUMN account_reference TEXT`,
  `ALTER TABLE suppliers ADD COLUMN notes TEXT NOT NULL DEFAULT ''`,
  `ALTER TABLE suppliers ADD COLUMN updated_at TEXT NOT NULL DEFAULT ''`,
  `ALTER TABLE suppliers ADD COLUMN version INTEGER NOT NULL DEFAULT 1`,
  `UPDATE suppliers SET updated_at = created_at`,
  `CREATE INDEX suppliers_by_studio_name ON suppliers (studio_id, name)`,
  `CREATE INDEX lines_by_supplier ON lines (supplier_id)`,
];
