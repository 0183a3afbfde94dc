import { createServer } from 'node:net';

/** A loopback port free at this moment, for a server that must be told its port before it starts (Prism, PostgreSQL). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as { port: number }).port;
      probe.close(() => resolve(port));
    });
  });
}
