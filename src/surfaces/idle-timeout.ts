import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** A server's socket as node keeps it: the response being written on it, which node's own timeout handler reads too. */
type ServerSocket = Socket & { _httpMessage?: ServerResponse | null };

/**
 * The idle timeout (`server.timeout`, fastify's `connectionTimeout`) closes a connection on which nothing moved for
 * that long; node's keep-alive timeout between requests reports the same way. But a connection is silent too while
 * the server works on the answer to a request that has arrived whole (a large read, a slow query, a slow mail server):
 * closing it then is the server's delay blamed on the client, who sees a reset instead of the answer. So such a
 * connection is left open, and its answer goes out when ready (writing it times the connection afresh); every other
 * silent one is closed as node would close it: idle between requests, a request that stopped arriving, or an answer
 * the client stopped reading. A client trickling its request is cut off by the headers and request timeouts instead.
 *
 * A connection is spared this way for at most MOST_SPARED idle timeouts on one answer.
 *
 * One listener on the server and nothing per request: node emits 'timeout' on the server only when a connection's
 * timer fires, and with a listener there it leaves the closing to the listener.
 */
export function keepConnectionsBeingAnswered(server: Server): void {
  const spared = new WeakMap<Socket, { res: ServerResponse; times: number }>();
  server.on('timeout', (socket: ServerSocket) => {
    const res = socket._httpMessage;
    if (res && !res.headersSent && res.req.complete) {
      const waiting = spared.get(socket);
      if (waiting?.res !== res) spared.set(socket, { res, times: 1 });
      else if (++waiting.times > MOST_SPARED) return void socket.destroy();
      // A socket's timer fires once; it is set again so a wait that goes on is counted (writing the answer resets it).
      socket.setTimeout(server.timeout);
      return;
    }
    socket.destroy();
  });
}

/**
 * How many idle timeouts in a row a connection may spend waiting on one answer: ten minutes at the default minute.
 * Work that long is an operation (202, then polled); an answer that never comes (a handler stuck on something that
 * will not return) must not hold its connection for good.
 */
export const MOST_SPARED = 10;
