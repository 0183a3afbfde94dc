/**
 * The sections domain (7 procedures) through the typed tRPC client, several also through MCP call_action. Every
 * section change moves the project's version too, because get_studio_project embeds the sections.
 */
import { describe, expect, it } from 'vitest';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { currentEtag, http, trpc, type Trpc } from '../helpers/clients.js';
import { callAction, codeOf } from '../helpers/calls.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';
import { createProject } from '../helpers/projects.js';
import { postItem } from '../helpers/schedule.js';

let app: TestApp;
let owner: Trpc;
openTestApp((opened) => ({ app, owner } = opened));

/** A fresh project of three rooms, so tests that change things do not depend on each other. */
const freshProject = (sections = ['Hall', 'Study', 'Attic']) =>
  createProject(owner, { name: 'Sections test', sections });
const projectVersion = async (projectId: string) =>
  (await owner.projects.getStudioProject.query({ projectId })).version;

describe('list_schedule_sections and get_schedule_section', () => {
  it('lists the demo sections in order with line counts, the same over MCP', async () => {
    const list = await owner.sections.listScheduleSections.query({ projectId: app.projectId });
    expect(list.items.map((s) => s.title)).toEqual([
      'Living Room',
      'Kitchen',
      'Dining',
      'Main Bedroom',
      'Guest Bedroom',
      'Bathroom',
      'Hallway',
    ]);
    expect(list.items.map((s) => s.position)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(list.nextCursor).toBeNull();
    const project = await owner.projects.getStudioProject.query({ projectId: app.projectId });
    expect(list.items).toEqual(project.sections);
    const viaMcp = await callAction(await app.mcp(), 'list_schedule_sections', { projectId: app.projectId });
    expect(viaMcp.result).toEqual(list);
  });

  it('pages with a cursor', async () => {
    const first = await owner.sections.listScheduleSections.query({ projectId: app.projectId, limit: 3 });
    const second = await owner.sections.listScheduleSections.query({
      projectId: app.projectId,
      limit: 3,
      cursor: first.nextCursor!,
    });
    const third = await owner.sections.listScheduleSections.query({
      projectId: app.projectId,
      limit: 3,
      cursor: second.nextCursor!,
    });
    expect([...first.items, ...second.items, ...third.items].map((s) => s.position)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(third.nextCursor).toBeNull();
  });

  it('reads one section; a section of another project is NOT_FOUND', async () => {
    const list = await owner.sections.listScheduleSections.query({ projectId: app.projectId });
    const s = await owner.sections.getScheduleSection.query({ projectId: app.projectId, sectionId: list.items[1]!.id });
    expect(s).toEqual(list.items[1]);
    expect(s.lineCount).toBeGreaterThan(0);
    const other = await freshProject();
    expect(
      await codeOf(
        owner.sections.getScheduleSection.query({ projectId: app.projectId, sectionId: other.sections[0]!.id }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      (await callAction(await app.mcp(), 'get_schedule_section', { projectId: other.id, sectionId: list.items[0]!.id }))
        .code,
    ).toBe('NOT_FOUND');
  });

  it('lets a viewer with a grant read, and hides the project from a designer without one', async () => {
    const viewer = await memberWithToken(app.database, 'viewer', [{ projectId: app.projectId, level: 'view' }]);
    expect(
      (await trpc(app.url, viewer.token).sections.listScheduleSections.query({ projectId: app.projectId })).items,
    ).toHaveLength(7);
    const designer = await memberWithToken(app.database, 'designer');
    expect(
      await codeOf(trpc(app.url, designer.token).sections.listScheduleSections.query({ projectId: app.projectId })),
    ).toBe('NOT_FOUND');
  });
});

describe('create_schedule_section', () => {
  it('inserts at a position, shifts later sections, and moves the project version', async () => {
    const p = await freshProject();
    const key = uuid();
    const s = await owner.sections.createScheduleSection.mutate({
      projectId: p.id,
      title: 'Landing',
      position: 2,
      commandKey: key,
    });
    expect(s).toMatchObject({
      projectId: p.id,
      title: 'Landing',
      position: 2,
      lineCount: 0,
      version: 1,
      archived_at: null,
    });
    const after = await owner.projects.getStudioProject.query({ projectId: p.id });
    expect(after.sections.map((x) => [x.title, x.position])).toEqual([
      ['Hall', 1],
      ['Landing', 2],
      ['Study', 3],
      ['Attic', 4],
    ]);
    expect(after.version).toBe(p.version + 1);
    // A retry with the same key is the same section, not a second one.
    expect(
      await owner.sections.createScheduleSection.mutate({
        projectId: p.id,
        title: 'Landing',
        position: 2,
        commandKey: key,
      }),
    ).toEqual(s);
    expect((await owner.sections.listScheduleSections.query({ projectId: p.id })).items).toHaveLength(4);
    const last = await owner.sections.createScheduleSection.mutate({
      commandKey: uuid(),
      projectId: p.id,
      title: 'Loft',
    });
    expect(last.position).toBe(5);
  });

  it('refuses a viewer, a blank title, and an archived project', async () => {
    const p = await freshProject();
    const viewer = await memberWithToken(app.database, 'viewer', [{ projectId: p.id, level: 'view' }]);
    expect(
      await codeOf(
        trpc(app.url, viewer.token).sections.createScheduleSection.mutate({
          commandKey: uuid(),
          projectId: p.id,
          title: 'X',
        }),
      ),
    ).toBe('FORBIDDEN');
    expect(
      await codeOf(owner.sections.createScheduleSection.mutate({ commandKey: uuid(), projectId: p.id, title: ' ' })),
    ).toBe('VALIDATION_FAILED');
    await owner.projects.archiveStudioProject.mutate({ projectId: p.id, expectedVersion: p.version });
    expect(
      await codeOf(
        owner.sections.createScheduleSection.mutate({
          commandKey: uuid(),
          projectId: p.id,
          title: 'Late',
        }),
      ),
    ).toBe('ARCHIVED');
  });
});

describe('update_schedule_section', () => {
  it('renames with the section version and moves both versions', async () => {
    const p = await freshProject();
    const hall = p.sections[0]!;
    const u = await owner.sections.updateScheduleSection.mutate({
      projectId: p.id,
      sectionId: hall.id,
      expectedVersion: hall.version,
      title: 'Entrance hall',
    });
    expect(u).toMatchObject({ id: hall.id, title: 'Entrance hall', version: hall.version + 1, position: 1 });
    expect(await projectVersion(p.id)).toBe(p.version + 1);
    expect(
      await codeOf(
        owner.sections.updateScheduleSection.mutate({
          projectId: p.id,
          sectionId: hall.id,
          expectedVersion: hall.version,
          title: 'Stale',
        }),
      ),
    ).toBe('VERSION_CONFLICT');
    expect(
      await codeOf(
        owner.sections.updateScheduleSection.mutate({ projectId: p.id, sectionId: hall.id, title: 'No version' }),
      ),
    ).toBe('PRECONDITION_REQUIRED');
    expect(
      await codeOf(
        owner.sections.updateScheduleSection.mutate({
          projectId: p.id,
          sectionId: hall.id,
          expectedVersion: u.version,
        }),
      ),
    ).toBe('VALIDATION_FAILED');
    expect((await owner.sections.getScheduleSection.query({ projectId: p.id, sectionId: hall.id })).title).toBe(
      'Entrance hall',
    );
  });

  it('refuses a viewer (FORBIDDEN), a designer without a grant (NOT_FOUND) and a foreign section (NOT_FOUND)', async () => {
    const p = await freshProject();
    const s = p.sections[0]!;
    const viewer = await memberWithToken(app.database, 'viewer', [{ projectId: p.id, level: 'view' }]);
    expect(
      await codeOf(
        trpc(app.url, viewer.token).sections.updateScheduleSection.mutate({
          projectId: p.id,
          sectionId: s.id,
          expectedVersion: s.version,
          title: 'X',
        }),
      ),
    ).toBe('FORBIDDEN');
    const designer = await memberWithToken(app.database, 'designer');
    expect(
      await codeOf(
        trpc(app.url, designer.token).sections.updateScheduleSection.mutate({
          projectId: p.id,
          sectionId: s.id,
          expectedVersion: s.version,
          title: 'X',
        }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(
        owner.sections.updateScheduleSection.mutate({
          projectId: app.projectId,
          sectionId: s.id,
          expectedVersion: s.version,
          title: 'X',
        }),
      ),
    ).toBe('NOT_FOUND');
    expect((await owner.sections.getScheduleSection.query({ projectId: p.id, sectionId: s.id })).version).toBe(
      s.version,
    );
  });

  it('works over MCP, reporting a version conflict by its code', async () => {
    const p = await freshProject();
    const s = p.sections[1]!;
    const client = await app.mcp();
    expect(
      (
        await callAction(client, 'update_schedule_section', {
          projectId: p.id,
          sectionId: s.id,
          expectedVersion: s.version + 1,
          title: 'X',
        })
      ).code,
    ).toBe('VERSION_CONFLICT');
    const ok = await callAction(client, 'update_schedule_section', {
      projectId: p.id,
      sectionId: s.id,
      expectedVersion: s.version,
      title: 'Library',
    });
    expect(ok.result).toEqual(await owner.sections.getScheduleSection.query({ projectId: p.id, sectionId: s.id }));
    expect(ok.result.title).toBe('Library');
  });
});

describe('reorder_schedule_sections', () => {
  it('puts the sections in the order given, guarded by the project version', async () => {
    const p = await freshProject();
    const ids = p.sections.map((s) => s.id);
    const reversed = [...ids].reverse();
    const r = await owner.sections.reorderScheduleSections.mutate({
      projectId: p.id,
      expectedVersion: p.version,
      sectionIds: reversed,
    });
    expect(r.sections.map((s) => s.id)).toEqual(reversed);
    expect(r.sections.map((s) => s.position)).toEqual([1, 2, 3]);
    expect(r.version).toBe(p.version + 1);
    expect(
      await codeOf(
        owner.sections.reorderScheduleSections.mutate({ projectId: p.id, expectedVersion: p.version, sectionIds: ids }),
      ),
    ).toBe('VERSION_CONFLICT');
    expect(await codeOf(owner.sections.reorderScheduleSections.mutate({ projectId: p.id, sectionIds: ids }))).toBe(
      'PRECONDITION_REQUIRED',
    );
    expect((await owner.sections.listScheduleSections.query({ projectId: p.id })).items.map((s) => s.id)).toEqual(
      reversed,
    );
  });

  it('refuses a list that is not exactly the active sections, and moves nothing', async () => {
    const p = await freshProject();
    const ids = p.sections.map((s) => s.id);
    const v = p.version;
    expect(
      await codeOf(
        owner.sections.reorderScheduleSections.mutate({
          projectId: p.id,
          expectedVersion: v,
          sectionIds: ids.slice(0, 2),
        }),
      ),
    ).toBe('VALIDATION_FAILED');
    expect(
      await codeOf(
        owner.sections.reorderScheduleSections.mutate({
          projectId: p.id,
          expectedVersion: v,
          sectionIds: [ids[0]!, ids[0]!, ids[1]!, ids[2]!],
        }),
      ),
    ).toBe('VALIDATION_FAILED');
    const extra = await owner.sections.createScheduleSection.mutate({
      commandKey: uuid(),
      projectId: p.id,
      title: 'Spare',
    });
    const v2 = await projectVersion(p.id);
    await owner.sections.archiveScheduleSection.mutate({
      projectId: p.id,
      sectionId: extra.id,
      expectedVersion: extra.version,
    });
    const v3 = await projectVersion(p.id);
    expect(v3).toBe(v2 + 1);
    expect(
      await codeOf(
        owner.sections.reorderScheduleSections.mutate({
          projectId: p.id,
          expectedVersion: v3,
          sectionIds: [...ids, extra.id],
        }),
      ),
    ).toBe('VALIDATION_FAILED');
    // A section of another project is not the caller's to name here at all.
    const foreign = (await owner.sections.listScheduleSections.query({ projectId: app.projectId })).items[0]!.id;
    expect(
      await codeOf(
        owner.sections.reorderScheduleSections.mutate({
          projectId: p.id,
          expectedVersion: v3,
          sectionIds: [...ids.slice(1), foreign],
        }),
      ),
    ).toBe('NOT_FOUND');
    expect((await owner.sections.listScheduleSections.query({ projectId: p.id })).items.map((s) => s.id)).toEqual(ids);
    expect(await projectVersion(p.id)).toBe(v3);
  });

  it('works over MCP and refuses a viewer', async () => {
    const p = await freshProject();
    const order = [p.sections[1]!.id, p.sections[0]!.id, p.sections[2]!.id];
    const viewer = await memberWithToken(app.database, 'viewer', [{ projectId: p.id, level: 'view' }]);
    expect(
      await codeOf(
        trpc(app.url, viewer.token).sections.reorderScheduleSections.mutate({
          projectId: p.id,
          expectedVersion: p.version,
          sectionIds: order,
        }),
      ),
    ).toBe('FORBIDDEN');
    const r = await callAction(await app.mcp(), 'reorder_schedule_sections', {
      projectId: p.id,
      expectedVersion: p.version,
      sectionIds: order,
    });
    expect(r.result.sections.map((s: { id: string }) => s.id)).toEqual(order);
    expect(r.result).toEqual(await owner.projects.getStudioProject.query({ projectId: p.id }));
  });
});

describe('archive_schedule_section', () => {
  it('archives an empty section, closes the gap, and keeps it listable as archived', async () => {
    const p = await freshProject();
    const [hall, study, attic] = p.sections;
    const a = await owner.sections.archiveScheduleSection.mutate({
      projectId: p.id,
      sectionId: study!.id,
      expectedVersion: study!.version,
    });
    expect(a).toMatchObject({ id: study!.id, version: study!.version + 1, archived_at: expect.any(String) });
    expect(await projectVersion(p.id)).toBe(p.version + 1);
    const active = await owner.sections.listScheduleSections.query({ projectId: p.id });
    expect(active.items.map((s) => [s.id, s.position])).toEqual([
      [hall!.id, 1],
      [attic!.id, 2],
    ]);
    expect(
      (await owner.sections.listScheduleSections.query({ projectId: p.id, archived: 'only' })).items.map((s) => s.id),
    ).toEqual([study!.id]);
    expect(
      (await owner.sections.listScheduleSections.query({ projectId: p.id, archived: 'include' })).items.map(
        (s) => s.id,
      ),
    ).toEqual([hall!.id, attic!.id, study!.id]);

    expect(
      await codeOf(
        owner.sections.archiveScheduleSection.mutate({
          projectId: p.id,
          sectionId: study!.id,
          expectedVersion: a.version,
        }),
      ),
    ).toBe('ALREADY_ARCHIVED');
    expect(
      await codeOf(
        owner.sections.updateScheduleSection.mutate({
          projectId: p.id,
          sectionId: study!.id,
          expectedVersion: a.version,
          title: 'X',
        }),
      ),
    ).toBe('ARCHIVED');
    expect(
      await codeOf(
        owner.sections.duplicateScheduleSection.mutate({
          commandKey: uuid(),
          projectId: p.id,
          sectionId: study!.id,
        }),
      ),
    ).toBe('ARCHIVED');
    // New sections go after the active ones; positions stay unique across active and archived.
    const added = await owner.sections.createScheduleSection.mutate({
      commandKey: uuid(),
      projectId: p.id,
      title: 'Loft',
    });
    expect(added.position).toBe(3);
    const everything = (await owner.sections.listScheduleSections.query({ projectId: p.id, archived: 'include' }))
      .items;
    expect(new Set(everything.map((s) => s.position)).size).toBe(everything.length);
  });

  it('refuses a section that still holds active lines with SECTION_NOT_EMPTY, and a stale version', async () => {
    const p = await freshProject();
    const hall = p.sections[0]!;
    const line = await postItem(app, p.id, { sectionId: hall.id, heading: 'Coat stand' });
    expect(
      await codeOf(
        owner.sections.archiveScheduleSection.mutate({
          projectId: p.id,
          sectionId: hall.id,
          expectedVersion: hall.version + 3,
        }),
      ),
    ).toBe('VERSION_CONFLICT');
    expect(
      await codeOf(
        owner.sections.archiveScheduleSection.mutate({
          projectId: p.id,
          sectionId: hall.id,
          expectedVersion: hall.version,
        }),
      ),
    ).toBe('SECTION_NOT_EMPTY');
    const viaMcp = await callAction(await app.mcp(), 'archive_schedule_section', {
      projectId: p.id,
      sectionId: hall.id,
      expectedVersion: hall.version,
    });
    expect(viaMcp.code).toBe('SECTION_NOT_EMPTY');
    // Once its line is archived, the section is empty and can go.
    await http(app.url, 'POST', `/v1/projects/${p.id}/items/${line.id}/archival`, {
      token: app.token,
      headers: { 'if-match': await currentEtag(app.url, app.token, `/v1/projects/${p.id}/items/${line.id}`) },
    });
    const a = await owner.sections.archiveScheduleSection.mutate({
      projectId: p.id,
      sectionId: hall.id,
      expectedVersion: hall.version,
    });
    expect(a.lineCount).toBe(0);
  });

  it('refuses a viewer', async () => {
    const p = await freshProject();
    const s = p.sections[2]!;
    const viewer = await memberWithToken(app.database, 'viewer', [{ projectId: p.id, level: 'view' }]);
    expect(
      await codeOf(
        trpc(app.url, viewer.token).sections.archiveScheduleSection.mutate({
          projectId: p.id,
          sectionId: s.id,
          expectedVersion: s.version,
        }),
      ),
    ).toBe('FORBIDDEN');
  });
});

describe('duplicate_schedule_section', () => {
  it('copies the section right after the source with its active lines (new ids, fresh codes, version 1)', async () => {
    const p = await freshProject();
    const [hall, study] = p.sections;
    const l1 = await postItem(app, p.id, { sectionId: hall!.id, heading: 'Console table' });
    const l2 = await postItem(app, p.id, { sectionId: hall!.id, heading: 'Runner' });
    const l3 = await postItem(app, p.id, { sectionId: hall!.id, heading: 'Umbrella stand' });
    await http(app.url, 'POST', `/v1/projects/${p.id}/items/${l3.id}/archival`, {
      token: app.token,
      headers: { 'if-match': await currentEtag(app.url, app.token, `/v1/projects/${p.id}/items/${l3.id}`) },
    });
    const before = await projectVersion(p.id);

    const key = uuid();
    const copy = await owner.sections.duplicateScheduleSection.mutate({
      projectId: p.id,
      sectionId: hall!.id,
      commandKey: key,
    });
    expect(copy).toMatchObject({ title: 'Hall (copy)', position: 2, lineCount: 2, version: 1 });
    expect(await projectVersion(p.id)).toBe(before + 1);
    const order = (await owner.sections.listScheduleSections.query({ projectId: p.id })).items.map((s) => [
      s.id,
      s.position,
    ]);
    expect(order).toEqual([
      [hall!.id, 1],
      [copy.id, 2],
      [study!.id, 3],
      [p.sections[2]!.id, 4],
    ]);

    const copied = (
      await http(app.url, 'GET', `/v1/projects/${p.id}/items?sectionId=${copy.id}&archived=include`, {
        token: app.token,
      })
    ).body.items as any[];
    expect(copied.map((l) => [l.heading, l.position, l.version])).toEqual([
      ['Console table', 1, 1],
      ['Runner', 2, 1],
    ]);
    expect(copied.map((l) => l.id)).not.toContain(l1.id);
    const codes = new Set([l1.code, l2.code, l3.code, ...copied.map((l) => l.code)]);
    expect(codes.size).toBe(5);
    // The source keeps its lines.
    expect((await owner.sections.getScheduleSection.query({ projectId: p.id, sectionId: hall!.id })).lineCount).toBe(2);

    expect(
      await owner.sections.duplicateScheduleSection.mutate({ projectId: p.id, sectionId: hall!.id, commandKey: key }),
    ).toEqual(copy);
    expect((await owner.sections.listScheduleSections.query({ projectId: p.id })).items).toHaveLength(4);
  });

  it('takes a title, works over MCP, and refuses a viewer and a foreign section', async () => {
    const p = await freshProject();
    const study = p.sections[1]!;
    const viaMcp = await callAction(await app.mcp(), 'duplicate_schedule_section', {
      commandKey: uuid(),
      projectId: p.id,
      sectionId: study.id,
      title: 'Second study',
    });
    expect(viaMcp.result).toMatchObject({ title: 'Second study', position: 3, lineCount: 0 });
    expect(viaMcp.result).toEqual(
      await owner.sections.getScheduleSection.query({ projectId: p.id, sectionId: viaMcp.result.id }),
    );
    const viewer = await memberWithToken(app.database, 'viewer', [{ projectId: p.id, level: 'view' }]);
    expect(
      await codeOf(
        trpc(app.url, viewer.token).sections.duplicateScheduleSection.mutate({
          commandKey: uuid(),
          projectId: p.id,
          sectionId: study.id,
        }),
      ),
    ).toBe('FORBIDDEN');
    const other = await freshProject();
    expect(
      await codeOf(
        owner.sections.duplicateScheduleSection.mutate({
          commandKey: uuid(),
          projectId: other.id,
          sectionId: study.id,
        }),
      ),
    ).toBe('NOT_FOUND');
  });
});
