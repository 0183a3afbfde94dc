import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ACTIONS } from '../../actions/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { recallAt5, relevanceCases } from './relevance-set.js';

const cases = relevanceCases();

let app: TestApp;
let client: Client;
openTestAppWithMcp((opened) => ({ app, mcp: client } = opened));

type Hit = {
  name: string;
  summary: string;
  kind: string;
  domain: string;
  scope: string;
  writes: boolean;
  allowed: boolean;
  score: number;
  call: string;
  twin?: { name: string; kind: string; note: string };
};
async function search(c: Client, args: Record<string, unknown>) {
  const res = await c.callTool({ name: 'search_actions', arguments: args });
  return res;
}

describe('search relevance set', () => {
  it('holds at least 60 requests, none naming an action or copying a summary', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    for (const c of cases) {
      for (const a of c.acceptable) expect(c.query.toLowerCase(), c.query).not.toContain(a);
      for (const a of ACTIONS)
        expect(c.query.toLowerCase(), c.query).not.toBe(a.summary.toLowerCase().replace(/\.$/, ''));
    }
  });

  it('puts an acceptable action in the top 5 for at least 95% of each half of the requests the catalog can serve', () => {
    const { servable, halves } = recallAt5();
    expect(servable).toBeGreaterThanOrEqual(40);
    for (const h of halves) {
      console.log(
        `search recall@5 (${h.half}): ${h.recall.toFixed(3)} over ${h.cases} requests` +
          (h.missed.length ? `; missed: ${h.missed.map((q) => JSON.stringify(q)).join(', ')}` : ''),
      );
      expect(h.recall, h.half).toBeGreaterThanOrEqual(0.95);
    }
  });
});

describe('search_actions', () => {
  it('finds actions through the studio words (room → section, photo → photograph, delete → archive)', async () => {
    const res = await search(client, { query: 'delete an item' });
    expect(res.isError).toBeFalsy();
    const hits = (res.structuredContent as { actions: Hit[] }).actions;
    expect(hits.length).toBeLessThanOrEqual(5);
    expect(hits.map((h) => h.name)).toContain('archive_line');
    const line = hits.find((h) => h.name === 'archive_line')!;
    expect(line).toEqual({
      name: 'archive_line',
      summary: expect.any(String),
      kind: 'resource',
      domain: 'schedule',
      scope: 'projects:write',
      writes: true,
      allowed: true,
      score: 100,
      call: '{ projectId, itemId, ifMatch }',
      twin: { name: 'archive_schedule_line', kind: 'procedure', note: expect.stringContaining('input') },
    });
    // One entry per capability: the procedure twin is named on the resource's entry, not listed again.
    expect(hits.map((h) => h.name)).not.toContain('archive_schedule_line');
    expect(hits.every((h) => Number.isInteger(h.score) && h.score >= 1 && h.score <= 100)).toBe(true);
  });

  it('shows the procedure first when asked for procedures, naming the resource twin', async () => {
    const hits = (
      (await search(client, { query: 'delete an item', kind: 'procedure' })).structuredContent as { actions: Hit[] }
    ).actions;
    const line = hits.find((h) => h.name === 'archive_schedule_line')!;
    expect(line.twin).toMatchObject({ name: 'archive_line', kind: 'resource' });
    // The outline wraps a procedure's fields in input, and marks optional ones.
    expect(line.call).toBe('{ input: { projectId, lineId, expectedVersion } }');
    const restore = (
      (await search(client, { query: 'restore an archived line' })).structuredContent as { actions: Hit[] }
    ).actions.find((h) => h.name === 'restore_schedule_line');
    expect(restore?.call).toBe('{ input: { projectId, lineId, expectedVersion, sectionId? } }');
    expect(hits.every((h) => h.kind === 'procedure')).toBe(true);
  });

  it("shows a create's optional links in its outline: create_project names templateId and clientId", async () => {
    const hits = ((await search(client, { query: 'start a new project' })).structuredContent as { actions: Hit[] })
      .actions;
    const create = hits.find((h) => h.name === 'create_project')!;
    expect(create.call).toContain('templateId?');
    expect(create.call).toContain('clientId?');
    expect(create.call).not.toContain('…');
  });

  it('answers "no action matches" with the areas it covers, rather than unrelated hits', async () => {
    for (const query of ['bake a cake', 'water the office plants', 'book a holiday']) {
      const res = (await search(client, { query })).structuredContent as {
        actions: Hit[];
        note?: string;
        areas?: string[];
      };
      expect(res.actions, query).toEqual([]);
      expect(res.note).toMatch(/No action matches/);
      expect(res.areas).toContain('schedule');
    }
  });

  it('filters by domain and kind, and honours limit (default 5, at most 10)', async () => {
    const byDomain = (await search(client, { query: 'list', domain: 'projects', limit: 10 })).structuredContent as {
      actions: Hit[];
    };
    expect(byDomain.actions.length).toBeGreaterThan(0);
    expect(byDomain.actions.every((h) => h.domain === 'projects')).toBe(true);
    const byKind = (await search(client, { query: 'line', kind: 'resource', limit: 10 })).structuredContent as {
      actions: Hit[];
    };
    expect(byKind.actions.every((h) => h.kind === 'resource')).toBe(true);
    expect(byKind.actions.length).toBeGreaterThan(5);
    const dflt = (await search(client, { query: 'line' })).structuredContent as { actions: Hit[] };
    expect(dflt.actions).toHaveLength(5);
    const tooMany = await search(client, { query: 'line', limit: 11 });
    expect(tooMany.isError).toBe(true);
    expect(tooMany.structuredContent).toMatchObject({ code: 'VALIDATION_FAILED' });
    const odd = await search(client, { query: 'constructor __proto__ toString hasOwnProperty' });
    expect(odd.isError).toBeFalsy();
    const none = await search(client, { query: '' });
    expect(none.structuredContent).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it("says whether this caller's permissions allow each action", async () => {
    const viewer = await memberWithToken(app.database, 'viewer', [{ projectId: app.projectId, level: 'view' }]);
    const asViewer = await app.mcp(viewer.token);
    const hits = (
      (await search(asViewer, { query: 'change a line', limit: 10 })).structuredContent as { actions: Hit[] }
    ).actions;
    const update = hits.find((h) => h.name === 'update_line')!;
    expect(update.allowed).toBe(false);
    const read = (
      (await search(asViewer, { query: 'read one line', limit: 10 })).structuredContent as { actions: Hit[] }
    ).actions.find((h) => h.name === 'get_line')!;
    expect(read.allowed).toBe(true);
  });

  it('refuses an unknown token with UNAUTHENTICATED', async () => {
    const stranger = await app.mcp('studio_not-a-real-token');
    const res = await search(stranger, { query: 'line' });
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
