/**
 * Real MCP clients against the real server: the MCP conformance suite and the MCP Inspector CLI. Both need Node 22;
 * they, and a Node 22 binary, are devDependencies (test/mcp/node22-clients.ts), so `npm ci` brings everything and nothing is
 * fetched here.
 *
 * The conformance suite cannot send a bearer token, so it reaches /mcp through a loopback proxy that adds one and
 * forwards everything else untouched (Host and Origin included); the server keeps its real authentication.
 */
import { databaseEnv } from '../helpers/test-database.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/in-process.js';
import { ROOT } from '../helpers/server.js';
import { authProxy } from './auth-proxy.js';
import { CONFORMANCE, INSPECTOR, runOnNode22 } from './node22-clients.js';
import { firstItem } from '../helpers/schedule.js';

// Generous: a cold Node 22 start and the suite's ~30 scenarios on a loaded 2-core machine; nothing here is timed.
const FIVE_MINUTES = 300_000;

let app: TestApp;
let proxy: Awaited<ReturnType<typeof authProxy>>;
// The clients keep state under the home folder (the Inspector: ~/.mcp-inspector/ catalog, storage and secrets); give
// them a fresh one, so a run neither reads a developer's settings nor leaves files behind.
const home = mkdtempSync(join(tmpdir(), 'studio-mcp-clients-'));
const clientEnv = { HOME: home, USERPROFILE: home, MCP_INSPECTOR_SECRET_STORE: 'memory' };

beforeAll(async () => {
  app = await createTestApp();
  proxy = await authProxy(app.url, app.token);
});
afterAll(async () => {
  await proxy?.close();
  await app?.close();
  rmSync(home, { recursive: true, force: true });
});

const inspector = (target: string[], ...args: string[]) =>
  runOnNode22(INSPECTOR, ['--cli', ...target, ...args], clientEnv);

describe('real MCP clients', () => {
  it(
    'the conformance suite: generic scenarios pass, fixture-specific ones are exactly the baseline',
    async () => {
      const args = [
        'server',
        '--url',
        `${proxy.url}/mcp`,
        '--suite',
        'active',
        '--expected-failures',
        join(ROOT, 'conformance-baseline.yml'),
      ];
      const run = await runOnNode22(CONFORMANCE, args, clientEnv);
      const out = run.stdout + run.stderr;
      const summary = out.slice(out.indexOf('=== SUMMARY ==='));
      // The tally for the record: every scenario with its checks, then the baseline verdict.
      console.log(
        summary
          .split('\n')
          .filter((l) => /^(Total|Baseline|✓|✗|~)/.test(l.trim()))
          .join('\n'),
      );
      expect(run.code, summary).toBe(0);
      for (const generic of [
        'server-initialize',
        'ping',
        'tools-list',
        'resources-list',
        'logging-set-level',
        'dns-rebinding-protection',
      ]) {
        expect(summary, generic).toMatch(new RegExp(`✓ ${generic}: [1-9]\\d* passed, 0 failed`));
      }
    },
    FIVE_MINUTES,
  );

  it(
    'the Inspector CLI over Streamable HTTP: tools/list (strict portability check) and tools/call',
    async () => {
      const target = [`${app.url}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${app.token}`];
      const list = await inspector(target, '--method', 'tools/list', '--strict');
      expect(list.code, list.stderr).toBe(0);
      expect(list.stderr).not.toMatch(/^(Warning|Error): tool/m);
      expect((JSON.parse(list.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain(
        'read_action_result',
      );
      const line = await firstItem(app);
      const call = await inspector(
        target,
        '--method',
        'tools/call',
        '--tool-name',
        'get_line',
        '--tool-arg',
        `projectId=${app.projectId}`,
        '--tool-arg',
        `itemId=${line.id}`,
      );
      expect(call.code, call.stderr).toBe(0);
      expect(JSON.parse(call.stdout).structuredContent).toMatchObject({
        id: line.id,
        etag: expect.stringMatching(new RegExp(`^"${line.version}-[0-9a-f]{8}-[0-9a-f]{8}"$`)),
      });
    },
    FIVE_MINUTES,
  );

  it(
    'the Inspector CLI over stdio, spawned as mcp.json says: tools/list and tools/call',
    async () => {
      // The server runs on this Node (the project's), not the Inspector's: better-sqlite3 is built for it.
      const target = [
        '--cwd',
        ROOT,
        ...Object.entries(databaseEnv(app.database)).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
        '-e',
        `STUDIO_TOKEN=${app.token}`,
        process.execPath,
        'dist/studio.mjs',
        'mcp',
      ];
      const list = await inspector(target, '--method', 'tools/list');
      expect(list.code, list.stderr).toBe(0);
      expect((JSON.parse(list.stdout) as { tools: unknown[] }).tools.length).toBeGreaterThanOrEqual(9);
      const call = await inspector(
        target,
        '--method',
        'tools/call',
        '--tool-name',
        'search_actions',
        '--tool-arg',
        'query=rename a room',
      );
      expect(call.code, call.stderr).toBe(0);
      expect(JSON.stringify(JSON.parse(call.stdout).structuredContent)).toContain('update_schedule_section');
      // An isError result (here: a tool that does not exist) exits 5.
      const missing = await inspector(target, '--method', 'tools/call', '--tool-name', 'test_simple_text');
      expect(missing.code).toBe(5);
    },
    FIVE_MINUTES,
  );
});
