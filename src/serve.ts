import type { FastifyInstance } from 'fastify';
import { ACTIONS } from '../actions/index.js';
import type { Config } from './config.js';
import { createRuntime } from './runtime.js';
import { buildHttpApp } from './surfaces/http.js';
import { seedDemo } from './seed/demo.js';
import { readOwnerToken, saveOwnerToken, tokenFilePath } from './local-owner.js';
import type { Runtime } from './core/invoke.js';

export interface Started {
  app: FastifyInstance;
  rt: Runtime;
  url: string;
  token?: string;
}

/** Opens the database, seeds the demo studio on first start, and listens. */
export async function serve(config: Config): Promise<Started> {
  const rt = await createRuntime(config);
  let token: string | undefined;
  if (!config.noDemo) {
    const seeded = await seedDemo(rt.store);
    if (seeded) saveOwnerToken(config.databasePath, seeded.token);
    token = seeded?.token ?? readOwnerToken(config.databasePath);
  }
  const app = await buildHttpApp(rt, ACTIONS);
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = config.baseUrl.replace(/:\d+$/, `:${port}`);
  const close = async () => {
    await app.close();
    await rt.store.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  return { app, rt, url, token };
}

export function banner(s: Started, config: Config): string {
  const docs = config.docsUrl.startsWith(config.baseUrl)
    ? config.docsUrl.replace(config.baseUrl, s.url)
    : config.docsUrl;
  return [
    `Studio server listening on ${s.url}`,
    `  REST API   ${s.url}/v1   (OpenAPI: ${docs}/openapi.json)`,
    `  tRPC API   ${s.url}/api/trpc`,
    `  Docs       ${docs}   (catalog: ${docs}/api/actions.json)`,
    `  Database   ${config.databasePath}`,
    s.token
      ? `  Token      ${s.token}\n             (the demo owner's; kept in ${tokenFilePath(config.databasePath)}. Try: curl -H "Authorization: Bearer $(cat ${tokenFilePath(config.databasePath)})" ${s.url}/v1/projects)`
      : '  Token      create one with: npm run studio -- token create',
  ].join('\n');
}
