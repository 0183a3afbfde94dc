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
 * One listener on the server and nothing per request: node emits 'timeout' on the server only when a connection's
 * timer fires, and with a listener there it leaves the closing to the listener.
 */
export function keepConnectionsBeingAnswered(server: Server): void {
  server.on('timeout', (socket: ServerSocket) => {
    const res = socket._httpMessage;
    if (res && !res.headersSent && res.req.complete) return;
    socket.destroy();
  });
}
