import { z } from 'zod';
import { Id, named, Timestamp } from '../../core/values.js';

/**
 * A record declared once. Each field says its API name, its zod type (what callers send and what the API answers),
 * whether callers may write it, and, where the column differs from the field in snake_case or in form, its column and
 * codec. From that one declaration come the kysely table type, the row → record presenter, the create and patch
 * column mappings, the create and update input schemas and the output schema: a field added here (and in its
 * migration) reaches every one of them. The standard columns (id, its owner, version, createdAt, updatedAt and, for
 * archivable records, archived_at) are added by `defineRecord`; a record that has no version (a membership, a token, an
 * issued link) says `versioned: false`, and one ended in its own words names its stamp (`archivable: { key: 'revokedAt' }`).
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
  /**
   * The field as the API answers it (the `output` schema's form, when the field has one). `context` is what the
   * caller handed `present` beside the row (a line's prices are in its project's currency, which its row does not
   * hold).
   */
  fromRow(row: Columns & Record<string, unknown>, context?: unknown): Shown;
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
/** The columns of the hidden fields kept in one column each: the presenter never reads them. */
type HiddenColumns<F extends Fields> = {
  [K in OneColumnKeys<F> & string]: F[K] extends { hidden: true } ? ColumnName<K, F[K]> : never;
}[OneColumnKeys<F> & string];
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

/**
 * How a record is kept rather than deleted: `true` stamps `archived_at` (answered under that name); a named stamp
 * (`{ key: 'removedAt' }`, column removed_at) for a record ended in its own words (a member removed, a token revoked);
 * `false` for a record that is never ended.
 */
export type Archival = boolean | { key: string };
/** The column and output key of the stamp that ends a record, when it has one. */
type EndedColumn<A extends Archival> = A extends true
  ? 'archived_at'
  : A extends { key: infer K extends string }
    ? Snake<K>
    : never;
type EndedKey<A extends Archival> = A extends true
  ? 'archived_at'
  : A extends { key: infer K extends string }
    ? K
    : never;
/** When a record was made: answered as `createdAt` from created_at unless it names its own key or column. */
export interface CreatedStamp {
  key: string;
  column?: string;
  /** What the stamp says, when the bare timestamp needs words (a member's memberSince). */
  means?: string;
  /** Kept but never answered (settings answer only when they were last saved). */
  hidden?: true;
}
type CreatedKey<C> = C extends { key: infer K extends string } ? K : 'createdAt';
type CreatedColumn<C> = C extends { column: infer K extends string } ? K : 'created_at';

export interface RecordSpec<
  F extends Fields,
  X extends z.ZodRawShape,
  L extends OwnerLevel,
  A extends Archival,
  V extends boolean = true,
  I extends boolean = true,
  C extends CreatedStamp | undefined = undefined,
> {
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
  /**
   * Output keys moved from their standard place to just after another key, in the order given (a name shown beside
   * the id it names: `{ supplierName: 'supplierId' }`): for a published order that differs from the standard one in a
   * few keys, without listing every key as `order` does.
   */
  after?: Readonly<Record<string, string>>;
  /**
   * Whether it is archived, never deleted (then `archived_at` is a column and an output field), or the stamp that ends
   * it in its own words (`{ key: 'revokedAt' }`: column revoked_at, output revokedAt). See Archival.
   */
  archivable: A;
  /** What the ending stamp says, when "Set when archived; <the table's records> are never deleted." is not the words. */
  archivedMeans?: string;
  /**
   * `false` for a record callers never update by version (a membership, a token, a grant, an operation the worker
   * moves): no version and no updated_at among the standard columns; a table that keeps updated_at declares it as a
   * hidden field.
   */
  versioned?: V;
  /** What `version` says, when a caller sends it somewhere besides expectedVersion of an update (to commit a preview). */
  versionMeans?: string;
  /** `false` for a record named by other ids than its own (a grant: its project and member): no id column. */
  id?: I;
  /** What `id` says, when its bare name is not enough (a membership's id is what memberId names). */
  idMeans?: string;
  /** The creation stamp's output key and column, when not createdAt and created_at (a share's issuedAt). */
  created?: C;
}

/** The standard columns a record's choices give it: id, owner, creation stamp, version, ending stamp. */
type StandardRow<L extends OwnerLevel, A extends Archival, V extends boolean, I extends boolean, C> = (I extends true
  ? { id: string }
  : unknown) & { [K in OwnerColumn<L> | CreatedColumn<C>]: string } & (V extends true
    ? { version: number; updated_at: string }
    : unknown) & { [K in EndedColumn<A>]: string | null };

/** The row of a record's table, as kysely reads it. */
export type RowOf<
  F extends Fields,
  L extends OwnerLevel,
  A extends Archival,
  V extends boolean = true,
  I extends boolean = true,
  C = undefined,
> = {
  -readonly [K in OneColumnKeys<F> & string as ColumnName<K, F[K]>]: ColumnValue<F[K]>;
} & ManyColumns<F> &
  StandardRow<L, A, V, I, C>;

type WritableKeys<F extends Fields> = { [K in keyof F]: F[K] extends { write: string } ? K : never }[keyof F];
type PatchableKeys<F extends Fields> = { [K in keyof F]: F[K] extends { write: 'always' } ? K : never }[keyof F];
type RequiredKeys<F extends Fields> = { [K in keyof F]: F[K] extends { required: true } ? K : never }[keyof F];
type DerivedKeys<F extends Fields> = Exclude<keyof F, WritableKeys<F>>;

type CreateShape<F extends Fields> = {
  [K in WritableKeys<F> & string]: K extends RequiredKeys<F> ? F[K]['schema'] : z.ZodOptional<F[K]['schema']>;
};
type PatchShape<F extends Fields> = { [K in PatchableKeys<F> & string]: z.ZodOptional<F[K]['schema']> };
type OutputShape<
  F extends Fields,
  X extends z.ZodRawShape,
  A extends Archival,
  V extends boolean = true,
  I extends boolean = true,
  C = undefined,
> = (I extends true ? { id: typeof Id } : unknown) & {
  [K in ShownKeys<F> & string]: OutputOf<F[K]>;
} & X &
  (C extends { hidden: true } ? unknown : { [K in CreatedKey<C>]: typeof Timestamp }) &
  (V extends true ? { version: z.ZodInt; updatedAt: typeof Timestamp } : unknown) & {
    [K in EndedKey<A>]: z.ZodNullable<typeof Timestamp>;
  };

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

export interface DeclaredRecord<
  F extends Fields,
  X extends z.ZodRawShape,
  L extends OwnerLevel,
  A extends Archival,
  V extends boolean = true,
  I extends boolean = true,
  C extends CreatedStamp | undefined = undefined,
> {
  spec: RecordSpec<F, X, L, A, V, I, C>;
  /** The record as the API answers it. */
  output: z.ZodObject<OutputShape<F, X, A, V, I, C>>;
  /** The fields a create takes (required ones required). */
  createInput: z.ZodObject<CreateShape<F>>;
  /** The fields an update takes, each optional (a merge patch; null clears a nullable field). */
  patchInput: z.ZodObject<PatchShape<F>>;
  /**
   * A row as the API shows it, with the computed figures the caller worked out; `context` reaches the fields kept in
   * several columns (ColumnsCodec.fromRow). The row may leave out the columns of hidden fields (a list need not read
   * a large column it never shows).
   */
  present(
    row: Omit<RowOf<F, L, A, V, I, C>, HiddenColumns<F>>,
    computed: z.input<z.ZodObject<X>>,
    context?: unknown,
  ): z.input<z.ZodObject<OutputShape<F, X, A, V, I, C>>>;
  /** The columns a create stores: what was sent, else each field's default (with no id column, no id is made). */
  newRow(
    sent: NewRowFields<F>,
    made: { ownerId: string; now: string } & (I extends true ? { id: string } : unknown),
  ): RowOf<F, L, A, V, I, C>;
  /** The columns a merge patch changes: only the fields it sends. */
  patchColumns(patch: PatchValues<F>): Partial<RowOf<F, L, A, V, I, C>>;
}

export function defineRecord<
  const F extends Fields,
  X extends z.ZodRawShape = Record<never, never>,
  L extends OwnerLevel = OwnerLevel,
  const A extends Archival = boolean,
  V extends boolean = true,
  I extends boolean = true,
  const C extends CreatedStamp | undefined = undefined,
>(spec: RecordSpec<F, X, L, A, V, I, C>): DeclaredRecord<F, X, L, A, V, I, C> {
  const owner = `${spec.owner}_id`;
  for (const [name, decl] of Object.entries(spec.fields)) {
    if (decl.owner && columnOf(name, decl) !== owner) throw new Error(`${spec.name}.${name}: the owner is ${owner}.`);
  }
  const schemas = schemasOf(spec);
  return { spec, ...schemas, ...rowMappingsOf(spec, Object.keys(schemas.output.shape)) } as never;
}

/** A field's column, when it is kept in one: its name in snake_case unless it names its own. */
const columnOf = (name: string, decl: FieldDecl) => decl.column ?? snake(name);

type AnySpec = RecordSpec<Fields, z.ZodRawShape, OwnerLevel, Archival, boolean, boolean, CreatedStamp | undefined>;

/** The standard columns a record's choices give it, each as its output key, its column and its output schema. */
function standardOf(spec: AnySpec) {
  const ended = spec.archivable === false ? undefined : spec.archivable === true ? 'archived_at' : spec.archivable.key;
  const createdKey = spec.created?.key ?? 'createdAt';
  return {
    id: spec.id !== false,
    versioned: spec.versioned !== false,
    created: {
      shown: !spec.created?.hidden,
      key: createdKey,
      column: spec.created?.column ?? 'created_at',
      schema: spec.created?.means ? Timestamp.describe(spec.created.means) : Timestamp,
    },
    ended: ended && {
      key: ended,
      column: snake(ended),
      schema: Timestamp.nullable().describe(
        spec.archivedMeans ?? `Set when archived; ${spec.table.replaceAll('_', ' ')} are never deleted.`,
      ),
    },
  };
}

// The published shapes: the output in its key order, and the inputs of a create and of a merge patch.
function schemasOf(spec: AnySpec) {
  const entries = Object.entries(spec.fields);
  const std = standardOf(spec);
  const standard: Record<string, z.ZodType> = {
    ...(std.id ? { id: spec.idMeans ? Id.describe(spec.idMeans) : Id } : {}),
    ...Object.fromEntries(
      entries.filter(([, d]) => !d.hidden).map(([name, decl]) => [name, decl.output ?? decl.schema]),
    ),
    ...(spec.computed ?? {}),
    ...(std.versioned
      ? { version: spec.versionMeans ? z.int().min(1).describe(spec.versionMeans) : z.int().min(1) }
      : {}),
    ...(std.created.shown ? { [std.created.key]: std.created.schema } : {}),
    ...(std.versioned ? { updatedAt: Timestamp } : {}),
    ...(std.ended ? { [std.ended.key]: std.ended.schema } : {}),
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
function outputOrder(spec: AnySpec, keys: string[]): readonly string[] {
  const order = spec.order ?? movedAfter(spec, keys);
  if (order.length !== keys.length || !order.every((k) => keys.includes(k))) {
    throw new Error(`${spec.name}: order must name each output key once: ${keys.join(', ')}.`);
  }
  return order;
}

/** The standard keys with each key `after` names moved to just after the key it names. */
function movedAfter(spec: AnySpec, keys: readonly string[]): string[] {
  const order = [...keys];
  for (const [key, before] of Object.entries(spec.after ?? {})) {
    const from = order.indexOf(key);
    if (from < 0 || !order.includes(before) || key === before) {
      throw new Error(`${spec.name}: after moves an output key after another: ${key} after ${before}.`);
    }
    order.splice(from, 1);
    order.splice(order.indexOf(before) + 1, 0, key);
  }
  return order;
}

/** Writes a field's value into a row: its column (through its codec), or the columns its columns codec gives. */
function writerOf(name: string, decl: FieldDecl): (row: Record<string, unknown>, value: unknown) => void {
  const { columns, codec } = decl;
  if (columns) return (row, value) => Object.assign(row, columns.toColumns(value));
  const column = columnOf(name, decl);
  return codec
    ? (row, value) => {
        row[column] = codec.toColumn(value);
      }
    : (row, value) => {
        row[column] = value;
      };
}

// Rows to records and back: what the presenter reads, and the columns a create and a merge patch write.
function rowMappingsOf(spec: AnySpec, order: readonly string[]) {
  const entries = Object.entries(spec.fields);
  const owner = `${spec.owner}_id`;
  const std = standardOf(spec);
  // Each field's writer, made once: creates and patches write rows on every import of 10,000 lines.
  const writers = entries
    .filter(([, decl]) => !decl.owner)
    .map(([name, decl]) => ({ name, fallback: decl.default ?? null, write: writerOf(name, decl) }));
  const plan = presentPlan(spec, order);
  const keys = plan.map((step) => step.key);
  // Parallel arrays, so the loop below reads a plain column without calling anything.
  const columns = plan.map((step) => ('column' in step.from ? step.from.column : null));
  const computedKeys = plan.map((step) => ('computed' in step.from ? step.from.computed : null));
  const getters = plan.map((step) => ('get' in step.from ? step.from.get : null));
  return {
    present: presenterOf(keys, columns, computedKeys, getters),
    newRow(given: Record<string, unknown>, made: { id?: string; ownerId: string; now: string }) {
      const row: Record<string, unknown> = std.id ? { id: made.id } : {};
      row[owner] = made.ownerId;
      for (const { name, fallback, write } of writers) write(row, given[name] !== undefined ? given[name] : fallback);
      row[std.created.column] = made.now;
      if (std.versioned) Object.assign(row, { version: 1, updated_at: made.now });
      if (std.ended) row[std.ended.column] = null;
      return row;
    },
    patchColumns(sent: Record<string, unknown>) {
      const cols: Record<string, unknown> = {};
      for (const { name, write } of writers) if (sent[name] !== undefined) write(cols, sent[name]);
      return cols;
    },
  };
}

/**
 * The record's presenter, made once at define time as a function of its own: one object literal with every output key
 * in order, each value read the way its plan says (a column of the row, a computed figure, a getter). Presenting is
 * on every read (450 lines a list), and a literal is what V8 builds fastest and keeps in one shape, where a loop
 * filling keys by name shares its property accesses with every other record and slows as they multiply. Keys and
 * column names come from the declaration, never from input, and are quoted as JSON string literals (so none is code).
 * A key whose value is undefined is left out, as an optional output field is (an operation's result).
 */
function presenterOf(
  keys: readonly string[],
  columns: ReadonlyArray<string | null>,
  computedKeys: ReadonlyArray<string | null>,
  getters: ReadonlyArray<Getter | null>,
): (row: Record<string, unknown>, computed: Record<string, unknown>, context?: unknown) => Record<string, unknown> {
  // In an object literal a "__proto__" key sets the prototype instead: no record declares one.
  if (keys.includes('__proto__')) throw new Error('A record cannot have a field named __proto__.');
  const value = (i: number) => {
    const column = columns[i];
    const computedKey = computedKeys[i];
    if (column != null) return `row[${JSON.stringify(column)}]`;
    if (computedKey != null) return `computed[${JSON.stringify(computedKey)}]`;
    return `g[${i}](row, computed, context)`;
  };
  const reads = keys.map((_, i) => `const v${i} = ${value(i)};`).join('\n');
  const literal = keys.map((k, i) => `${JSON.stringify(k)}: v${i}`).join(',\n');
  const missing = keys.map((_, i) => `v${i} === undefined`).join(' || ') || 'false';
  const make = new Function(
    'g',
    'w',
    `return function present(row, computed, context) {\n${reads}\nconst shown = {\n${literal}\n};\nreturn ${missing} ? w(shown) : shown;\n};`,
  ) as (g: ReadonlyArray<Getter | null>, w: typeof withoutUndefined) => ReturnType<typeof presenterOf>;
  return make(getters, withoutUndefined);
}

function withoutUndefined(shown: Record<string, unknown>) {
  const kept: Record<string, unknown> = {};
  for (const key in shown) if (shown[key] !== undefined) kept[key] = shown[key];
  return kept;
}

type Getter = (row: Record<string, unknown>, computed: Record<string, unknown>, context: unknown) => unknown;
/** How one output key is read: a column of the row as it is, a computed figure by its key, or a getter. */
type Source = { column: string } | { computed: string } | { get: Getter };

/**
 * Each output key, in order, with where its value comes from: a field from its column (as it is, or through its
 * codec) or columns, a computed figure from what the caller worked out, a standard column from the row. Later sources
 * win over earlier ones for a key declared twice (computed over a field, a standard stamp over both), as the output
 * schema's shape does.
 */
function presentPlan(spec: AnySpec, order: readonly string[]): Array<{ key: string; from: Source }> {
  const std = standardOf(spec);
  const sources = new Map<string, Source>([['id', { column: 'id' }]]);
  for (const [name, decl] of Object.entries(spec.fields)) {
    if (decl.hidden) continue;
    const { columns, codec } = decl;
    const column = columnOf(name, decl);
    sources.set(
      name,
      columns
        ? { get: (row, _c, context) => columns.fromRow(row as never, context) }
        : codec
          ? { get: (row) => codec.fromColumn(row[column]) }
          : { column },
    );
  }
  for (const key of Object.keys(spec.computed ?? {})) {
    const field = sources.get(key);
    const read = field && readerOf(field);
    sources.set(
      key,
      read
        ? {
            get: (row, computed, context) =>
              Object.hasOwn(computed, key) ? computed[key] : read(row, computed, context),
          }
        : { computed: key },
    );
  }
  sources.set(std.created.key, { column: std.created.column });
  if (std.versioned) {
    sources.set('version', { column: 'version' });
    sources.set('updatedAt', { column: 'updated_at' });
  }
  if (std.ended) sources.set(std.ended.key, { column: std.ended.column });
  return order.map((key) => ({ key, from: sources.get(key) ?? { get: () => undefined } }));
}

const readerOf = (from: Source): Getter =>
  'column' in from
    ? (row) => row[from.column]
    : 'computed' in from
      ? (_row, computed) => computed[from.computed]
      : from.get;

/** The kysely table type of a declared record (for the `Database` interface). */
export type TableOf<R> =
  R extends DeclaredRecord<infer F, infer _X, infer L, infer A, infer V, infer I, infer C>
    ? RowOf<F, L, A, V, I, C>
    : never;

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
