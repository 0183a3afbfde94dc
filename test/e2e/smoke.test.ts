import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { http } from '../helpers/clients.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

describe('first start', () => {
  it('serves the demo studio with Harbour House to the printed token', async () => {
    const res = await http(server.url, 'GET', '/v1/projects', { token: server.token });
    expect(res.status).toBe(200);
    expect(res.body.items.map((p: { name: string }) => p.name)).toContain('Harbour House');
  });

  it('refuses a request without a token with 401 UNAUTHENTICATED', async () => {
    const res = await http(server.url, 'GET', '/v1/projects');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHENTICATED');
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });
});
