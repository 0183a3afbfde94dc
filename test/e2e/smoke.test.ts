import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type RunningServer, openServer } from '../helpers/server.js';
import { http } from '../helpers/clients.js';
import { getPage, postForm } from '../members/page-client.js';

let server: RunningServer;
openServer((started) => (server = started));

describe('first start', () => {
  // First, before any request could need them: rendering the demo's photographs and documents loads libvips, librsvg
  // and fontconfig and leaves about 75 MB of native memory behind, which the serving process must not carry.
  it.skipIf(!existsSync('/proc/self/maps'))(
    'seeded the demo in a process of its own: the serving process maps no image or PDF library',
    () => {
      const maps = readFileSync(`/proc/${server.proc.pid}/maps`, 'utf8');
      expect(maps).not.toMatch(/libvips|librsvg|libfontconfig/);
    },
  );

  it('serves the demo studio with Harbour House to the printed token', async () => {
    const res = await http(server.url, 'GET', '/v1/projects', { token: server.token });
    expect(res.status).toBe(200);
    expect(res.body.items.map((p: { name: string }) => p.name)).toContain('Harbour House');
  });

  it('prints the demo share: Harbour House as the client sees it, photographs and all, without a token', async () => {
    expect(server.clientUrl).toMatch(/\/s\/share_[\w-]{43}$/);
    const page = await fetch(server.clientUrl!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('Hartley &amp; Rowe Interiors');
    const projects = await http(server.url, 'GET', '/v1/projects', { token: server.token });
    const projectId = projects.body.items[0].id;
    const doc = await http(server.url, 'GET', `/v1/projects/${projectId}/client-document`, { token: server.token });
    expect(doc.body.photographsAsOf).not.toBeNull();
    const pictured = doc.body.sections.flatMap((s: { pieces: Array<{ photographs: unknown[] }> }) =>
      s.pieces.filter((p) => p.photographs.length),
    );
    expect(pictured.length).toBeGreaterThanOrEqual(5);
  });

  it("prints the demo's decide link: Harbour House's issued estimate, for the client to accept or decline", async () => {
    expect(server.decisionUrl).toMatch(/\/s\/share_[\w-]{43}$/);
    const page = await fetch(server.decisionUrl!);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/Estimate \d+, revision 1/);
    // The demo has no mail server: the page says the studio records the decision.
    expect(html).toContain('Tell the studio your decision');
    const token = server.decisionUrl!.split('/s/')[1];
    const shown = await http(server.url, 'GET', `/v1/shares/${token}/document`);
    expect(shown.body).toMatchObject({ intent: 'decide', estimateRevision: { revision: { state: 'current' } } });
  });

  it("prints the demo owner's password once, which signs them in at /login", async () => {
    expect(server.password).toMatch(/^[a-z2-9]{20}$/);
    const form = await getPage(`${server.url}/login`);
    const signedIn = await postForm(
      `${server.url}/login`,
      { form_token: form.formToken!, email: 'alex@hartley-rowe.example', password: server.password! },
      form.cookies,
    );
    expect(signedIn.status).toBe(303);
    expect((await getPage(`${server.url}/login`, signedIn.cookies)).html).toContain('Signed in as Alex Hartley');
  });

  it('refuses a request without a token with 401 UNAUTHENTICATED', async () => {
    const res = await http(server.url, 'GET', '/v1/projects');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHENTICATED');
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });
});
