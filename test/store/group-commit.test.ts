/**
 * The store's write groups and snapshots, on each dialect: writes queued together share one transaction, each in its
 * own savepoint, and a write that fails (a thrown error, a failed statement, or a statement it sent without waiting
 * through `later`) leaves nothing while the others in its group land. On PostgreSQL the writer connection pipelines
 * (a savepoint, its release and `later` statements share round trips), so these are the guarantees it must keep.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/open.js';
import type { Store } from '../../db/store.js';
import { freshDatabase, storeOptionsFor, type TestDatabase } from '../helpers/test-database.js';

let database: TestDatabase;
let store: Store;

beforeAll(async () => {
  database = await freshDatabase();
  store = await openDatabase(storeOptionsFor(database.locator));
  await sql`CREATE TABLE probe (id TEXT PRIMARY KEY, note TEXT NOT NULL)`.execute(store.db);
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

/** A `later` check: the statement must have affected exactly one row. */
const exactlyOne = (n: number) => {
  if (n !== 1) throw new Error(`expected one row, got ${n}`);
};

const insert = (db: Store['db'], id: string, note = 'x') =>
  sql`INSERT INTO probe (id, note) VALUES (${id}, ${note})`.compile(db);

async function ids(): Promise<string[]> {
  const r = await sql<{ id: string }>`SELECT id FROM probe ORDER BY id`.execute(store.readDb);
  return r.rows.map((row) => row.id);
}

describe('write groups', () => {
  it('writes queued together commit together; a write that throws after writing leaves nothing, the rest land', async () => {
    const settled = await Promise.allSettled([
      store.write(async (tx) => {
        await tx.executeQuery(insert(tx, 'a1'));
        return 'a1';
      }),
      store.write(async (tx) => {
        await tx.executeQuery(insert(tx, 'a2'));
        throw new Error('the handler refused');
      }),
      store.write(async (tx, queryRow) => {
        await tx.executeQuery(insert(tx, 'a3'));
        // Earlier writes of the same group are visible to later ones; the refused one's row is not.
        return [
          await queryRow('SELECT id FROM probe WHERE id = ?', 'a1'),
          await queryRow('SELECT id FROM probe WHERE id = ?', 'a2'),
        ];
      }),
    ]);
    expect(settled[0]).toEqual({ status: 'fulfilled', value: 'a1' });
    expect(settled[1]).toMatchObject({ status: 'rejected', reason: { message: 'the handler refused' } });
    expect(settled[2]).toEqual({ status: 'fulfilled', value: [{ id: 'a1' }, undefined] });
    expect(await ids()).toEqual(['a1', 'a3']);
  });

  it('a write whose awaited statement fails rolls back alone', async () => {
    const settled = await Promise.allSettled([
      store.write(async (tx) => {
        await tx.executeQuery(insert(tx, 'b1'));
      }),
      store.write(async (tx) => {
        await tx.executeQuery(insert(tx, 'b2'));
        await tx.executeQuery(insert(tx, 'a1')); // already there: a primary-key violation
      }),
      store.write(async (tx) => {
        await tx.executeQuery(insert(tx, 'b3'));
      }),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await ids()).toEqual(['a1', 'a3', 'b1', 'b3']);
  });

  it('a statement sent through `later` that fails fails its own write (its cause, not an echo) and nothing else', async () => {
    const settled = await Promise.allSettled([
      store.write(async (tx, _q, _m, later) => {
        later(insert(tx, 'c1'));
        return 'c1';
      }),
      store.write(async (tx, queryRow, _m, later) => {
        await tx.executeQuery(insert(tx, 'c2'));
        later(insert(tx, 'a3')); // a primary-key violation, found only when the group checks it
        later(insert(tx, 'c2b'));
        // A read after it: on PostgreSQL it fails as the aborted transaction's echo, which must not be the reported cause.
        return queryRow('SELECT id FROM probe WHERE id = ?', 'c1').catch(() => 'echo');
      }),
      store.write(async (tx, queryRow, _m, later) => {
        later(insert(tx, 'c3'));
        // What a write sends through `later` is seen by its own next statements.
        return queryRow('SELECT id FROM probe WHERE id = ?', 'c3');
      }),
    ]);
    expect(settled[0]).toEqual({ status: 'fulfilled', value: 'c1' });
    expect(settled[1]!.status).toBe('rejected');
    const cause = (settled[1] as PromiseRejectedResult).reason as Error;
    expect(cause.message).toMatch(/unique|duplicate/i);
    expect(settled[2]).toEqual({ status: 'fulfilled', value: { id: 'c3' } });
    expect(await ids()).toEqual(['a1', 'a3', 'b1', 'b3', 'c1', 'c3']);
  });

  it("a `later` check that refuses the rows a statement affected fails its write alone, with the check's error", async () => {
    const settled = await Promise.allSettled([
      store.write(async (tx, _q, _m, later) => {
        later(sql`UPDATE probe SET note = ${'kept'} WHERE id = ${'a1'}`.compile(tx), exactlyOne);
      }),
      store.write(async (tx, _q, _m, later) => {
        await tx.executeQuery(insert(tx, 'e1'));
        later(sql`UPDATE probe SET note = ${'lost'} WHERE id = ${'nobody'}`.compile(tx), exactlyOne);
      }),
    ]);
    expect(settled[0]!.status).toBe('fulfilled');
    expect(settled[1]).toMatchObject({ status: 'rejected', reason: { message: 'expected one row, got 0' } });
    const notes = await sql<{ note: string }>`SELECT note FROM probe WHERE id IN ('a1', 'e1')`.execute(store.readDb);
    expect(notes.rows).toEqual([{ note: 'kept' }]);
  });

  it('a repeatable write begun on a write that then fails is undone with it and runs again, once, on what stands', async () => {
    const runs: string[] = [];
    const settled = await Promise.allSettled([
      store.write(
        async (tx, _q, memo, later) => {
          runs.push('f1');
          memo.set('seen', 'f1');
          later(insert(tx, 'f1'));
          later(insert(tx, 'a1')); // a primary-key violation, found when the next write's first read comes back
        },
        { repeatable: true },
      ),
      store.write(
        async (tx, queryRow, memo, later) => {
          runs.push('f2');
          // Its first run sees f1's row and memo; the run that counts sees neither.
          const f1 = await queryRow('SELECT id FROM probe WHERE id = ?', 'f1').catch(() => 'echo');
          later(insert(tx, 'f2'));
          return { f1: f1 ?? null, memo: memo.get('seen') ?? null };
        },
        { repeatable: true },
      ),
      store.write(
        async (tx, _q, _m, later) => {
          runs.push('f3');
          later(insert(tx, 'f3'));
          return 'f3';
        },
        { repeatable: true },
      ),
    ]);
    expect(settled[0]).toMatchObject({
      status: 'rejected',
      reason: { message: expect.stringMatching(/unique|duplicate/i) },
    });
    expect(settled[1]).toEqual({ status: 'fulfilled', value: { f1: null, memo: null } });
    expect(settled[2]).toEqual({ status: 'fulfilled', value: 'f3' });
    expect(runs).toEqual(['f1', 'f2', 'f2', 'f3']);
    expect((await ids()).filter((id) => id.startsWith('f'))).toEqual(['f2', 'f3']);
  });

  it('a write that is not repeatable waits for the check of the one before it, and runs once', async () => {
    const runs: string[] = [];
    const settled = await Promise.allSettled([
      store.write(
        async (tx, _q, _m, later) => {
          runs.push('g1');
          later(sql`UPDATE probe SET note = ${'lost'} WHERE id = ${'nobody'}`.compile(tx), exactlyOne);
        },
        { repeatable: true },
      ),
      store.write(async (tx) => {
        runs.push('g2');
        await tx.executeQuery(insert(tx, 'g2'));
        return 'g2';
      }),
    ]);
    expect(settled[0]).toMatchObject({ status: 'rejected', reason: { message: 'expected one row, got 0' } });
    expect(settled[1]).toEqual({ status: 'fulfilled', value: 'g2' });
    expect(runs).toEqual(['g1', 'g2']);
    expect((await ids()).filter((id) => id.startsWith('g'))).toEqual(['g2']);
  });

  it('many writes at once all land, each exactly once', async () => {
    const n = 150;
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        store.write(async (tx, _q, _m, later) => {
          later(insert(tx, `d${String(i).padStart(3, '0')}`));
          return i;
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: n }, (_, i) => i));
    expect((await ids()).filter((id) => id.startsWith('d'))).toHaveLength(n);
  });

  it('many writes at once, every third failing in its own way: each answers for itself, and only its rows are gone', async () => {
    // On PostgreSQL a turn's statements leave as one batch with one Sync: failures land mid-batch, before and after
    // other writes' savepoints and reads, and each must still be answered alone (and the writes after it run again).
    const n = 90;
    const failure = (i: number) => (i % 3 === 1 ? 'duplicate' : i % 3 === 2 && i % 2 === 0 ? 'thrown' : undefined);
    const settled = await Promise.allSettled(
      Array.from({ length: n }, (_, i) =>
        store.write(
          async (tx, queryRow, _m, later) => {
            const id = `m${String(i).padStart(3, '0')}`;
            later(insert(tx, id));
            // A read in the middle, as a handler's would be: it sees the write's own row.
            const seen = await queryRow<{ id: string }>('SELECT id FROM probe WHERE id = ?', id);
            if (failure(i) === 'duplicate') later(insert(tx, 'a1')); // a primary-key violation
            if (failure(i) === 'thrown') throw new Error(`write ${i} refused`);
            later(sql`UPDATE probe SET note = ${`n${i}`} WHERE id = ${id}`.compile(tx), exactlyOne);
            return seen?.id;
          },
          { repeatable: true },
        ),
      ),
    );
    settled.forEach((o, i) => {
      const id = `m${String(i).padStart(3, '0')}`;
      if (failure(i) === 'duplicate')
        expect(o).toMatchObject({
          status: 'rejected',
          reason: { message: expect.stringMatching(/unique|duplicate/i) },
        });
      else if (failure(i) === 'thrown')
        expect(o).toMatchObject({ status: 'rejected', reason: { message: `write ${i} refused` } });
      else expect(o).toEqual({ status: 'fulfilled', value: id });
    });
    const kept = await sql<{
      id: string;
      note: string;
    }>`SELECT id, note FROM probe WHERE id LIKE ${'m%'} ORDER BY id`.execute(store.readDb);
    const expected = Array.from({ length: n }, (_, i) => i)
      .filter((i) => !failure(i))
      .map((i) => ({ id: `m${String(i).padStart(3, '0')}`, note: `n${i}` }));
    expect(kept.rows).toEqual(expected);
  });
});

describe('snapshots', () => {
  it('a read that fails leaves its connection fit for the next read', async () => {
    for (let i = 0; i < 12; i++) {
      await expect(
        store.readSnapshot((_db, queryRow) => queryRow('SELECT id FROM no_such_table WHERE id = ?', 'x')),
      ).rejects.toThrow();
    }
    const reads = await Promise.all(
      Array.from({ length: 12 }, () =>
        store.readSnapshot(async (db, queryRow) => [
          await queryRow<{ id: string }>('SELECT id FROM probe WHERE id = ?', 'a1'),
          (await sql<{ n: number }>`SELECT count(*) AS n FROM probe`.execute(db)).rows[0]!.n,
        ]),
      ),
    );
    for (const r of reads) expect(r).toEqual([{ id: 'a1' }, (await ids()).length]);
  });
});
