import { createServer, request, type Server } from 'node:http';

/**
 * A loopback proxy that adds `Authorization: Bearer <token>` to every request and forwards everything else untouched
 * (Host and Origin included, so DNS-rebinding checks reach the server as sent). For real MCP clients that cannot send
 * a header themselves, such as the conformance suite; the server under test keeps its real authentication.
 */
export async function authProxy(target: string, token: string): Promise<{ url: string; close(): Promise<void> }> {
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    const upstream = request(
      {
        host: to.hostname,
        port: to.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, authorization: `Bearer ${token}` },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
