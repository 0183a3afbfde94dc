import { isAbsolute, relative } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { FastifyInstance } from 'fastify';
import { ACTIONS } from '../actions/index.js';
import { type Config, settlePort } from './config.js';
import { createRuntime } from './runtime.js';
import { buildHttpApp } from './surfaces/http.js';
import { DEMO_OWNER } from './seed/demo.js';
import { readDemoDecisionShare, readDemoShare, readOwnerToken, tokenFilePath } from './local-owner.js';
import { seedFirstStart, seedFirstStartInChild } from './seed/first-start.js';
import type { Runtime } from './core/invoke.js';

export interface Started {
  app: FastifyInstance;
  rt: Runtime;
  url: string;
  /** The demo owner's token, on the start that created it (the first); never again. */
  token?: string;
  /** The demo owner's password for `/login`, on the start that created it (the first); never again, and never kept. */
  password?: string;
  /** The demo owner's email address, beside the password. */
  ownerEmail?: string;
  /** Where the demo owner's token is kept, when it is. */
  tokenFile?: string;
  /** The demo share's path (`/s/<token>`): the client's page of Harbour House. */
  sharePath?: string;
  /** The demo's decide link's path (`/s/<token>`): Harbour House's issued estimate, for its client to decide. */
  decisionPath?: string;
}

/**
 * Opens the database, seeds the demo studio on first start, and listens. With `seedScript` (the CLI's own file) the
 * demo is seeded in a child process running it (src/seed/first-start.ts says why); without, in this process.
 */
export async function serve(config: Config, opts: { seedScript?: string } = {}): Promise<Started> {
  boundHeapGrowth(config.heapGrowthPercent);
  const rt = await createRuntime(config);
  let token: string | undefined;
  let password: string | undefined;
  let tokenFile: string | undefined;
  if (!config.noDemo) {
    const seeded = opts.seedScript ? await seedFirstStartInChild(rt, opts.seedScript) : await seedFirstStart(rt);
    // The token is printed once, on the start that created it; later starts say where it is kept.
    token = seeded?.token;
    password = seeded?.password;
    if (seeded || readOwnerToken(config.databasePath)) tokenFile = tokenFilePath(config.databasePath);
  }
  const app = await buildHttpApp(rt, ACTIONS);
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  settlePort(config, port);
  const url = config.baseUrl;
  const close = async () => {
    await app.close();
    await rt.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  return {
    app,
    rt,
    url,
    token,
    password,
    ownerEmail: password ? DEMO_OWNER.email : undefined,
    tokenFile,
    sharePath: config.noDemo ? undefined : readDemoShare(config.databasePath),
    decisionPath: config.noDemo ? undefined : readDemoDecisionShare(config.databasePath),
  };
}

/**
 * A server's heap holds little live data (~25 MB: the catalog, its schemas, caches) and much short-lived garbage per
 * request. V8's own heuristics let the old generation grow to about four times what survived its last full collection
 * before collecting again, so a busy server sat at 250-290 MB after 100k requests for 23 MB of live objects. A fixed
 * growth factor keeps it near 1.5× (measured: RSS 214 → 159 MB after 33k requests, CPU per GET and PATCH unchanged
 * within noise). V8 reads this flag at every full collection, so setting it at the start of `serve` applies it.
 */
function boundHeapGrowth(percent: number) {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/** A path as the person typing commands would write it: relative to the current folder when it is inside it. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
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
    `  Database   ${s.rt.store.location}`,
    s.token && s.tokenFile
      ? `  Token      ${s.token}\n             (the demo owner's, shown on this first start only; kept in ${shown(s.tokenFile)}. Try: curl -H "Authorization: Bearer $(cat ${shown(s.tokenFile)})" ${s.url}/v1/projects)`
      : s.tokenFile
        ? `  Token      kept in ${shown(s.tokenFile)}   (the demo owner's; try: curl -H "Authorization: Bearer $(cat ${shown(s.tokenFile)})" ${s.url}/v1/projects)`
        : '  Token      create one with: npm run studio -- token create',
    ...(s.password
      ? [
          `  Password   ${s.password}\n             (${s.ownerEmail}'s, for signing in at ${s.url}/login; shown on this first start only and kept nowhere)`,
        ]
      : []),
    ...(s.sharePath
      ? [`  Client     ${s.url}${s.sharePath}   (Harbour House as the client sees it: a live share)`]
      : []),
    ...(s.decisionPath
      ? [
          `  Decision   ${s.url}${s.decisionPath}   (Harbour House's issued estimate, for the client to accept or decline)`,
        ]
      : []),
  ].join('\n');
}
