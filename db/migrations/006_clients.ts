/**
 * Clients become studio-level records that projects refer to. Until now a project carried its client only as the text
 * `client_name`; every distinct non-blank client name of a studio (trimmed, compared exactly) becomes a client at
 * version 1, created when the first of its projects was, and those projects are linked to it. `client_name` stays: it
 * is the name the project last recorded (a plain label on projects linked to no client).
 *
 * The ids are drawn in SQL (randomIdSql), each dialect with its own random().
 */
import type { Dialect } from '../store.js';
import { randomIdSql } from './random-id-sql.js';

export const name = 'clients';

const build = (dialect: Dialect) => [
  `CREATE TABLE clients (
    id TEXT PRIMARY KEY,
    studio_id TEXT NOT NULL REFERENCES studios(id),
    name TEXT NOT NULL,
    email TEXT,
    phone TEXT,
    billing_address TEXT,
    notes TEXT NOT NULL DEFAULT '',
    archived_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1
  )`,
  `CREATE INDEX clients_by_studio_name ON clients (studio_id, name)`,
  `ALTER TABLE projects ADD COLUMN client_id TEXT REFERENCES clients(id)`,
  `CREATE INDEX projects_by_client ON projects (client_id)`,
  `INSERT INTO clients (id, studio_id, name, created_at, updated_at)
     SELECT ${randomIdSql(dialect)}, studio_id, trim(client_name), min(created_at), min(created_at)
     FROM projects
     WHERE client_name IS NOT NULL AND trim(client_name) <> ''
     GROUP BY studio_id, trim(client_name)`,
  `UPDATE projects SET client_id = (
     SELECT c.id FROM clients c WHERE c.studio_id = projects.studio_id AND c.name = trim(projects.client_name)
   )
   WHERE client_name IS NOT NULL AND trim(client_name) <> ''`,
];

export const statements = build('sqlite');
export const postgres = build('postgres');
