import { z } from 'zod';
import { Id, named, Timestamp } from '../../core/values.js';

/**
 * A record declared once. Each field says its API name, its zod type (what callers send and what the API answers),
 * whether callers may write it, and, where the column differs from the field in snake_case or in form, its column and
 * codec. From that one declaration come the kysely table type, the row → record presenter, the create and patch
 * column mappings, the create and update input schemas and the output schema: a field added here (and in its
 * migration) reaches every one of them. The standard columns every record has (id, its owner, version, createdAt,
 * updatedAt and, for archivable records, archived_at) are added by `defineRecord`.
 *
 * The anchors: kysely's one interface per table read through `Selectable`/`Insertable`, and drizzle's table that is
 * its own schema. Differences a record really has (a computed figure, the line's priced pairs) are said here too, as
 * `computed` outputs or codecs, never as a copy of the field list elsewhere.
 */

/** How a field's API value is kept in its column when the two differ (a flag as 0/1, a list as JSON text). */
export interface Codec<Api, Column> {
  toColumn(value: Api): Column;
  fromColumn(column: Column): Api;
}

/**
 * How a field is kept in several columns (a priced field as its state and amount, a reference as two ids). It writes
 * its own columns; it reads them from the whole row, so it may also read another field's column (the currency a price
 * is in).
 */
export interface ColumnsCodec<Api, Columns extends object, Shown = Api> {
  toColumns(value: Api): Columns;
  /** The field as the API answers it (the `output` schema's form, when the field has one). */
  fromRow(row: Columns & Record<string, unknown>): Shown;
}

export interface FieldDecl<S extends z.ZodType = z.ZodType> {
  /** What callers send; also what the API answers, unless `output` says otherwise. */
  schema: S;
  /**
   * What the API answers, when it is not what callers send: a priced field answers its price with its currency, and
   * its mark for redaction is on this schema; a list sent with defaults left out answers complete.
   */
  output?: z.ZodType;
  /** The column, when it is not the field's name in snake_case. */
  column?: string;
  /**
   * Who sets it: `create` (only when the record is made), `always` (made and changed), or nobody (absent: the server
   * derives it). A field required on create says so with `required`.
   */
  write?: 'create' | 'always';
  required?: true;
  /** What a create stores when the caller leaves a writable field out. */
  default?: z.output<S>;
  /** Its column's form, when not the API value itself (the value as stored: the output's, when `output` is given). */
  codec?: Codec<z.output<S>, unknown>;
  /** Its columns, when the field is kept in more than one (then `column` and `codec` are not used). */
  columns?: ColumnsCodec<z.output<S>, object, unknown>;
  /** The owner's id shown under this name (a custom property's projectId): its column is the owner column. */
  owner?: true;
  /** A column the record keeps but the API never answers (who made it): in the row, not in the output. */
  hidden?: true;
}

/** A field of a record (see FieldDecl); the declaration's literal types (column, write) reach the derived types. */
export const field = <S extends z.ZodType, const D extends Omit<FieldDecl<S>, 'schema'> = Record<never, never>>(
  schema: S,
  decl?: D,
): { schema: S } & D => ({ schema, ...(decl as D) });

type Fields = Record<string, FieldDecl>;

/** `accountReference` → `account_reference`, in types as in values. */
export type Snake<S extends string> = S extends `${infer C}${infer R}`
  ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${Snake<R>}`
  : S;
export const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

type ColumnName<K extends string, D> = D extends { column: infer C extends string } ? C : Snake<K>;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** The fields kept in one column each, and the columns of those kept in several. */
type OneColumnKeys<F extends Fields> = { [K in keyof F]: F[K] extends { columns: object } ? never : K }[keyof F];
type ManyColumns<F extends Fields> = UnionToIntersection<
  { [K in keyof F]: F[K] extends { columns: { toColumns(value: never): infer C } } ? C : never }[keyof F]
>;
/** The fields the API answers (all but the hidden ones). */
type ShownKeys<F extends Fields> = { [K in keyof F]: F[K] extends { hidden: true } ? never : K }[keyof F];
/** What the API answers for a field. */
type OutputOf<D> = D extends { output: infer O extends z.ZodType } ? O : D extends { schema: infer S } ? S : never;
/** A field's value as a row stores it through its codec (the output's form when it has one). */
type StoredValue<D> = D extends { codec: { toColumn(value: infer A): unknown } }
  ? A
  : D extends { columns: { toColumns(value: infer A): unknown } }
    ? A
    : D extends { schema: infer S extends z.ZodType }
      ? z.output<S>
      : never;
type ColumnValue<D> = D extends { codec: { toColumn(value: never): infer Col } }
  ? Col
  : D extends { schema: infer S extends z.ZodType }
    ? z.output<S>
    : never;

type OwnerLevel = 'studio' | 'project' | 'member';
type OwnerColumn<L extends OwnerLevel> = `${L}_id`;

export interface RecordSpec<F extends Fields, X extends z.ZodRawShape, L extends OwnerLevel, A extends boolean> {
  /** The record's name in generated documents (`Supplier`) and its description there. */
  name: string;
  description: string;
  table: string;
  /** What owns it: a studio, a project, a member; its column is `<level>_id`. */
  owner: L;
  fields: F;
  /** Output fields the server computes (a count of the lines that name it): not columns. */
  computed?: X;
  /**
   * The output's keys in this order, when it is not the standard one (id, the fields, the computed ones, version,
   * createdAt, updatedAt, archived_at): for a record whose published order predates its declaration, since the JSON
   * it answers (and the ETags that digest it) follow the output's order. Every key, once.
   */
  order?: readonly string[];
  /** Whether it is archived, never deleted (then `archived_at` is a column and an output field). */
  archivable: A;
  /** What `archived_at` says, when "Set when archived; <the table's records> are never deleted." is not the words. */
  archivedMeans?: string;
  /** What `version` says, when a caller sends it somewhere besides expectedVersion of an update (to commit a preview). */
  versionMeans?: string;
}

/** The row of a record's table, as kysely reads it. */
export type RowOf<F extends Fields, L extends OwnerLevel, A extends boolean> = {
  id: string;
} & { [K in OwnerColumn<L>]: string } & {
  -readonly [K in OneColumnKeys<F> & string as ColumnName<K, F[K]>]: ColumnValue<F[K]>;
} & ManyColumns<F> & { version: number; created_at: string; updated_at: string } & (A extends true
    ? { archived_at: string | null }
    : unknown);

type WritableKeys<F extends Fields> = { [K in keyof F]: F[K] extends { write: string } ? K : never }[keyof F];
type PatchableKeys<F extends Fields> = { [K in keyof F]: F[K] extends { write: 'always' } ? K : never }[keyof F];
type RequiredKeys<F extends Fields> = { [K in keyof F]: F[K] extends { required: true } ? K : never }[keyof F];
type DerivedKeys<F extends Fields> = Exclude<keyof F, WritableKeys<F>>;

type CreateShape<F extends Fields> = {
  [K in WritableKeys<F> & string]: K extends RequiredKeys<F> ? F[K]['schema'] : z.ZodOptional<F[K]['schema']>;
};
type PatchShape<F extends Fields> = { [K in PatchableKeys<F> & string]: z.ZodOptional<F[K]['schema']> };
type OutputShape<F extends Fields, X extends z.ZodRawShape, A extends boolean> = { id: typeof Id } & {
  [K in ShownKeys<F> & string]: OutputOf<F[K]>;
} & X & {
    version: z.ZodInt;
    createdAt: typeof Timestamp;
    updatedAt: typeof Timestamp;
  } & (A extends true ? { archived_at: z.ZodNullable<typeof Timestamp> } : unknown);

/** What a create sends, as its input schema parses it. */
export type CreateFields<F extends Fields> = z.output<z.ZodObject<CreateShape<F>>>;
/** What an update sends: a merge patch of the fields callers may change. */
export type PatchFields<F extends Fields> = z.output<z.ZodObject<PatchShape<F>>>;
/**
 * What a new row is made from: the writable fields as stored (the required ones required), and any field the server
 * derives (left out: its default, else null).
 */
export type NewRowFields<F extends Fields> = {
  [K in WritableKeys<F> & RequiredKeys<F> & keyof F]: StoredValue<F[K]>;
} & { [K in (Exclude<WritableKeys<F>, RequiredKeys<F>> | DerivedKeys<F>) & keyof F]?: StoredValue<F[K]> | undefined };
/** What a patch's columns are made from: the fields callers may change, as stored. */
export type PatchValues<F extends Fields> = { [K in PatchableKeys<F> & keyof F]?: StoredValue<F[K]> | undefined };

export interface DeclaredRecord<F extends Fields, X extends z.ZodRawShape, L extends OwnerLevel, A extends boolean> {
  spec: RecordSpec<F, X, L, A>;
  /** The record as the API answers it. */
  output: z.ZodObject<OutputShape<F, X, A>>;
  /** The fields a create takes (required ones required). */
  createInput: z.ZodObject<CreateShape<F>>;
  /** The fields an update takes, each optional (a merge patch; null clears a nullable field). */
  patchInput: z.ZodObject<PatchShape<F>>;
  /** A row as the API shows it, with the computed figures the caller worked out. */
  present(row: RowOf<F, L, A>, computed: z.input<z.ZodObject<X>>): z.input<z.ZodObject<OutputShape<F, X, A>>>;
  /** The columns a create stores: what was sent, else each field's default. */
  newRow(sent: NewRowFields<F>, made: { id: string; ownerId: string; now: string }): RowOf<F, L, A>;
  /** The columns a merge patch changes: only the fields it sends. */
  patchColumns(patch: PatchValues<F>): Partial<RowOf<F, L, A>>;
}

export function defineRecord<
  const F extends Fields,
  X extends z.ZodRawShape = Record<never, never>,
  L extends OwnerLevel = OwnerLevel,
  A extends boolean = boolean,
>(spec: RecordSpec<F, X, L, A>): DeclaredRecord<F, X, L, A> {
  const owner = `${spec.owner}_id`;
  for (const [name, decl] of Object.entries(spec.fields)) {
    if (decl.owner && columnOf(name, decl) !== owner) throw new Error(`${spec.name}.${name}: the owner is ${owner}.`);
  }
  const schemas = schemasOf(spec);
  return { spec, ...schemas, ...rowMappingsOf(spec, Object.keys(schemas.output.shape)) } as never;
}

/** A field's column, when it is kept in one: its name in snake_case unless it names its own. */
const columnOf = (name: string, decl: FieldDecl) => decl.column ?? snake(name);

// The published shapes: the output in its key order, and the inputs of a create and of a merge patch.
function schemasOf(spec: RecordSpec<Fields, z.ZodRawShape, OwnerLevel, boolean>) {
  const entries = Object.entries(spec.fields);
  const standard: Record<string, z.ZodType> = {
    id: Id,
    ...Object.fromEntries(
      entries.filter(([, d]) => !d.hidden).map(([name, decl]) => [name, decl.output ?? decl.schema]),
    ),
    ...(spec.computed ?? {}),
    version: spec.versionMeans ? z.int().min(1).describe(spec.versionMeans) : z.int().min(1),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    ...(spec.archivable
      ? {
          archived_at: Timestamp.nullable().describe(
            spec.archivedMeans ?? `Set when archived; ${spec.table.replaceAll('_', ' ')} are never deleted.`,
          ),
        }
      : {}),
  };
  const order = outputOrder(spec, Object.keys(standard));
  const shape = Object.fromEntries(order.map((k) => [k, standard[k] as z.ZodType]));
  const writable = entries.filter(([, d]) => d.write);
  return {
    output: named(z.strictObject(shape).describe(spec.description), spec.name),
    createInput: z.strictObject(
      Object.fromEntries(writable.map(([n, d]) => [n, d.required ? d.schema : d.schema.optional()])),
    ),
    patchInput: z.strictObject(
      Object.fromEntries(writable.filter(([, d]) => d.write === 'always').map(([n, d]) => [n, d.schema.optional()])),
    ),
  };
}

/** The output's keys in the record's published order: the standard one unless the record says another. */
function outputOrder(spec: RecordSpec<Fields, z.ZodRawShape, OwnerLevel, boolean>, keys: string[]): readonly string[] {
  const order = spec.order ?? keys;
  if (order.length !== keys.length || !order.every((k) => keys.includes(k))) {
    throw new Error(`${spec.name}: order must name each output key once: ${keys.join(', ')}.`);
  }
  return order;
}

// Rows to records and back: what the presenter reads, and the columns a create and a merge patch write.
function rowMappingsOf(spec: RecordSpec<Fields, z.ZodRawShape, OwnerLevel, boolean>, order: readonly string[]) {
  const entries = Object.entries(spec.fields);
  const owner = `${spec.owner}_id`;
  const columnsFor = (name: string, decl: FieldDecl, value: unknown): Record<string, unknown> =>
    decl.columns
      ? (decl.columns.toColumns(value) as Record<string, unknown>)
      : { [columnOf(name, decl)]: decl.codec ? decl.codec.toColumn(value) : value };
  const fieldFrom = (name: string, decl: FieldDecl, row: Record<string, unknown>) => {
    if (decl.columns) return decl.columns.fromRow(row as never);
    const value = row[columnOf(name, decl)];
    return decl.codec ? decl.codec.fromColumn(value) : value;
  };
  return {
    present(row: Record<string, unknown>, computed: object) {
      const shown: Record<string, unknown> = { id: row.id };
      for (const [name, decl] of entries) if (!decl.hidden) shown[name] = fieldFrom(name, decl, row);
      Object.assign(shown, computed, { version: row.version, createdAt: row.created_at, updatedAt: row.updated_at });
      if (spec.archivable) shown.archived_at = row.archived_at;
      return Object.fromEntries(order.map((k) => [k, shown[k]]));
    },
    newRow(given: Record<string, unknown>, made: { id: string; ownerId: string; now: string }) {
      const row: Record<string, unknown> = { id: made.id, [owner]: made.ownerId };
      for (const [name, decl] of entries) {
        if (decl.owner) continue;
        const value = given[name] !== undefined ? given[name] : (decl.default ?? null);
        Object.assign(row, columnsFor(name, decl, value));
      }
      Object.assign(row, { version: 1, created_at: made.now, updated_at: made.now });
      if (spec.archivable) row.archived_at = null;
      return row;
    },
    patchColumns(sent: Record<string, unknown>) {
      const cols: Record<string, unknown> = {};
      for (const [name, decl] of entries) {
        if (sent[name] !== undefined && !decl.owner) Object.assign(cols, columnsFor(name, decl, sent[name]));
      }
      return cols;
    },
  };
}

/** The kysely table type of a declared record (for the `Database` interface). */
export type TableOf<R> = R extends DeclaredRecord<infer F, infer _X, infer L, infer A> ? RowOf<F, L, A> : never;

/** A yes/no field kept as 0/1 (SQLite has no booleans; the column stays INTEGER on both stores). */
export const asFlag: Codec<boolean, number> = { toColumn: (v) => (v ? 1 : 0), fromColumn: (c) => c === 1 };

/** A list or object kept as JSON text. */
export const asJson = <T>(): Codec<T, string> => ({
  toColumn: (v) => JSON.stringify(v),
  fromColumn: (c) => JSON.parse(c) as T,
});

/** A nullable field's codec: null stays NULL, any other value goes through `codec`. */
export const orNull = <Api, Column>(codec: Codec<Api, Column>): Codec<Api | null, Column | null> => ({
  toColumn: (v) => (v === null ? null : codec.toColumn(v)),
  fromColumn: (c) => (c === null ? null : codec.fromColumn(c)),
});
