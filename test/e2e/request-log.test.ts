/**
 * The request log of the real server process (`STUDIO_LOG_LEVEL=info`): requests with a bearer token, a share link's
 * token (its page and its API), and a password sign-in with its session cookie, then the process's stdout is read. Each
 * request is exactly one parseable JSON line with method, route, redacted path, status, duration and request id (the
 * studio too when a token named it), and no secret sent (token, share token, password, cookie, form token) appears
 * anywhere in what the process printed after its banner, nor on stderr.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getPage, postForm } from '../members/page-client.js';
import { CLI, openServer, ROOT, type RunningServer } from '../helpers/server.js';

let server: RunningServer;
openServer((started) => (server = started), { STUDIO_LOG_LEVEL: 'info' });

/** What the process printed after its banner (the first start's banner shows the token and password, by design). */
function logText(): string {
  const out = server.stdout();
  // The banner ends with the demo's links: the client's, and the estimate's decision link when there is one.
  const banner = /Studio server listening on[\s\S]*?\n {2}Client[^\n]*\n( {2}Decision[^\n]*\n)?/.exec(out);
  expect(banner, out).not.toBeNull();
  return out.slice(0, banner!.index) + out.slice(banner!.index + banner![0].length);
}

const requestLines = () =>
  logText()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>)
    .filter((entry) => entry.msg === 'request');

/** Waits until the process has written `n` request lines (a line is written once its answer has gone). */
async function untilLines(n: number) {
  for (let i = 0; i < 100 && requestLines().length < n; i++) await new Promise((r) => setTimeout(r, 50));
  return requestLines();
}

describe('request logs', () => {
  it('one JSON line per request, with its fields, and no secret anywhere in the log', async () => {
    const shareToken = new URL(server.clientUrl!).pathname.slice('/s/'.length);
    await (await fetch(`${server.url}/v1/projects`, { headers: { authorization: `Bearer ${server.token}` } })).text();
    await (await fetch(server.clientUrl!)).text();
    await (await fetch(`${server.url}/v1/shares/${shareToken}/document`)).text();
    const form = await getPage(`${server.url}/login`);
    const signedIn = await postForm(
      `${server.url}/login`,
      { form_token: form.formToken!, email: 'alex@hartley-rowe.example', password: server.password! },
      form.cookies,
    );
    expect(signedIn.status).toBe(303);
    await getPage(`${server.url}/login`, signedIn.cookies);
    await (await fetch(`${server.url}/health/ready`)).text();

    const lines = await untilLines(7);
    expect(lines.map((l) => `${l.method} ${l.path} ${l.status}`)).toEqual([
      'GET /v1/projects 200',
      'GET /s/[token] 200',
      'GET /v1/shares/[token]/document 200',
      'GET /login 200',
      'POST /login 303',
      'GET /login 200',
      'GET /health/ready 200',
    ]);
    expect(lines.map((l) => l.route)).toEqual([
      '/v1/projects',
      '/s/*',
      '/v1/shares/:token/document',
      '/login',
      '/login',
      '/login',
      '/health/ready',
    ]);
    for (const line of lines) {
      expect(line.level).toBe(30);
      expect(typeof line.time).toBe('number');
      expect(typeof line.ms).toBe('number');
      expect(line.requestId).toMatch(/^\w+$/);
    }
    expect(new Set(lines.map((l) => l.requestId)).size).toBe(lines.length);
    // The studio is the token's; a share link, a page and a health check name none.
    const me = (await (
      await fetch(`${server.url}/api/trpc/account.getCurrentUser`, {
        headers: { authorization: `Bearer ${server.token}` },
      })
    ).json()) as { result: { data: { studio: { id: string } } } };
    expect(lines[0]!.studioId).toBe(me.result.data.studio.id);
    for (const line of lines.slice(1)) expect(line.studioId).toBeUndefined();

    // Every line the process wrote after its banner is JSON, and no secret it was sent is in any of them.
    const log = logText() + server.stderr();
    const secrets = [server.token, shareToken, server.password!, form.formToken!, ...signedIn.cookies.values()];
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(log.includes(secret), `a secret is in the log: ${secret.slice(0, 6)}…`).toBe(false);
    }
  });

  it('a problem names the request id its log line carries', async () => {
    const res = await fetch(`${server.url}/v1/projects`);
    const problem = (await res.json()) as { requestId: string };
    const lines = await untilLines(9);
    const line = lines.find((l) => l.requestId === problem.requestId);
    expect(line).toMatchObject({ method: 'GET', route: '/v1/projects', status: 401 });
    expect(line!.studioId).toBeUndefined();
  });
});

describe('studio --version', () => {
  it("prints the package's version", () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(execFileSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' }).trim()).toBe(version);
  });
});
