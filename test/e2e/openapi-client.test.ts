/**
 * A client generated from generated/openapi.json, as the README tells an API consumer to make one: openapi-typescript
 * writes the types, TypeScript 5 typechecks the line-edit flow written against them (test/openapi-client/line-edit.ts,
 * strict, no `any`, and the shapes the server refuses refused by the compiler too), and openapi-fetch runs it against
 * the real server: create, read with its ETag, a merge patch guarded by If-Match, then the same write with the stale
 * ETag answered 409 VERSION_CONFLICT with the current version.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT, startServer, type RunningServer } from '../helpers/server.js';

const run = promisify(execFile);
const DIR = join(ROOT, 'test/openapi-client');
const BIN = join(DIR, 'node_modules/.bin');
const OUT = join(DIR, '.out');

let server: RunningServer;
beforeAll(async () => {
  if (!existsSync(join(BIN, 'openapi-typescript')))
    throw new Error(`${BIN}/openapi-typescript is missing: run npm ci (the devDependency studio-test-openapi-client)`);
  server = await startServer();
});
afterAll(async () => server?.stop());

it("serves the committed document with the server's own base URL (started on port 0, the port it got)", async () => {
  const served = (await (await fetch(`${server.url}/docs/openapi.json`)).json()) as Record<string, any>;
  const committed = JSON.parse(readFileSync(join(ROOT, 'generated/openapi.json'), 'utf8')) as Record<string, any>;
  expect(served.servers).toEqual([{ url: server.url, description: 'This server.' }]);
  expect(served.info.contact.url).toBe(`${server.url}/docs`);
  expect({ ...served, servers: committed.servers, info: committed.info }).toEqual(committed);
});

it('generates types with openapi-typescript, typechecks the line-edit flow with them, and runs it', async () => {
  mkdirSync(OUT, { recursive: true });
  await run(join(BIN, 'openapi-typescript'), ['generated/openapi.json', '-o', join(OUT, 'schema.d.ts')], { cwd: ROOT });

  // TypeScript 5, strict: a type error anywhere (an unused @ts-expect-error too) fails here, with its message.
  const tsc = await run(join(BIN, 'tsc'), ['-p', join(DIR, 'tsconfig.json')], { cwd: ROOT }).catch(
    (e: { stdout: string; stderr: string }) => ({ stdout: e.stdout, stderr: e.stderr, failed: true }),
  );
  expect(tsc.stdout + tsc.stderr, 'the generated client does not typecheck').toBe('');

  const { stdout } = await run(process.execPath, [join(OUT, 'js/line-edit.js')], {
    cwd: DIR,
    env: { ...process.env, STUDIO_URL: server.url, STUDIO_TOKEN: server.token },
  });
  const steps: Record<string, any> = Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { step: string } & Record<string, any>)
      .map((s) => [s.step, s]),
  );
  expect(steps.create).toMatchObject({ status: 201 });
  expect(steps.create.location).toMatch(new RegExp(`/items/${steps.create.id}$`));
  expect(steps.read).toMatchObject({ status: 200, version: 1 });
  expect(steps.read.etag).toMatch(/^"1-[0-9a-f]{8}-[0-9a-f]{8}"$/);
  expect(steps.update).toMatchObject({ status: 200, finish: 'Natural oak', retail: '12500000', version: 2 });
  expect(steps.update.etag).toMatch(/^"2-/);
  expect(steps.stale).toEqual({ step: 'stale', status: 409, code: 'VERSION_CONFLICT', currentVersion: 2 });
}, 120_000);
