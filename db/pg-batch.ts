import pg from 'pg';
import type { Statement, WireConnection } from './pg-statement.js';

/**
 * Statements sent together and ended by one Sync, as one submittable on a pg connection. With a Sync each, PostgreSQL
 * answers each statement in its own socket write (it flushes at every Sync), and the server wakes and reads for each;
 * a write group sends five or six statements at a time (a write's UPDATE and audit INSERT with the next write's
 * savepoint and reads), so one Sync for all of them saves PostgreSQL and the server most of those writes and reads.
 *
 * Only for statements inside an explicit transaction (the write group's): without a Sync between them, statements
 * share one transaction, so an autocommit statement would no longer commit on its own. Inside a transaction nothing
 * changes but how a failure is reported: PostgreSQL skips every statement after a failed one until the Sync, where
 * with a Sync each it would answer each with "current transaction is aborted". Either way none of them ran, and here
 * each is answered with an error that says so.
 *
 * Each statement settles as soon as its own answer is complete, not at the batch's end. Every statement goes through
 * the extended protocol, parameters or not, so a text holds one statement, as the query builder and the store write
 * them (the simple protocol, which takes several, needs no Sync and cannot share one).
 */
export class Batch {
  /** The statements written to the wire, in order; `at` is the one PostgreSQL is answering now. */
  private readonly sent: Statement[] = [];
  private at = 0;

  constructor(private readonly statements: readonly Statement[]) {}

  /** The statement PostgreSQL is answering now. */
  private get current(): Statement | undefined {
    return this.sent[this.at];
  }

  /** Read by pg's client for the statement being answered: a named statement's ParseComplete marks it parsed. */
  get name(): string | undefined {
    return this.current?.name;
  }

  get text(): string | undefined {
    return this.current?.text;
  }

  submit(connection: WireConnection): null {
    for (const statement of this.statements) {
      const refused = statement.write(connection);
      if (refused) process.nextTick(() => statement.handleError(refused));
      else this.sent.push(statement);
    }
    connection.sync();
    return null;
  }

  /** The current statement's answer is complete: it settles, and the next one's answer follows. */
  private next() {
    const done = this.sent[this.at++];
    done?.handleReadyForQuery();
  }

  handleRowDescription(msg: Parameters<Statement['handleRowDescription']>[0]) {
    this.current?.handleRowDescription(msg);
  }

  handleDataRow(msg: Parameters<Statement['handleDataRow']>[0]) {
    this.current?.handleDataRow(msg);
  }

  handleCommandComplete(msg: Parameters<Statement['handleCommandComplete']>[0]) {
    this.current?.handleCommandComplete(msg);
    this.next();
  }

  handleEmptyQuery() {
    this.next();
  }

  /** The current statement failed (or the connection did): it has the error, every later one never ran. */
  handleError(err: unknown, connection?: WireConnection) {
    const failed = this.sent.slice(this.at);
    this.at = this.sent.length;
    failed[0]?.handleError(err, connection);
    for (const skipped of failed.slice(1)) {
      // A Parse skipped with it never prepared its statement: the next use must send it again.
      if (connection && skipped.name !== undefined) delete connection.submittedNamedStatements[skipped.name];
      skipped.handleError(notRun(err));
    }
  }

  handleReadyForQuery() {
    // Every statement has answered by now; one that has not was skipped without an error, which PostgreSQL never does.
    if (this.at < this.sent.length) this.handleError(new Error('PostgreSQL ended a batch before answering it whole.'));
  }

  handlePortalSuspended() {}

  handleCopyInResponse(connection: { sendCopyFail(msg: string): void }) {
    connection.sendCopyFail('COPY is not supported on this connection.');
  }

  handleCopyData() {}
}

/** The error a statement skipped after a failure in its batch answers: the transaction's, in PostgreSQL's own code. */
function notRun(cause: unknown): Error {
  const error = new Error(
    'current transaction is aborted, commands ignored until end of transaction block (an earlier statement failed)',
  );
  Object.assign(error, { code: '25P02', cause });
  return error;
}

/** As Statement: a Query to pg's pipeline check, with every method the client calls its own (see pg-statement.ts). */
Object.setPrototypeOf(Batch.prototype, pg.Query.prototype);
