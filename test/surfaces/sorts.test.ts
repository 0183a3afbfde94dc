/**
 * Every collection takes `sort`: a named field ascending, or descending with "-". Checked here on the older lists
 * (projects, sections, grants, audit feeds, tokens, studios) through tRPC as an application calls them: each order is
 * what it names, and paging in it walks every item once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { allPages } from '../helpers/calls.js';
import type { Trpc } from '../helpers/clients.js';
import { type TestApp, openTestApp } from '../helpers/in-process.js';

let app: TestApp;
let owner: Trpc;
openTestApp((opened) => ({ app, owner } = opened));
beforeAll(async () => {
  for (const name of ['Bellhouse', 'Astor Court', 'Cobb Lane']) {
    await owner.projects.createStudioProject.mutate({ name, commandKey: crypto.randomUUID() });
  }
});

type Item = Record<string, unknown>;
/** Whether the items run in the order the sort names (field ascending, or descending with "-"). */
function ordered(items: Item[], sort: string) {
  const field = sort.replace(/^-/, '');
  const values = items.map((i) => i[field] as string | number);
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sort.startsWith('-') ? sorted.reverse() : sorted;
}

describe('sort on every older collection', () => {
  const cases: Array<
    [string, (sort: string, cursor?: string) => Promise<{ items: Item[]; nextCursor: string | null }>, string[]]
  > = [
    [
      'list_studio_projects',
      (sort, cursor) => owner.projects.listStudioProjects.query({ sort: sort as never, cursor, limit: 2 }),
      ['name', '-name', 'createdAt', '-updatedAt'],
    ],
    [
      'list_schedule_sections',
      (sort, cursor) =>
        owner.sections.listScheduleSections.query({ projectId: app.projectId, sort: sort as never, cursor, limit: 3 }),
      ['title', '-title'],
    ],
    [
      'list_project_audit_events',
      (sort, cursor) =>
        owner.audit.listProjectAuditEvents.query({ projectId: app.projectId, sort: sort as never, cursor, limit: 2 }),
      ['at', '-at'],
    ],
    [
      'list_api_tokens',
      (sort, cursor) => owner.account.listApiTokens.query({ sort: sort as never, cursor }),
      ['name', '-createdAt'],
    ],
    [
      'list_my_studios',
      (sort, cursor) => owner.account.listMyStudios.query({ sort: sort as never, cursor }),
      ['name', '-name'],
    ],
  ];

  it.each(cases)('%s', async (_name, read, sorts) => {
    // Some history for the audit feed to order.
    const project = await owner.projects.getStudioProject.query({ projectId: app.projectId });
    await owner.sections.updateScheduleSection.mutate({
      projectId: app.projectId,
      sectionId: project.sections[0]!.id,
      expectedVersion: project.sections[0]!.version,
      title: `Living Room ${Date.now()}`,
    });
    for (const sort of sorts) {
      const items = await allPages((cursor) => read(sort, cursor));
      expect(items.length).toBeGreaterThan(0);
      const field = sort.replace(/^-/, '');
      expect(
        items.map((i) => i[field]),
        sort,
      ).toEqual(ordered(items, sort));
      expect(new Set(items.map((i) => i.id ?? i.studioId)).size).toBe(items.length);
    }
  });
});
