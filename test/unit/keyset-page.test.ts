import Database from 'better-sqlite3';
import fc from 'fast-check';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/core/errors.js';
import { encodeCursor } from '../../src/domain/kit/cursor.js';
import { keysetPage, namedSorts, sortNames, type KeysetSort } from '../../src/domain/kit/keyset-page.js';

interface Schema {
  t: { id: string; code: string | null; n: number };
}

const handle = new Database(':memory:');
handle.exec('CREATE TABLE t (id TEXT PRIMARY KEY, code TEXT, n INTEGER NOT NULL)');
const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: handle }) });
afterAll(() => db.destroy());

const BY_FIELD = namedSorts({ code: { column: 't.code', nullAs: '' }, n: { column: 't.n' } }, { column: 't.id' });
const MIXED: KeysetSort = {
  name: 'mixed',
  columns: [{ column: 'n', desc: true }, { column: 'code', nullAs: '' }, { column: 'id' }],
};

async function readAll(sort: KeysetSort, limit: number) {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await keysetPage(db.selectFrom('t').selectAll(), sort, { cursor, limit });
    ids.push(...page.rows.map((r) => r.id));
    cursor = page.nextCursor ?? undefined;
    if (ids.length > 1000) throw new Error('The pages never end: a cursor does not move past its page.');
  } while (cursor);
  return ids;
}

const rows = fc.uniqueArray(
  fc.record({
    id: fc.stringMatching(/^[a-z0-9]{1,4}$/),
    code: fc.option(fc.constantFrom('', 'A', 'B', 'b', 'FF-001'), { nil: null }),
    n: fc.integer({ min: -3, max: 3 }),
  }),
  { selector: (r) => r.id, maxLength: 40 },
);

describe('keysetPage', () => {
  it('names sorts ascending and descending in order', () => {
    expect(sortNames(BY_FIELD)).toEqual(['code', '-code', 'n', '-n']);
    expect(BY_FIELD['-code'].columns.map((c) => c.desc)).toEqual([true, true]);
  });

  it('pages through every row exactly once, in the order of one unbounded read, whatever the page size', async () => {
    await fc.assert(
      fc.asyncProperty(rows, fc.integer({ min: 1, max: 7 }), async (data, limit) => {
        await db.deleteFrom('t').execute();
        if (data.length) await db.insertInto('t').values(data).execute();
        for (const sort of [...Object.values(BY_FIELD), MIXED]) {
          const whole = await keysetPage(db.selectFrom('t').selectAll(), sort, { limit: 1000 });
          expect(await readAll(sort, limit)).toEqual(whole.rows.map((r) => r.id));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a cursor from another sort, an altered one and one of the wrong length with VALIDATION_FAILED', async () => {
    const qb = db.selectFrom('t').selectAll();
    for (const cursor of [encodeCursor('-code', ['A', 'x']), 'bm90IGpzb24', encodeCursor('code', ['A'])]) {
      const err = await keysetPage(qb, BY_FIELD.code, { cursor }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServiceError);
      expect((err as ServiceError).code).toBe('VALIDATION_FAILED');
    }
  });
});
