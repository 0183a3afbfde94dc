/**
 * A share token in a path is a secret: nothing the server logs or echoes names it. The paths that carry one (`/s/…`,
 * `/v1/shares/<token>/…`) are redacted wherever a path is written into a log line or an error's sentence.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import type { Trpc } from '../helpers/clients.js';
import { redactPath } from '../../src/surfaces/redact.js';

let app: TestApp;
let owner: Trpc;
let token: string;

openTestApp((opened) => ({ app, owner } = opened));
beforeAll(async () => {
  token = (
    await owner.shares.issueProjectShare.mutate({
      projectId: app.projectId,
      commandKey: crypto.randomUUID(),
      confirm: true,
    })
  ).token!;
});

describe('share tokens in paths', () => {
  it('redactPath replaces the token of both kinds of share path, and nothing else', () => {
    expect(redactPath(`/s/${token}`)).toBe('/s/[token]');
    expect(redactPath(`/s/${token}/more?x=1`)).toBe('/s/[token]?x=1');
    expect(redactPath(`/v1/shares/${token}/document?x=1`)).toBe('/v1/shares/[token]/document?x=1');
    expect(redactPath('/v1/projects/abc/shares/def/revocation')).toBe('/v1/projects/abc/shares/def/revocation');
    expect(redactPath('/api/trpc/shares.listProjectShares')).toBe('/api/trpc/shares.listProjectShares');
  });

  it('refusals that name the path (405, 404) do not echo the token', async () => {
    // POST is a decide link's forms' (refused alike for any other link); PUT is served by nothing under /s/.
    const wrongMethod = await fetch(`${app.url}/s/${token}`, { method: 'PUT' });
    expect(wrongMethod.status).toBe(405);
    const notServed = await fetch(`${app.url}/v1/shares/${token}/nothing-here`);
    expect(notServed.status).toBe(404);
    for (const res of [wrongMethod, notServed]) {
      const body = await res.text();
      expect(body).toContain('[token]');
      expect(body).not.toContain(token);
    }
  });

  it('a failure of the share page logs its request id, never the token', async () => {
    const logged: string[] = [];
    const { log } = app.rt;
    const { readSnapshot } = app.rt.store;
    app.rt.log = (msg, err) => logged.push(`${msg} ${err instanceof Error ? err.stack : String(err)}`);
    app.rt.store.readSnapshot = () => Promise.reject(new Error('the database went away'));
    try {
      const res = await fetch(`${app.url}/s/${token}`);
      expect(res.status).toBe(500);
      expect(await res.text()).not.toContain(token);
    } finally {
      app.rt.log = log;
      app.rt.store.readSnapshot = readSnapshot;
    }
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('the share page failed');
    expect(logged[0]).not.toContain(token);
  });
});
