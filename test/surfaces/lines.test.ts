import { describe, expect, it } from 'vitest';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { currentEtag, http, trpc } from '../helpers/clients.js';

let app: TestApp;
openTestApp((opened) => ({ app } = opened));

describe('get_line through REST and MCP', () => {
  it('returns the same line, and MCP adds the exact quoted etag REST sends as ETag', async () => {
    const list = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items?limit=1`, { token: app.token });
    const line = list.body.items[0];
    const rest = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items/${line.id}`, { token: app.token });
    const client = await app.mcp();
    const viaMcp = await client.callTool({
      name: 'get_line',
      arguments: { projectId: app.projectId, itemId: line.id },
    });
    expect(viaMcp.isError).toBeFalsy();
    const { etag, ...mcpLine } = viaMcp.structuredContent as Record<string, unknown>;
    expect(mcpLine).toEqual(rest.body);
    expect(etag).toBe(rest.headers.get('etag'));
  });
});

describe('project ETag', () => {
  it('changes when a line is added, so If-None-Match never serves a stale line count', async () => {
    const path = `/v1/projects/${app.projectId}`;
    const first = await http(app.url, 'GET', path, { token: app.token });
    const etag = first.headers.get('etag')!;
    expect((await http(app.url, 'GET', path, { token: app.token, headers: { 'if-none-match': etag } })).status).toBe(
      304,
    );
    const section = first.body.sections[0];
    const created = await http(app.url, 'POST', `${path}/items`, {
      token: app.token,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { sectionId: section.id, heading: 'Side table' },
    });
    expect(created.status).toBe(201);
    const after = await http(app.url, 'GET', path, { token: app.token, headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.body.sections[0].lineCount).toBe(section.lineCount + 1);
    expect(after.headers.get('etag')).not.toBe(etag);
  });
});

describe('text search', () => {
  it('takes % and _ literally and ignores case', async () => {
    const sectionId = (await http(app.url, 'GET', `/v1/projects/${app.projectId}`, { token: app.token })).body
      .sections[0].id;
    const make = (heading: string) =>
      http(app.url, 'POST', `/v1/projects/${app.projectId}/items`, {
        token: app.token,
        headers: { 'idempotency-key': crypto.randomUUID() },
        body: { sectionId, heading },
      });
    await make('Wool 100% throw');
    await make('Wool 1000 throw');
    await make('Cushion_cover');
    await make('Cushion cover');
    const find = async (q: string) =>
      (
        await http(app.url, 'GET', `/v1/projects/${app.projectId}/items?q=${encodeURIComponent(q)}`, {
          token: app.token,
        })
      ).body.items.map((l: { heading: string }) => l.heading);
    expect(await find('100%')).toEqual(['Wool 100% throw']);
    expect(await find('ion_c')).toEqual(['Cushion_cover']);
    expect(await find('WOOL 100')).toEqual(expect.arrayContaining(['Wool 100% throw', 'Wool 1000 throw']));
  });
});

describe('review fixes', () => {
  const base = () => `/v1/projects/${app.projectId}/items`;
  const firstLine = async () => (await http(app.url, 'GET', `${base()}?limit=1`, { token: app.token })).body.items[0];

  it("a line's ETag moves when the project's default markup reprices it, so 304 never serves a stale price", async () => {
    const line = await firstLine();
    const read = await http(app.url, 'GET', `${base()}/${line.id}`, { token: app.token });
    const etag = read.headers.get('etag')!;
    const api = trpc(app.url, app.token);
    const project = await api.projects.getStudioProject.query({ projectId: app.projectId });
    await api.projects.updateProjectDetails.mutate({
      projectId: app.projectId,
      expectedVersion: project.version,
      defaultMarkup: { ratio4: '5000' },
    });
    const again = await http(app.url, 'GET', `${base()}/${line.id}`, {
      token: app.token,
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(200);
    expect(again.body.version).toBe(read.body.version);
    expect(again.body.clientPrice).not.toEqual(read.body.clientPrice);
    expect(again.headers.get('etag')).not.toBe(etag);
  });

  it('an empty merge patch is refused and changes nothing', async () => {
    const line = await firstLine();
    const res = await http(app.url, 'PATCH', `${base()}/${line.id}`, {
      token: app.token,
      headers: { 'if-match': await currentEtag(app.url, app.token, `${base()}/${line.id}`) },
      body: {},
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect((await firstLine()).version).toBe(line.version);
  });

  it('a negative markup or price is refused', async () => {
    const line = await firstLine();
    for (const body of [{ markup: { ratio4: '-25000' } }, { retailPrice: { state: 'set', amount4: '-100' } }]) {
      const res = await http(app.url, 'PATCH', `${base()}/${line.id}`, {
        token: app.token,
        headers: { 'if-match': `"${line.version}"` },
        body,
      });
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it("a duplicate's Location header names the new line", async () => {
    const line = await firstLine();
    const dup = await http(app.url, 'POST', `${base()}/${line.id}/duplication`, {
      token: app.token,
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(dup.status).toBe(201);
    expect(dup.headers.get('location')).toBe(`${base()}/${dup.body.id}`);
    expect((await http(app.url, 'GET', dup.headers.get('location')!, { token: app.token })).status).toBe(200);
  });

  it('paging by code visits every line once, null and empty codes included', async () => {
    const sectionId = (await firstLine()).sectionId;
    for (const code of [null, '']) {
      await http(app.url, 'POST', base(), {
        token: app.token,
        headers: { 'idempotency-key': crypto.randomUUID() },
        body: { sectionId, heading: `Code ${JSON.stringify(code)}`, code },
      });
    }
    const whole = (await http(app.url, 'GET', `${base()}?sort=code`, { token: app.token })).body.items.map(
      (l: { id: string }) => l.id,
    );
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { id: string }[]; nextCursor: string | null } } = await http(
        app.url,
        'GET',
        `${base()}?sort=code&limit=7${cursor ? `&cursor=${cursor}` : ''}`,
        { token: app.token },
      );
      paged.push(...page.body.items.map((l) => l.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(paged).toEqual(whole);
  });

  it('an archived project freezes its schedule: line writes answer ARCHIVED and change nothing', async () => {
    const line = await firstLine();
    const archived = await http(app.url, 'POST', `/v1/projects/${app.projectId}/archival`, {
      token: app.token,
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(archived.status).toBe(200);
    const res = await http(app.url, 'PATCH', `${base()}/${line.id}`, {
      token: app.token,
      headers: { 'if-match': `"${line.version}"` },
      body: { finish: 'Frozen' },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('ARCHIVED');
    const dup = await http(app.url, 'POST', `${base()}/${line.id}/duplication`, {
      token: app.token,
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(dup.body.code).toBe('ARCHIVED');
    expect(await firstLine()).toEqual(line);
  });
});

describe('restoring a line whose section was archived', () => {
  it('asks for another section, then restores into it at its end', async () => {
    const api = trpc(app.url, app.token);
    const project = await api.projects.createStudioProject.mutate({
      name: 'Restore test',
      sections: ['Loft', 'Porch'],
      commandKey: crypto.randomUUID(),
    });
    const [loft, porch] = project.sections;
    const line = await api.schedule.createScheduleLine.mutate({
      projectId: project.id,
      sectionId: loft!.id,
      heading: 'Rattan chair',
      commandKey: crypto.randomUUID(),
    });
    const archived = await api.schedule.archiveScheduleLine.mutate({
      projectId: project.id,
      lineId: line.id,
      expectedVersion: line.version,
    });
    const fresh = await api.projects.getStudioProject.query({ projectId: project.id });
    const loftNow = fresh.sections.find((s) => s.id === loft!.id)!;
    await api.sections.archiveScheduleSection.mutate({
      projectId: project.id,
      sectionId: loft!.id,
      expectedVersion: loftNow.version,
    });
    const refused = await api.schedule.restoreScheduleLine
      .mutate({ projectId: project.id, lineId: line.id, expectedVersion: archived.version })
      .catch((e: { data: { serviceCode: string }; message: string }) => e);
    expect(refused).toMatchObject({ data: { serviceCode: 'ARCHIVED' } });
    expect((refused as { message: string }).message).toContain('sectionId');
    const restored = await api.schedule.restoreScheduleLine.mutate({
      projectId: project.id,
      lineId: line.id,
      expectedVersion: archived.version,
      sectionId: porch!.id,
    });
    expect(restored).toMatchObject({
      sectionId: porch!.id,
      position: 1,
      archived_at: null,
      version: archived.version + 1,
    });
  });
});
