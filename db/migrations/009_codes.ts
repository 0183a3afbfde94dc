import type { Dialect } from '../store.js';
import { randomIdSql } from './random-id-sql.js';

/**
 * Code schemes: the studio's numbering schemes for line codes (FF furniture & fittings, LT lighting …). A scheme has a
 * prefix, a name and section-title keywords; exactly one active scheme per studio is the default (is_default = 1),
 * which new lines take unless their section's title names another scheme's keyword. Prefixes are unique among a
 * studio's active schemes; archived schemes keep theirs.
 *
 * Every existing studio gets its default scheme from studios.code_prefix, which from now on mirrors the default
 * scheme's prefix (src/domain/codes/schemes.ts keeps the two in step in the same transaction). Line codes are not
 * touched. The new ids are drawn in SQL (randomIdSql: 130 random bits), each dialect with its own random().
 */

export const name = 'codes';
const build = (dialect: Dialect) => [
  `CREATE TABLE code_schemes (
    id TEXT PRIMARY KEY,
    studio_id TEXT NOT NULL REFERENCES studios(id),
    prefix TEXT NOT NULL,
    name TEXT NOT NULL,
    keywords TEXT NOT NULL DEFAULT '[]',
    is_default INTEGER NOT NULL DEFAULT 0,
    archived_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1
  )`,
  `CREATE UNIQUE INDEX code_schemes_active_prefix ON code_schemes (studio_id, prefix) WHERE archived_at IS NULL`,
  `CREATE UNIQUE INDEX code_schemes_one_default ON code_schemes (studio_id) WHERE is_default = 1`,
  `INSERT INTO code_schemes (id, studio_id, prefix, name, keywords, is_default, archived_at, created_at, updated_at, version)
    SELECT ${randomIdSql(dialect)}, id, code_prefix,
      CASE code_prefix WHEN 'FF' THEN 'Furniture & fittings' ELSE 'Default' END,
      '[]', 1, NULL, created_at, created_at, 1
    FROM studios`,
];

export const statements = build('sqlite');
export const postgres = build('postgres');
