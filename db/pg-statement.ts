import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';
import { type RowBuilder, type ValueParser, rowBuilder } from './row-builder.js';

/**
 * One statement on a pg connection, sent through pg's public extension point for queries (a "submittable": an object
 * with `submit(connection)` and the `handle…` callbacks the client calls for each answer), in place of pg's general
 * `Query`. What it leaves out is what a server sending the same few statements thousands of times a second pays for
 * and does not need (measured at about a quarter of the server's CPU per PATCH on PostgreSQL):
 *
 * - A named statement's result columns are described once per connection. pg asks for a RowDescription on every
 *   execution (Describe) and builds a fresh row template and parser list from it; here the Describe goes with the first
 *   execution on a connection only, and its columns become a row builder kept for that prepared statement. A prepared
 *   statement's result type cannot change while it exists (PostgreSQL refuses to run it instead: "cached plan must not
 *   change result type"), so the kept description stays true for as long as the statement does.
 * - Rows are built by a function made for the columns (db/row-builder.ts), not by copying a template and storing each
 *   column by name.
 * - No copy of the query config, no EventEmitter per statement, one callback.
 *
 * Statements without parameters (BEGIN, COMMIT, SAVEPOINT …) sent on their own go through the simple query protocol,
 * as before; in a Batch (db/pg-batch.ts) every statement goes through the extended protocol.
 */

/** What a statement answers: the parts of pg's Result that the store and Kysely read. */
export interface StatementResult {
  command: string | null;
  rowCount: number | null;
  rows: Record<string, unknown>[];
}

interface Field {
  name: string;
  dataTypeID: number;
  format?: string;
}

/** pg-protocol's Connection, as far as a statement drives it. */
export interface WireConnection {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  query(text: string): void;
  parse(q: { text: string; name: string }): void;
  bind(b: {
    statement: string;
    portal: string;
    values: readonly unknown[];
    valueMapper: (v: unknown) => unknown;
  }): void;
  describe(d: { type: 'P'; name: string }): void;
  execute(e: { portal: string }): void;
  sync(): void;
}

/** Row builders by prepared statement name, per connection (each connection prepares its own statements). */
const describedOn = new WeakMap<WireConnection, Map<string, RowBuilder>>();

/**
 * Prepared statements a connection must stop using, by the name the store gives them, with the name to prepare them
 * under instead. PostgreSQL refuses to run a prepared statement whose result columns changed since it was prepared
 * (another process migrated the table under a `SELECT *`: "cached plan must not change result type", 0A000), and the
 * name stays taken on that connection; the next execution prepares the same text afresh under a new name, so one
 * execution fails instead of every one for as long as the connection lives.
 */
const replacedOn = new WeakMap<WireConnection, Map<string, string>>();
const RESULT_TYPE_CHANGED = '0A000';
let replacements = 0;

/** Column-wise parsers as pg would pick them (pg.types, with the INT8 parser the store sets); no statement asks for binary. */
const parserFor = (field: Field): ValueParser => pg.types.getTypeParser(field.dataTypeID, 'text') as ValueParser;

/**
 * Row builders by the columns they build, so that a shape is compiled once per process however many connections and
 * statements (BEGIN's advisory lock, unnamed statements) describe it. Bounded: past it, builders are made and not kept.
 */
const builders = new Map<string, RowBuilder>();
function builderFor(fields: readonly Field[]): RowBuilder {
  let key = '';
  for (const f of fields) key += `${f.dataTypeID}:${f.name}\u0000`;
  let build = builders.get(key);
  if (!build) {
    build = rowBuilder(
      fields.map((f) => f.name),
      fields.map(parserFor),
    );
    if (builders.size < 1000) builders.set(key, build);
  }
  return build;
}

const COMMAND_TAG = /^([A-Za-z]+)(?: (\d+))?(?: (\d+))?/;

/** The builder of a statement that returns no rows: a row for it would be a protocol error. */
const RETURNS_NO_ROWS: RowBuilder = () => {
  throw new Error('PostgreSQL sent a row for a statement that returns none.');
};

export class Statement {
  private readonly result: StatementResult = { command: null, rowCount: null, rows: [] };
  private build: RowBuilder | undefined;
  /** Where this execution's description is to be kept (a named statement's first execution on a connection). */
  private describedOn: Map<string, RowBuilder> | undefined;
  private failure: unknown;
  /** Read by pg's client: a named statement's name and text mark it parsed on the connection (see replacedOn). */
  name: string | undefined;
  readonly text: string;
  /** The name the store gave the statement, before any replacement on a connection. */
  private readonly givenName: string | undefined;

  constructor(
    text: string,
    private readonly values: readonly unknown[] | undefined,
    name: string | undefined,
    public callback: (err: unknown, result?: StatementResult) => void,
  ) {
    this.text = text;
    this.name = name;
    this.givenName = name;
  }

  submit(connection: WireConnection): Error | null {
    // Without values, on its own: a simple query, which needs no Sync.
    if (!this.values?.length) {
      this.name = undefined;
      connection.query(this.text);
      return null;
    }
    const refused = this.write(connection);
    if (!refused) connection.sync();
    return refused;
  }

  /**
   * Writes the statement's messages in the extended protocol, without the Sync that ends them: `submit` adds one, and
   * a Batch one for all of its statements.
   */
  write(connection: WireConnection): Error | null {
    const name =
      this.givenName === undefined ? undefined : (replacedOn.get(connection)?.get(this.givenName) ?? this.givenName);
    this.name = name;
    if (!this.values?.length || name === undefined) return this.writeUnnamed(connection);
    const known = connection.parsedStatements[name] ?? connection.submittedNamedStatements[name];
    if (known !== undefined && known !== this.text)
      return new Error(`Prepared statement ${name} was already used for a different statement.`);
    if (known === undefined) {
      connection.parse({ text: this.text, name });
      connection.submittedNamedStatements[name] = this.text;
    }
    connection.bind({ statement: name, portal: '', values: this.values, valueMapper: pgUtils.prepareValue });
    let described = describedOn.get(connection);
    if (!described) describedOn.set(connection, (described = new Map()));
    this.build = described.get(name);
    // Described once per connection: the first run's columns are kept, or that it had none.
    if (!this.build) {
      this.describedOn = described;
      connection.describe({ type: 'P', name: '' });
    }
    connection.execute({ portal: '' });
    return null;
  }

  /** A statement run unnamed (parsed, described and run, as pg's Query does): past the naming bound, or in a batch. */
  private writeUnnamed(connection: WireConnection): null {
    // Parsed unnamed, so never recorded as a prepared statement of the connection.
    this.name = undefined;
    connection.parse({ text: this.text, name: '' });
    connection.bind({ statement: '', portal: '', values: this.values ?? [], valueMapper: pgUtils.prepareValue });
    connection.describe({ type: 'P', name: '' });
    connection.execute({ portal: '' });
    return null;
  }

  handleRowDescription(msg: { fields: Field[] }) {
    this.build = builderFor(msg.fields);
    if (this.describedOn && this.name !== undefined) this.describedOn.set(this.name, this.build);
  }

  handleDataRow(msg: { fields: Array<string | null> }) {
    if (this.failure) return;
    try {
      // Every result is described before its rows (the simple protocol always; a named statement on its first run on
      // the connection), so a row without a builder cannot arrive; were it to, it fails the statement.
      if (!this.build) throw new Error('PostgreSQL sent a row before describing its columns.');
      this.result.rows.push(this.build(msg.fields));
    } catch (err) {
      this.failure = err;
    }
  }

  handleCommandComplete(msg: { text?: string; command?: string }) {
    // Described and no columns came (an INSERT or UPDATE without RETURNING answers NoData, which pg does not pass
    // on): the statement never returns rows, so it is not described again.
    if (this.describedOn && !this.build && this.name !== undefined) this.describedOn.set(this.name, RETURNS_NO_ROWS);
    const match = COMMAND_TAG.exec(msg.text ?? msg.command ?? '');
    if (!match) return;
    this.result.command = match[1]!;
    const count = match[3] ?? match[2];
    if (count !== undefined) this.result.rowCount = Number.parseInt(count, 10);
  }

  handleEmptyQuery() {}

  handleError(err: unknown, connection?: WireConnection) {
    if (connection && this.givenName !== undefined && (err as { code?: string })?.code === RESULT_TYPE_CHANGED) {
      let replaced = replacedOn.get(connection);
      if (!replaced) replacedOn.set(connection, (replaced = new Map()));
      replaced.set(this.givenName, `${this.givenName}_r${++replacements}`);
    }
    const callback = this.callback;
    // The client may report a lost connection after an error already answered: answer once.
    this.callback = () => undefined;
    callback(this.failure ?? err);
  }

  handleReadyForQuery() {
    if (this.failure) return this.handleError(this.failure);
    const callback = this.callback;
    this.callback = () => undefined;
    callback(null, this.result);
  }

  handlePortalSuspended() {}

  handleCopyInResponse(connection: { sendCopyFail(msg: string): void }) {
    connection.sendCopyFail('COPY is not supported on this connection.');
  }

  handleCopyData() {}
}

/**
 * pg refuses submittables other than its own Query on a pipelined connection, because pg-cursor and pg-query-stream
 * keep a portal open across round trips and would take the answers meant for the statements behind them. A Statement
 * runs to completion in one Execute and one Sync, exactly as a Query does, so it passes as one: it inherits Query's
 * prototype (for that check) without its constructor, and overrides every method the client calls.
 */
Object.setPrototypeOf(Statement.prototype, pg.Query.prototype);
