/**
 * Units become full reference records: versioned, with created and updated times, listed and searched by name.
 * Existing units keep their ids and start at version 1; having had no times of their own, they take their studio's
 * creation time (they were made with it, by onboarding). Lines count their units through an index of their own.
 */
export const name = 'units';
export const statements = [
  `ALTER TABLE units ADD COLUMN created_at TEXT NOT NULL DEFAULT ''`,
  `ALTER TABLE units ADD COLUMN updated_at TEXT NOT NULL DEFAULT ''`,
  `ALTER TABLE units ADD COLUMN version INTEGER NOT NULL DEFAULT 1`,
  `UPDATE units SET
     created_at = (SELECT s.created_at FROM studios s WHERE s.id = units.studio_id),
     updated_at = (SELECT s.created_at FROM studios s WHERE s.id = units.studio_id)`,
  `CREATE INDEX units_by_studio_name ON units (studio_id, name)`,
  `CREATE INDEX lines_by_unit ON lines (unit_id)`,
];
