/**
 * Interface state: what each member keeps of how the studio's screens look to them, per membership (a person in two
 * studios has two sets). `member_interface_state` holds the sidebar (JSON; NULL while it is the default) and when the
 * first-run flow was completed; its version moves with the sidebar only. `saved_views` are a member's named filters,
 * sort and columns of one table, deleted outright when the member deletes them (they are preferences, not records of
 * work). `interface_layouts` keeps one layout per member, kind (`table` or `inspector`), subject (the table or the kind
 * of record the inspector shows) and project (NULL: the same everywhere), as JSON.
 *
 * The first-run time was kept per person (`user_state`); it moves to every membership of that person, and the old
 * table goes. Ids are drawn in SQL (randomIdSql), each dialect with its own random(). PostgreSQL parenthesises the
 * expression in the layouts' unique index.
 */
import type { Dialect } from '../store.js';
import { randomIdSql } from './random-id-sql.js';

export const name = 'interface_state';

const build = (dialect: Dialect) => [
  `CREATE TABLE member_interface_state (
    id TEXT PRIMARY KEY,
    member_id TEXT NOT NULL UNIQUE REFERENCES members(id),
    sidebar TEXT,
    first_run_completed_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  )`,
  `INSERT INTO member_interface_state (id, member_id, sidebar, first_run_completed_at, created_at, updated_at, version)
     SELECT ${randomIdSql(dialect)}, m.id, NULL, u.first_run_completed_at, u.first_run_completed_at,
       u.first_run_completed_at, 1
     FROM user_state u JOIN members m ON m.user_id = u.user_id
     WHERE u.first_run_completed_at IS NOT NULL`,
  `DROP TABLE user_state`,
  `CREATE TABLE saved_views (
    id TEXT PRIMARY KEY,
    member_id TEXT NOT NULL REFERENCES members(id),
    table_name TEXT NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    filters TEXT NOT NULL,
    sort TEXT,
    columns TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  )`,
  `CREATE UNIQUE INDEX saved_views_by_name ON saved_views (member_id, table_name, name_key)`,
  `CREATE TABLE interface_layouts (
    id TEXT PRIMARY KEY,
    member_id TEXT NOT NULL REFERENCES members(id),
    layout_kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    project_id TEXT REFERENCES projects(id),
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  )`,
  dialect === 'postgres'
    ? `CREATE UNIQUE INDEX interface_layouts_one ON interface_layouts
         (member_id, layout_kind, subject, (COALESCE(project_id, '')))`
    : `CREATE UNIQUE INDEX interface_layouts_one ON interface_layouts
         (member_id, layout_kind, subject, COALESCE(project_id, ''))`,
];

export const statements = build('sqlite');
export const postgres = build('postgres');
