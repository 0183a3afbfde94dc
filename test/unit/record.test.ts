/**
 * A record declared once (src/domain/kit/record.ts): its columns, presenter, create and patch inputs and output all
 * come from the one field list, so a field added there reaches each of them.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { asJson, defineRecord, field, orNull, snake } from '../../src/domain/kit/record.js';

const flag = { toColumn: (v: boolean) => (v ? 1 : 0), fromColumn: (c: unknown) => c === 1 };
const THING = defineRecord({
  name: 'ScratchThing',
  description: 'A record for this test.',
  table: 'things',
  owner: 'project',
  archivable: true,
  fields: {
    title: field(z.string().min(1).max(40), { write: 'always', required: true }),
    accountReference: field(z.string().nullable(), { write: 'always' }),
    madeBy: field(z.string(), { write: 'create', column: 'author', default: 'nobody' }),
    pinned: field(z.boolean(), { write: 'always', codec: flag, default: false }),
    derived: field(z.string().nullable()),
  },
  computed: { lineCount: z.int().min(0) },
});

describe('defineRecord', () => {
  it('names columns in snake_case unless a field names its own', () => {
    expect(snake('accountReference')).toBe('account_reference');
    const row = THING.newRow({ title: 'Lamp' }, { id: 'a', ownerId: 'p', now: 'T' });
    expect(row).toEqual({
      id: 'a',
      project_id: 'p',
      title: 'Lamp',
      account_reference: null,
      author: 'nobody',
      pinned: 0,
      derived: null,
      version: 1,
      created_at: 'T',
      updated_at: 'T',
      archived_at: null,
    });
  });

  it('presents a row in API names and forms, computed figures in their place', () => {
    const row = { ...THING.newRow({ title: 'Lamp', pinned: true }, { id: 'a', ownerId: 'p', now: 'T' }), derived: 'x' };
    const shown = THING.present(row, { lineCount: 3 });
    expect(Object.keys(shown)).toEqual(Object.keys(THING.output.shape));
    expect(shown).toMatchObject({ title: 'Lamp', madeBy: 'nobody', pinned: true, derived: 'x', lineCount: 3 });
    expect(THING.output.parse(shown)).toEqual(shown);
  });

  it('takes on create the writable fields, the required one required; on update only what may change', () => {
    expect(Object.keys(THING.createInput.shape).sort()).toEqual(['accountReference', 'madeBy', 'pinned', 'title']);
    expect(THING.createInput.safeParse({}).success).toBe(false);
    expect(Object.keys(THING.patchInput.shape).sort()).toEqual(['accountReference', 'pinned', 'title']);
    expect(THING.patchInput.safeParse({ madeBy: 'x' }).success).toBe(false);
    expect(THING.patchColumns({ pinned: false, accountReference: null })).toEqual({
      pinned: 0,
      account_reference: null,
    });
  });

  it("shows its owner's id where a field says so, and takes the fields the server works out", () => {
    const PART = defineRecord({
      name: 'ScratchPart',
      description: 'A record that shows its project.',
      table: 'parts',
      owner: 'project',
      archivable: true,
      archivedMeans: 'Set when archived; lines that name it keep it.',
      fields: {
        projectId: field(z.string(), { owner: true }),
        label: field(z.string(), { write: 'always', required: true }),
        position: field(z.int().min(1)),
        note: field(z.string().nullable()),
      },
    });
    const row = PART.newRow({ label: 'A', position: 3 }, { id: 'a', ownerId: 'p', now: 'T' });
    expect(row).toMatchObject({ project_id: 'p', label: 'A', position: 3, note: null });
    expect(Object.keys(PART.present(row, {}))).toEqual(Object.keys(PART.output.shape));
    expect(PART.present(row, {})).toMatchObject({ id: 'a', projectId: 'p', position: 3 });
    expect(Object.keys(PART.output.shape).slice(0, 2)).toEqual(['id', 'projectId']);
    expect(PART.output.shape.archived_at.description).toBe('Set when archived; lines that name it keep it.');
    expect(Object.keys(PART.createInput.shape)).toEqual(['label']);
    expect(() =>
      defineRecord({
        name: 'ScratchWrongOwner',
        description: 'Its owner field names another column.',
        table: 'wrong',
        owner: 'studio',
        archivable: false,
        fields: { projectId: field(z.string(), { owner: true }) },
      }),
    ).toThrow(/studio_id/);
  });

  it('keeps a field in several columns (a name and its lower-cased key), and null as NULL through orNull', () => {
    const VIEW = defineRecord({
      name: 'ScratchView',
      description: 'A record with a name key and a nullable list.',
      table: 'views',
      owner: 'member',
      archivable: false,
      fields: {
        name: field(z.string(), {
          write: 'always',
          required: true,
          columns: {
            toColumns: (n: string) => ({ name: n, name_key: n.toLowerCase() }),
            fromRow: (row: { name: string }) => row.name,
          },
        }),
        columns: field(z.array(z.string()).nullable(), {
          write: 'always',
          default: null,
          codec: orNull(asJson<string[]>()),
        }),
      },
    });
    const row = VIEW.newRow({ name: 'Prices' }, { id: 'v', ownerId: 'm', now: 'T' });
    expect(row).toEqual({
      id: 'v',
      member_id: 'm',
      name: 'Prices',
      name_key: 'prices',
      columns: null,
      version: 1,
      created_at: 'T',
      updated_at: 'T',
    });
    expect(VIEW.patchColumns({ name: 'TBC', columns: ['code'] })).toEqual({
      name: 'TBC',
      name_key: 'tbc',
      columns: '["code"]',
    });
    expect(VIEW.patchColumns({ columns: null })).toEqual({ columns: null });
    expect(VIEW.present({ ...row, columns: '["a"]' }, {})).toMatchObject({ name: 'Prices', columns: ['a'] });
    expect(Object.keys(VIEW.output.shape)).not.toContain('archived_at');
  });
});

/** A record whose price is kept in two columns and answered with another field's currency, in a published order. */
const PRICED = defineRecord({
  name: 'ScratchPriced',
  description: 'A record for this test.',
  table: 'priced_things',
  owner: 'studio',
  archivable: false,
  fields: {
    currency: field(z.enum(['GBP', 'EUR']), { write: 'create', default: 'GBP' as const }),
    price: field(z.strictObject({ state: z.enum(['set', 'tbc']), amount4: z.string().nullable().optional() }), {
      write: 'always',
      default: { state: 'tbc' as const },
      output: z.strictObject({ state: z.string(), price: z.string().nullable() }).describe('As answered.'),
      columns: {
        toColumns: (p: { state: 'set' | 'tbc'; amount4?: string | null | undefined }) => ({
          price_state: p.state,
          price4: p.state === 'set' ? (p.amount4 ?? null) : null,
        }),
        fromRow: (row: { price_state: string; price4: string | null } & Record<string, unknown>) => ({
          state: row.price_state,
          price: row.price4 === null ? null : `${row.price4} ${String(row.currency)}`,
        }),
      },
    }),
    source: field(z.strictObject({ a: z.string(), b: z.string() }).nullable(), {
      columns: {
        toColumns: (s: { a: string; b: string } | null) => ({ source_a: s?.a ?? null, source_b: s?.b ?? null }),
        fromRow: (row: { source_a: string | null; source_b: string | null }) =>
          row.source_a === null || row.source_b === null ? null : { a: row.source_a, b: row.source_b },
      },
    }),
  },
  computed: { note: z.string() },
  order: ['id', 'note', 'currency', 'price', 'source', 'version', 'createdAt', 'updatedAt'],
});

describe('defineRecord, for records that differ', () => {
  it('keeps a field in several columns, reading them from the whole row', () => {
    const made = { id: 'a', ownerId: 's', now: 'T' };
    const row = PRICED.newRow({ price: { state: 'set', amount4: '10000' }, source: { a: 'p', b: 'l' } }, made);
    expect(row).toEqual({
      id: 'a',
      studio_id: 's',
      currency: 'GBP',
      price_state: 'set',
      price4: '10000',
      source_a: 'p',
      source_b: 'l',
      version: 1,
      created_at: 'T',
      updated_at: 'T',
    });
    expectTypeOf(row.price4).toEqualTypeOf<string | null>();
    expectTypeOf(row.source_a).toEqualTypeOf<string | null>();
    expectTypeOf(row.currency).toEqualTypeOf<'GBP' | 'EUR'>();
    expect(PRICED.newRow({}, made)).toMatchObject({ price_state: 'tbc', price4: null, source_a: null, source_b: null });
    expect(PRICED.patchColumns({ price: { state: 'tbc' } })).toEqual({ price_state: 'tbc', price4: null });
    expect(PRICED.present(row, { note: 'n' })).toMatchObject({
      price: { state: 'set', price: '10000 GBP' },
      source: { a: 'p', b: 'l' },
    });
  });

  it('answers with the output schema a field declares, and takes what callers send on input', () => {
    expect(PRICED.output.shape.price.description).toBe('As answered.');
    expect(PRICED.patchInput.safeParse({ price: { state: 'set', amount4: '1' } }).success).toBe(true);
    expect(PRICED.output.shape.price.safeParse({ state: 'set', amount4: '1' }).success).toBe(false);
  });

  it('keeps the published key order when the record declares one, and refuses an order that misses a key', () => {
    const order = ['id', 'note', 'currency', 'price', 'source', 'version', 'createdAt', 'updatedAt'];
    expect(Object.keys(PRICED.output.shape)).toEqual(order);
    const row = PRICED.newRow({}, { id: 'a', ownerId: 's', now: 'T' });
    expect(Object.keys(PRICED.present(row, { note: 'n' }))).toEqual(order);
    expect(() =>
      defineRecord({
        name: 'ScratchBadOrder',
        description: 'A record for this test.',
        table: 'bad',
        owner: 'studio',
        archivable: false,
        fields: { title: field(z.string()) },
        order: ['id', 'version', 'createdAt', 'updatedAt'],
      }),
    ).toThrow(/order must name each output key once/);
  });

  it('describes archived_at in its own words when the record says them', () => {
    expect(THING.output.shape.archived_at.description).toBe('Set when archived; things are never deleted.');
    const removed = defineRecord({
      name: 'ScratchRemoved',
      description: 'A record for this test.',
      table: 'removed_things',
      owner: 'studio',
      archivable: true,
      archivedMeans: 'Set when removed; never deleted.',
      fields: {},
    });
    expect(removed.output.shape.archived_at.description).toBe('Set when removed; never deleted.');
    const previewed = defineRecord({ ...removed.spec, versionMeans: 'Send it to commit what you previewed.' });
    expect(previewed.output.shape.version.description).toBe('Send it to commit what you previewed.');
  });

  it('keeps a hidden field in its row but never answers it', () => {
    const MADE = defineRecord({
      name: 'ScratchMade',
      description: 'A record that remembers who made it.',
      table: 'mades',
      owner: 'studio',
      archivable: false,
      fields: {
        label: field(z.string(), { write: 'always', required: true }),
        createdBy: field(z.string(), { hidden: true }),
      },
    });
    const row = MADE.newRow({ label: 'A', createdBy: 'm' }, { id: 'a', ownerId: 's', now: 'T' });
    expect(row).toMatchObject({ label: 'A', created_by: 'm' });
    expect(Object.keys(MADE.output.shape)).not.toContain('createdBy');
    expect(MADE.present(row, {})).not.toHaveProperty('createdBy');
    expectTypeOf(MADE.present(row, {})).not.toHaveProperty('createdBy');
  });

  it('without a version keeps no version or updated_at, and ends a record by its own named stamp', () => {
    const TOKEN = defineRecord({
      name: 'ScratchToken',
      description: 'A record made, then only revoked.',
      table: 'scratch_tokens',
      owner: 'member',
      versioned: false,
      archivable: { key: 'revokedAt' },
      archivedMeans: 'When it was revoked.',
      fields: { name: field(z.string(), { write: 'create', required: true }) },
    });
    const row = TOKEN.newRow({ name: 'ci' }, { id: 'a', ownerId: 'm', now: 'T' });
    expect(row).toEqual({ id: 'a', member_id: 'm', name: 'ci', created_at: 'T', revoked_at: null });
    expect(Object.keys(TOKEN.output.shape)).toEqual(['id', 'name', 'createdAt', 'revokedAt']);
    expect(TOKEN.output.shape.revokedAt.description).toBe('When it was revoked.');
    expect(TOKEN.present({ ...row, revoked_at: 'U' }, {})).toEqual({
      id: 'a',
      name: 'ci',
      createdAt: 'T',
      revokedAt: 'U',
    });
    expectTypeOf(row).not.toHaveProperty('version');
    expectTypeOf(row).toHaveProperty('revoked_at');
  });

  it('names its creation stamp, or has no id of its own, and leaves out an answer a field does not give', () => {
    const ISSUED = defineRecord({
      name: 'ScratchIssued',
      description: 'A record named by two ids, stamped when issued.',
      table: 'scratch_issued',
      owner: 'project',
      id: false,
      versioned: false,
      archivable: false,
      created: { key: 'issuedAt', column: 'issued_at' },
      fields: {
        memberId: field(z.string(), { write: 'create', required: true }),
        result: field(z.string().optional(), {
          columns: {
            toColumns: (v: string | undefined) => ({ result: v ?? null }),
            fromRow: (r: { result: string | null }) => r.result ?? undefined,
          },
        }),
      },
    });
    const row = ISSUED.newRow({ memberId: 'm' }, { ownerId: 'p', now: 'T' });
    expect(row).toEqual({ project_id: 'p', member_id: 'm', result: null, issued_at: 'T' });
    expect(Object.keys(ISSUED.output.shape)).toEqual(['memberId', 'result', 'issuedAt']);
    expect(ISSUED.present(row, {})).toEqual({ memberId: 'm', issuedAt: 'T' });
  });
});
