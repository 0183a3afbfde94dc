import type { Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll } from 'vitest';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { ACTIONS } from '../../actions/index.js';
import { loadConfig, settlePort } from '../../src/config.js';
import { createRuntime } from '../../src/runtime.js';
import { buildHttpApp } from '../../src/surfaces/http.js';
import { createMcpServer } from '../../src/surfaces/mcp/server.js';
import { seedDemo } from '../../src/seed/demo.js';
import type { Runtime } from '../../src/core/invoke.js';
import { trpc, type Trpc } from './clients.js';
import { freshDatabase } from './test-database.js';

export interface TestApp {
  url: string;
  token: string;
  /** The demo owner's password for the sign-in page (alex@hartley-rowe.example), as the first start prints it. */
  ownerPassword: string;
  /** The app's database: a file path, or a postgres:// URL in the suite's `postgres` project (see test-database.ts). */
  database: string;
  rt: Runtime;
  /** The node HTTP server under fastify (to see its connections arrive). */
  httpServer: Server;
  projectId: string;
  /**
   * An MCP client connected in memory to a server acting for `token`'s member, declaring `capabilities` at initialize
   * (elicitation: it can ask its user; set the request handler on it before calling).
   */
  mcp(token?: string, capabilities?: ClientCapabilities): Promise<Client>;
  close(): Promise<void>;
}

/**
 * The whole HTTP server in this process on a free port, over a fresh database with the demo studio: real fastify,
 * real tRPC and REST routes, a real SQLite file or PostgreSQL database. For tests that exercise many calls quickly; e2e
 * tests spawn the process.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const db = await freshDatabase();
  const config = {
    ...loadConfig({ ...db.env, STUDIO_PORT: '0', STUDIO_LOG_LEVEL: 'silent', ...env }),
    logLevel: 'silent' as const,
  };
  const rt = await createRuntime(config);
  const seeded = await seedDemo(rt.store);
  const app = await buildHttpApp(rt, ACTIONS);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  settlePort(rt.config, port);
  const url = `http://127.0.0.1:${port}`;
  const clients: Client[] = [];
  return {
    url,
    token: seeded!.token,
    ownerPassword: seeded!.password,
    database: db.locator,
    rt,
    httpServer: app.server,
    projectId: seeded!.projectId,
    async mcp(token = seeded!.token, capabilities: ClientCapabilities = {}) {
      const server = createMcpServer(rt, ACTIONS, { token });
      const [a, b] = InMemoryTransport.createLinkedPair();
      const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities });
      await server.connect(a);
      await client.connect(b);
      clients.push(client);
      return client;
    },
    async close() {
      for (const c of clients) await c.close();
      await app.close();
      await rt.close();
      await db.drop();
    },
  };
}

/** A fresh test app and its owner's typed tRPC client: how the procedure suites start. */
export async function createTestAppAsOwner(): Promise<{ app: TestApp; owner: Trpc }> {
  const app = await createTestApp();
  return { app, owner: trpc(app.url, app.token) };
}

/** A suite app's environment, or a function answering it when the app is made (after earlier hooks ran). */
type AppEnv = Record<string, string> | (() => Record<string, string>);

/** Registers the hooks of a suite's app: made (with `make`'s extras) and handed to `take` before the file's tests, closed after. */
function openWith<T>(env: AppEnv | undefined, make: (app: TestApp) => Promise<T>, take: (t: T) => void) {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await createTestApp(typeof env === 'function' ? env() : env);
    take(await make(app));
  });
  afterAll(async () => app?.close());
}

/**
 * How a suite opens its app: before the file's first test, a fresh test app (`createTestApp(env)`) and its owner's typed
 * tRPC client are handed to `take`, which keeps the ones the tests use; after the file's last test, the app is closed.
 * A beforeAll the file registers later runs after this one, so it can use them.
 */
export function openTestApp(take: (opened: { app: TestApp; owner: Trpc }) => void, env?: AppEnv) {
  openWith(env, async (app) => ({ app, owner: trpc(app.url, app.token) }), take);
}

/** `openTestApp`, with an MCP client connected in memory as the owner besides (`app.mcp()`). */
export function openTestAppWithMcp(take: (opened: { app: TestApp; owner: Trpc; mcp: Client }) => void, env?: AppEnv) {
  openWith(env, async (app) => ({ app, owner: trpc(app.url, app.token), mcp: await app.mcp() }), take);
}
