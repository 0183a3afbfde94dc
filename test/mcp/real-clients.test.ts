/**
 * Real MCP clients against the real server: the MCP conformance suite and the MCP Inspector CLI. Both need Node 22,
 * fetched with npx from the npm registry, so this file runs only when asked (it downloads on its first run):
 *
 *   STUDIO_MCP_REAL_CLIENTS=1 npx vitest run test/mcp/real-clients.test.ts
 *
 * The conformance suite cannot send a bearer token, so it reaches /mcp through a loopback proxy that adds one and
 * forwards everything else untouched (Host and Origin included); the server keeps its real authentication.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/in-process.js';
import { http } from '../helpers/clients.js';
import { ROOT } from '../helpers/server.js';
import { authProxy } from './auth-proxy.js';

const enabled = process.env.STUDIO_MCP_REAL_CLIENTS === '1';
const CONFORMANCE = '@modelcontextprotocol/conformance@0.1.16';
const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
const TEN_MINUTES = 600_000;

/** Runs `npx -p node@22 -p <pkg> -c <command>` and collects its exit code and output. */
function npx22(pkg: string, command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['-y', '-p', 'node@22', '-p', pkg, '-c', command], { cwd: ROOT, env: process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

let app: TestApp;
let proxy: Awaited<ReturnType<typeof authProxy>>;
beforeAll(async () => {
  if (!enabled) return;
  app = await createTestApp();
  proxy = await authProxy(app.url, app.token);
});
afterAll(async () => {
  await proxy?.close();
  await app?.close();
});

describe.skipIf(!enabled)('real MCP clients', () => {
  it(
    'the conformance suite: generic scenarios pass, fixture-specific ones are exactly the baseline',
    async () => {
      const run = await npx22(CONFORMANCE, `conformance server --url ${proxy.url}/mcp --suite active --expected-failures ${quote(join(ROOT, 'conformance-baseline.yml'))}`);
      const out = run.stdout + run.stderr;
      const summary = out.slice(out.indexOf('=== SUMMARY ==='));
      console.log(summary.split('\n').filter((l) => /^Total|Baseline|✓|✗/.test(l.trim())).slice(-3).join('\n'));
      expect(run.code, summary).toBe(0);
      for (const generic of ['server-initialize', 'ping', 'tools-list', 'resources-list', 'logging-set-level', 'dns-rebinding-protection']) {
        expect(summary, generic).toMatch(new RegExp(`✓ ${generic}: [1-9]\\d* passed, 0 failed`));
      }
    },
    TEN_MINUTES,
  );

  it(
    'the Inspector CLI over Streamable HTTP: tools/list (strict portability check) and tools/call',
    async () => {
      const target = `${app.url}/mcp --transport http --header ${quote(`Authorization: Bearer ${app.token}`)}`;
      const list = await npx22(INSPECTOR, `mcp-inspector --cli ${target} --method tools/list --strict`);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stderr).not.toMatch(/^(Warning|Error): tool/m);
      expect((JSON.parse(list.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain('read_action_result');
      const line = (await http(app.url, 'GET', `/v1/projects/${app.projectId}/items?limit=1`, { token: app.token })).body.items[0];
      const call = await npx22(INSPECTOR, `mcp-inspector --cli ${target} --method tools/call --tool-name get_line --tool-arg projectId=${app.projectId} --tool-arg itemId=${line.id}`);
      expect(call.code, call.stderr).toBe(0);
      expect(JSON.parse(call.stdout).structuredContent).toMatchObject({ id: line.id, etag: `"${line.version}"` });
    },
    TEN_MINUTES,
  );

  it(
    'the Inspector CLI over stdio, spawned as mcp.json says: tools/list and tools/call',
    async () => {
      // The server runs on this Node (20), not the Inspector's: better-sqlite3 is built for it.
      const target = `--cwd ${quote(ROOT)} -e STUDIO_DATABASE=${quote(app.dbPath)} -e STUDIO_TOKEN=${app.token} ${quote(process.execPath)} dist/src/cli.js mcp`;
      const list = await npx22(INSPECTOR, `mcp-inspector --cli ${target} --method tools/list`);
      expect(list.code, list.stderr).toBe(0);
      expect((JSON.parse(list.stdout) as { tools: unknown[] }).tools.length).toBeGreaterThanOrEqual(9);
      const call = await npx22(INSPECTOR, `mcp-inspector --cli ${target} --method tools/call --tool-name search_actions --tool-arg ${quote('query=rename a room')}`);
      expect(call.code, call.stderr).toBe(0);
      expect(JSON.stringify(JSON.parse(call.stdout).structuredContent)).toContain('update_schedule_section');
      // An isError result (here: a tool that does not exist) exits 5.
      const missing = await npx22(INSPECTOR, `mcp-inspector --cli ${target} --method tools/call --tool-name test_simple_text`);
      expect(missing.code).toBe(5);
    },
    TEN_MINUTES,
  );
});
