/**
 * list_lines names the rooms of its page beside the items (issue 26, item 6): `sections` holds each section of the
 * page's lines once, with its title, so a question by room needs no get_project. The titles sit in the list's envelope,
 * not on each line, so renaming a room leaves every line's representation and ETag as they were.
 */
import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { http, type Trpc } from '../helpers/clients.js';
import { callTool } from '../helpers/calls.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));

const get = (path: string) => http(app.url, 'GET', path, { token: app.token });

describe('list_lines names its rooms', () => {
  it('answers each section of the page once, in order of first appearance, with its title, on every surface', async () => {
    const project = await owner.projects.getStudioProject.query({ projectId: app.projectId });
    const titles = new Map(project.sections.map((s) => [s.id, s.title]));
    const rest = (await get(`/v1/projects/${app.projectId}/items`)).body as {
      items: Array<{ sectionId: string }>;
      sections: Array<{ id: string; title: string }>;
    };
    const order = [...new Set(rest.items.map((l) => l.sectionId))];
    expect(rest.sections.map((s) => s.id)).toEqual(order);
    for (const s of rest.sections) expect(s.title).toBe(titles.get(s.id));
    const trpcPage = await owner.schedule.listScheduleLines.query({ projectId: app.projectId });
    expect(trpcPage.sections).toEqual(rest.sections);
    const viaMcp = await callTool(mcp, 'list_lines', { projectId: app.projectId, limit: 2 });
    const first = viaMcp.result!.items as Array<{ sectionId: string }>;
    expect(viaMcp.result!.sections.map((s: { id: string }) => s.id)).toEqual([
      ...new Set(first.map((l) => l.sectionId)),
    ]);
    // With fields (rows), the rooms still come beside the rows.
    const rows = await callTool(mcp, 'call_action', {
      name: 'list_lines',
      arguments: { projectId: app.projectId, sectionId: order[1] },
      fields: ['heading', 'sectionId'],
    });
    expect(rows.result!.result.sections).toEqual([{ id: order[1], title: titles.get(order[1]!) }]);
  });

  it("renaming a room changes the list's sections, never a line's ETag", async () => {
    const project = await owner.projects.getStudioProject.query({ projectId: app.projectId });
    const room = project.sections[0]!;
    const page = (await get(`/v1/projects/${app.projectId}/items?sectionId=${room.id}&limit=1`)).body as any;
    const lineId = page.items[0].id;
    const before = await get(`/v1/projects/${app.projectId}/items/${lineId}`);
    const section = await owner.sections.getScheduleSection.query({ projectId: app.projectId, sectionId: room.id });
    await owner.sections.updateScheduleSection.mutate({
      projectId: app.projectId,
      sectionId: room.id,
      title: `${room.title} (renamed)`,
      expectedVersion: section.version,
    });
    const after = await get(`/v1/projects/${app.projectId}/items/${lineId}`);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    expect(before.headers.get('etag')).toMatch(/^"/);
    expect(after.body).toEqual(before.body);
    const renamed = (await get(`/v1/projects/${app.projectId}/items?sectionId=${room.id}&limit=1`)).body as any;
    expect(renamed.sections).toEqual([{ id: room.id, title: `${room.title} (renamed)` }]);
  });
});
