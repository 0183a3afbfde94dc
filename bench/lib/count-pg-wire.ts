/**
 * The PostgreSQL half of bench/lib/count-queries.ts: reads what the server writes to PostgreSQL's port (BENCH_PG_PORT)
 * off its sockets, so it counts whatever client library and bundling the server uses, without touching src/.
 *
 * - Statements: every Bind (extended protocol, named by the text its Parse carried) and every simple Query.
 * - Round trips: the times a connection sent something while nothing it had sent was still unanswered, i.e. each time
 *   the server waited for PostgreSQL before it could go on. Statements pipelined together count as one.
 * Counted per connection role: `writer` (the connection that takes the writer lock) and `reader` (everything else).
 */
import net from 'node:net';

export interface WireCounts {
  statements: Record<string, number>;
  roundTrips: { writer: number; reader: number };
}

interface SocketState {
  outstanding: boolean;
  roundTrips: number;
  writer: boolean;
  /** Prepared statement name → its text, from this connection's Parse messages. */
  named: Map<string, string>;
  started: boolean;
}

const port = Number(process.env.BENCH_PG_PORT);
const states = new WeakMap<net.Socket, SocketState>();
const all = new Set<SocketState>();
const statements = new Map<string, number>();
const bump = (text: string) => statements.set(text, (statements.get(text) ?? 0) + 1);

function cstring(buf: Buffer, at: number): [string, number] {
  const end = buf.indexOf(0, at);
  return [buf.toString('utf8', at, end), end + 1];
}

/** Walks the frontend messages in one write: type byte, int32 length (itself included), body. */
function readMessages(s: SocketState, buf: Buffer) {
  let at = 0;
  if (!s.started) {
    // The startup (or SSL request) message has no type byte.
    s.started = true;
    return;
  }
  while (at + 5 <= buf.length) {
    const type = String.fromCharCode(buf[at]!);
    const len = buf.readInt32BE(at + 1);
    const body = at + 5;
    if (type === 'P') {
      const [name, next] = cstring(buf, body);
      const [text] = cstring(buf, next);
      if (text.includes('pg_advisory_xact_lock')) s.writer = true;
      s.named.set(name, text);
    } else if (type === 'B') {
      const [, next] = cstring(buf, body);
      const [statement] = cstring(buf, next);
      bump(s.named.get(statement) ?? `(unknown statement ${statement})`);
    } else if (type === 'Q') {
      const [text] = cstring(buf, body);
      if (text.includes('pg_advisory_xact_lock')) s.writer = true;
      bump(text);
    }
    at += 1 + len;
  }
}

if (port) {
  const write = net.Socket.prototype.write as (...args: unknown[]) => boolean;
  net.Socket.prototype.write = function (this: net.Socket, chunk: unknown, ...rest: unknown[]) {
    if (this.remotePort === port && Buffer.isBuffer(chunk)) {
      let s = states.get(this);
      if (!s) {
        s = { outstanding: false, roundTrips: 0, writer: false, named: new Map(), started: false };
        states.set(this, s);
        all.add(s);
        const state = s;
        this.on('data', () => {
          state.outstanding = false;
        });
      }
      if (!s.outstanding) {
        s.roundTrips += 1;
        s.outstanding = true;
      }
      try {
        readMessages(s, chunk);
      } catch {
        // A write this reader does not understand is left uncounted, never allowed to break the server.
      }
    }
    return write.call(this, chunk, ...rest);
  } as typeof net.Socket.prototype.write;
}

export function wireCounts(): WireCounts {
  const roundTrips = { writer: 0, reader: 0 };
  for (const s of all) roundTrips[s.writer ? 'writer' : 'reader'] += s.roundTrips;
  return { statements: Object.fromEntries(statements), roundTrips };
}
