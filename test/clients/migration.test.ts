/**
 * Migrations 005 (units) and 006 (clients) over a database made before them: existing units become versioned records
 * with their studio's times, and every distinct client name of a studio's projects becomes a client the projects link to.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations } from '../../db/migration-files.js';
import { migrate } from '../../db/sqlite.js';
import { ID_PATTERN } from '../../src/core/ids.js';

const dir = mkdtempSync(join(tmpdir(), 'studio-migration-'));
let db: Database.Database;

beforeAll(async () => {
  db = new Database(join(dir, 'old.sqlite'));
  db.pragma('foreign_keys = ON');
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  for (const m of await loadMigrations(4)) {
    for (const s of m.statements) db.exec(s);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, '2026-01-01T00:00:00.000Z');
  }
  const studio = db.prepare(
    `INSERT INTO studios (id, name, currency, default_markup4, default_unit_id, code_prefix, created_at, updated_at, version)
     VALUES (?, ?, 'GBP', '3500', NULL, 'FF', ?, ?, 1)`,
  );
  studio.run('s1', 'One', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z');
  studio.run('s2', 'Two', '2025-06-01T00:00:00.000Z', '2025-06-01T00:00:00.000Z');
  db.prepare(`INSERT INTO units (id, studio_id, name, symbol, archived_at) VALUES (?, ?, ?, ?, ?)`).run(
    'u1',
    's1',
    'each',
    'ea',
    null,
  );
  db.prepare(`INSERT INTO units (id, studio_id, name, symbol, archived_at) VALUES (?, ?, ?, ?, ?)`).run(
    'u2',
    's2',
    'roll',
    'roll',
    '2025-07-01T00:00:00.000Z',
  );
  const project = db.prepare(
    `INSERT INTO projects (id, studio_id, name, reference, client_name, currency, default_markup4, status, archived_at,
       created_by, created_at, updated_at, version)
     VALUES (?, ?, ?, NULL, ?, 'GBP', NULL, 'active', NULL, 'm', ?, ?, 3)`,
  );
  project.run(
    'p1',
    's1',
    'Harbour House',
    'The Marsden family',
    '2026-02-01T00:00:00.000Z',
    '2026-02-02T00:00:00.000Z',
  );
  project.run('p2', 's1', 'Boathouse', ' The Marsden family ', '2026-01-15T00:00:00.000Z', '2026-01-16T00:00:00.000Z');
  project.run('p3', 's1', 'Mill Cottage', 'Ms Ede', '2026-03-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z');
  project.run('p4', 's1', 'No client', null, '2026-03-02T00:00:00.000Z', '2026-03-02T00:00:00.000Z');
  project.run('p5', 's1', 'Blank client', '   ', '2026-03-03T00:00:00.000Z', '2026-03-03T00:00:00.000Z');
  project.run('p6', 's2', 'Elsewhere', 'The Marsden family', '2025-08-01T00:00:00.000Z', '2025-08-01T00:00:00.000Z');
});
afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('migrating a database made before units and clients were records', () => {
  it('applies 005 and 006, once', async () => {
    expect(await migrate(db)).toEqual(expect.arrayContaining([5, 6]));
    expect(await migrate(db)).toEqual([]);
  });

  it('gives existing units version 1 and their studio’s creation time, archived ones included', () => {
    expect(db.prepare('SELECT id, created_at, updated_at, version, archived_at FROM units ORDER BY id').all()).toEqual([
      {
        id: 'u1',
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
        version: 1,
        archived_at: null,
      },
      {
        id: 'u2',
        created_at: '2025-06-01T00:00:00.000Z',
        updated_at: '2025-06-01T00:00:00.000Z',
        version: 1,
        archived_at: '2025-07-01T00:00:00.000Z',
      },
    ]);
  });

  it('makes one client per distinct non-blank client name per studio, created with its first project', () => {
    const clients = db
      .prepare(
        'SELECT id, studio_id, name, notes, version, created_at, archived_at FROM clients ORDER BY studio_id, name',
      )
      .all() as Array<{ id: string; studio_id: string; name: string; created_at: string }>;
    expect(clients.map((c) => [c.studio_id, c.name, c.created_at])).toEqual([
      ['s1', 'Ms Ede', '2026-03-01T00:00:00.000Z'],
      ['s1', 'The Marsden family', '2026-01-15T00:00:00.000Z'],
      ['s2', 'The Marsden family', '2025-08-01T00:00:00.000Z'],
    ]);
    expect(clients).toEqual(
      clients.map((c) => expect.objectContaining({ ...c, notes: '', version: 1, archived_at: null })),
    );
    for (const c of clients) expect(c.id).toMatch(ID_PATTERN);
    expect(new Set(clients.map((c) => c.id)).size).toBe(3);
  });

  it('links each project to its studio’s client, leaving the rest, their names and versions as they were', () => {
    const clientOf = (studio: string, name: string) =>
      (db.prepare('SELECT id FROM clients WHERE studio_id = ? AND name = ?').get(studio, name) as { id: string }).id;
    const rows = db.prepare('SELECT id, client_id, client_name, version FROM projects ORDER BY id').all();
    expect(rows).toEqual([
      { id: 'p1', client_id: clientOf('s1', 'The Marsden family'), client_name: 'The Marsden family', version: 3 },
      { id: 'p2', client_id: clientOf('s1', 'The Marsden family'), client_name: ' The Marsden family ', version: 3 },
      { id: 'p3', client_id: clientOf('s1', 'Ms Ede'), client_name: 'Ms Ede', version: 3 },
      { id: 'p4', client_id: null, client_name: null, version: 3 },
      { id: 'p5', client_id: null, client_name: '   ', version: 3 },
      { id: 'p6', client_id: clientOf('s2', 'The Marsden family'), client_name: 'The Marsden family', version: 3 },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });
});
