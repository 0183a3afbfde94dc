/**
 * The templates domain (6 procedures) through the typed tRPC client and MCP call_action, and its one use: a new project
 * started from a template, through create_studio_project (tRPC) and POST /v1/projects (create_project), its sections
 * and starting lines in order with codes from the project's allocator.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { http, trpc, type Trpc } from '../helpers/clients.js';
import { allPages, callAction, codeOf } from '../helpers/calls.js';
import { demoMembers, type Member, studioOfTheirOwn } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';
import { createLine } from '../helpers/schedule.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let members: Record<'assistant' | 'viewer', Member>;
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  members = await demoMembers(app, ['assistant', 'viewer']);
});

type CreateInput = Parameters<Trpc['templates']['createProjectTemplate']['mutate']>[0];
const newTemplate = (name: string, sections: CreateInput['sections'], extra: Partial<CreateInput> = {}) =>
  owner.templates.createProjectTemplate.mutate({ name, sections, ...extra, commandKey: uuid() });

async function demoTemplate() {
  const found = await owner.templates.listProjectTemplates.query({ q: 'Three-bedroom' });
  return owner.templates.getProjectTemplate.query({ templateId: found.items[0]!.id });
}

async function unitIds() {
  const settings = await owner.studio.getStudioSettings.query({});
  const bySymbol = new Map(settings.units.map((u) => [u.symbol, u.id]));
  return { each: settings.defaultUnitId!, metre: bySymbol.get('m')! };
}

describe('list_project_templates and get_project_template', () => {
  it('lists the demo template with its section titles and counts, the same over MCP', async () => {
    const list = await owner.templates.listProjectTemplates.query({});
    const house = list.items.find((t) => t.name === 'Three-bedroom house');
    expect(house).toMatchObject({ sectionCount: 8, version: 1, archived_at: null });
    expect(house!.sectionTitles.slice(0, 3)).toEqual(['Living Room', 'Kitchen', 'Dining']);
    expect(house).not.toHaveProperty('sections');
    expect((await callAction(mcp, 'list_project_templates', {})).result).toEqual(list);
    const full = await owner.templates.getProjectTemplate.query({ templateId: house!.id });
    expect(full.sections.map((s) => s.title)).toEqual(house!.sectionTitles);
    expect(full.lineCount).toBe(full.sections.reduce((n, s) => n + s.lines.length, 0));
    expect(full.sections[0]!.lines[0]).toMatchObject({ heading: 'Sofa', status: 'draft' });
  });

  it('finds templates by name or description, pages, and answers NOT_FOUND for an unknown one', async () => {
    await newTemplate('Flat A', [{ title: 'Room' }], { description: 'Studio flats' });
    await newTemplate('Flat B', [{ title: 'Room' }]);
    await newTemplate('Flat C', [{ title: 'Room' }]);
    expect((await owner.templates.listProjectTemplates.query({ q: 'studio FLATS' })).items.map((t) => t.name)).toEqual([
      'Flat A',
    ]);
    const paged = await allPages((cursor) =>
      owner.templates.listProjectTemplates.query({ q: 'Flat', sort: '-name', limit: 2, cursor }),
    );
    expect(paged.map((t) => t.name)).toEqual(['Flat C', 'Flat B', 'Flat A']);
    expect(await codeOf(owner.templates.getProjectTemplate.query({ templateId: '0000000000000000000000000t' }))).toBe(
      'NOT_FOUND',
    );
  });
});

describe('create_project_template', () => {
  it('keeps complete starting lines (1 of the default unit, draft) and creates once per commandKey', async () => {
    const units = await unitIds();
    const commandKey = uuid();
    const input = {
      name: 'Cottage',
      sections: [
        {
          title: 'Snug',
          lines: [
            { heading: 'Wood burner', description: 'Inset' },
            { heading: 'Curtains', quantity: { amount4: '45000', unitId: units.metre }, status: 'specified' as const },
          ],
        },
        { title: 'Porch' },
      ],
      commandKey,
    };
    const t = await owner.templates.createProjectTemplate.mutate(input);
    expect(t).toMatchObject({ name: 'Cottage', description: '', sectionCount: 2, lineCount: 2, version: 1 });
    expect(t.sections).toEqual([
      {
        title: 'Snug',
        lines: [
          {
            heading: 'Wood burner',
            description: 'Inset',
            quantity: { amount4: '10000', unitId: units.each },
            status: 'draft',
          },
          {
            heading: 'Curtains',
            description: '',
            quantity: { amount4: '45000', unitId: units.metre },
            status: 'specified',
          },
        ],
      },
      { title: 'Porch', lines: [] },
    ]);
    expect((await owner.templates.createProjectTemplate.mutate(input)).id).toBe(t.id);
    const events = await owner.audit.listStudioAuditEvents.query({ targetKind: 'project_template' });
    expect(events.items.filter((e) => e.target.id === t.id).map((e) => e.action)).toEqual(['create_project_template']);
  });

  it('refuses a template without sections, a line without a heading, or prices', async () => {
    expect(await codeOf(newTemplate('Empty', []))).toBe('VALIDATION_FAILED');
    expect(await codeOf(newTemplate('Headless', [{ title: 'Room', lines: [{ heading: '' }] }]))).toBe(
      'VALIDATION_FAILED',
    );
    const priced = [{ title: 'Room', lines: [{ heading: 'Sofa', tradePrice: { state: 'tbc' } }] }];
    expect(await codeOf(newTemplate('Priced', priced as never))).toBe('VALIDATION_FAILED');
  });
});

describe('create_template_from_project', () => {
  it("captures the project's active sections and lines (headings, descriptions, quantities) and leaves it as it was", async () => {
    const units = await unitIds();
    const project = await owner.projects.createStudioProject.mutate({
      name: 'Mews house',
      sections: ['Kitchen', 'Store', 'Study'],
      commandKey: uuid(),
    });
    const [kitchen, store, study] = project.sections;
    const line = (sectionId: string, heading: string, extra: Record<string, unknown> = {}) =>
      createLine(owner, { projectId: project.id, sectionId, heading, ...extra });
    await line(kitchen!.id, 'Island pendants', {
      description: 'Over the island',
      quantity: { amount4: '30000' },
      status: 'approved',
      tradePrice: { state: 'set', amount4: '2890000' },
    });
    const gone = await line(kitchen!.id, 'Old tap');
    await owner.schedule.archiveScheduleLine.mutate({ projectId: project.id, lineId: gone.id, expectedVersion: 1 });
    await line(study!.id, 'Desk', { quantity: { amount4: '15000', unitId: units.metre } });
    await owner.sections.archiveScheduleSection.mutate({
      projectId: project.id,
      sectionId: store!.id,
      expectedVersion: 1,
    });
    const before = await owner.projects.getStudioProject.query({ projectId: project.id });

    const t = await owner.templates.createTemplateFromProject.mutate({ projectId: project.id, commandKey: uuid() });
    expect(t.name).toBe('Mews house');
    expect(t.sections).toEqual([
      {
        title: 'Kitchen',
        lines: [
          {
            heading: 'Island pendants',
            description: 'Over the island',
            quantity: { amount4: '30000', unitId: units.each },
            status: 'draft',
          },
        ],
      },
      {
        title: 'Study',
        lines: [
          { heading: 'Desk', description: '', quantity: { amount4: '15000', unitId: units.metre }, status: 'draft' },
        ],
      },
    ]);
    expect(JSON.stringify(t)).not.toContain('2890000');
    expect((await owner.projects.getStudioProject.query({ projectId: project.id })).version).toBe(before.version);
    const events = await owner.audit.listStudioAuditEvents.query({ targetKind: 'project_template' });
    expect(events.items.find((e) => e.target.id === t.id)?.changes).toMatchObject({
      capturedFrom: { from: null, to: project.id },
    });
  });

  it('captures an archived project too, with the name asked for, over MCP', async () => {
    const project = await owner.projects.createStudioProject.mutate({
      name: 'Finished job',
      sections: ['Hall'],
      commandKey: uuid(),
    });
    await owner.projects.archiveStudioProject.mutate({ projectId: project.id, expectedVersion: project.version });
    const out = await callAction(mcp, 'create_template_from_project', {
      projectId: project.id,
      name: 'Hall refresh',
      description: 'From the finished job',
      commandKey: uuid(),
    });
    expect(out.result).toMatchObject({
      name: 'Hall refresh',
      description: 'From the finished job',
      sections: [{ title: 'Hall', lines: [] }],
    });
  });

  it('needs reference:write and a project the caller reaches', async () => {
    const assistant = await app.mcp(members.assistant.token);
    expect(
      (await callAction(assistant, 'create_template_from_project', { projectId: app.projectId, commandKey: uuid() }))
        .code,
    ).toBe('FORBIDDEN');
    expect(
      await codeOf(
        owner.templates.createTemplateFromProject.mutate({
          projectId: '0000000000000000000000000a',
          commandKey: uuid(),
        }),
      ),
    ).toBe('NOT_FOUND');
  });
});

describe('update_project_template and archive_project_template', () => {
  it('changes name alone or replaces the sections whole, checking the version', async () => {
    const t = await newTemplate('Loft', [{ title: 'Open plan', lines: [{ heading: 'Sofa' }] }]);
    const renamed = await owner.templates.updateProjectTemplate.mutate({
      templateId: t.id,
      expectedVersion: 1,
      name: 'Loft conversion',
    });
    expect(renamed).toMatchObject({ name: 'Loft conversion', version: 2, sections: t.sections });
    const replaced = await owner.templates.updateProjectTemplate.mutate({
      templateId: t.id,
      expectedVersion: 2,
      sections: [{ title: 'Bedroom', lines: [{ heading: 'Bed' }] }, { title: 'Shower room' }],
    });
    expect(replaced.sections.map((s) => s.title)).toEqual(['Bedroom', 'Shower room']);
    expect(replaced).toMatchObject({ version: 3, lineCount: 1 });
    expect(
      await codeOf(
        owner.templates.updateProjectTemplate.mutate({ templateId: t.id, expectedVersion: 2, name: 'Late' }),
      ),
    ).toBe('VERSION_CONFLICT');
    expect(await codeOf(owner.templates.updateProjectTemplate.mutate({ templateId: t.id, name: 'No version' }))).toBe(
      'PRECONDITION_REQUIRED',
    );
    expect(await codeOf(owner.templates.updateProjectTemplate.mutate({ templateId: t.id, expectedVersion: 3 }))).toBe(
      'VALIDATION_FAILED',
    );
  });

  it('archives once; an archived template does not change and no project starts from it', async () => {
    const t = await newTemplate('Retired', [{ title: 'Room' }]);
    const archived = await owner.templates.archiveProjectTemplate.mutate({ templateId: t.id, expectedVersion: 1 });
    expect(archived.archived_at).not.toBeNull();
    expect(await codeOf(owner.templates.archiveProjectTemplate.mutate({ templateId: t.id, expectedVersion: 2 }))).toBe(
      'ALREADY_ARCHIVED',
    );
    expect(
      await codeOf(
        owner.templates.updateProjectTemplate.mutate({ templateId: t.id, expectedVersion: 2, name: 'Back' }),
      ),
    ).toBe('ARCHIVED');
    expect(
      await codeOf(
        owner.projects.createStudioProject.mutate({ name: 'From retired', templateId: t.id, commandKey: uuid() }),
      ),
    ).toBe('ARCHIVED');
    expect((await owner.templates.listProjectTemplates.query({ q: 'Retired' })).items).toEqual([]);
    expect(
      (await owner.templates.listProjectTemplates.query({ q: 'Retired', archived: 'include' })).items.map((x) => x.id),
    ).toEqual([t.id]);
  });

  it('is refused to a viewer', async () => {
    const t = await newTemplate('Viewer test', [{ title: 'Room' }]);
    const viewer = trpc(app.url, members.viewer.token);
    expect((await viewer.templates.getProjectTemplate.query({ templateId: t.id })).name).toBe('Viewer test');
    expect(
      await codeOf(viewer.templates.updateProjectTemplate.mutate({ templateId: t.id, expectedVersion: 1, name: 'X' })),
    ).toBe('FORBIDDEN');
    expect(await codeOf(viewer.templates.archiveProjectTemplate.mutate({ templateId: t.id, expectedVersion: 1 }))).toBe(
      'FORBIDDEN',
    );
    expect(
      await codeOf(
        viewer.templates.createProjectTemplate.mutate({
          commandKey: uuid(),
          name: 'X',
          sections: [{ title: 'R' }],
        }),
      ),
    ).toBe('FORBIDDEN');
  });
});

describe('a project started from a template', () => {
  it('through tRPC: the sections and lines in order, codes from the allocator, prices to be confirmed', async () => {
    const template = await demoTemplate();
    const project = await owner.projects.createStudioProject.mutate({
      name: 'Marsh Lane',
      templateId: template.id,
      commandKey: uuid(),
    });
    expect(project.sections.map((s) => s.title)).toEqual(template.sections.map((s) => s.title));
    expect(project.sections.map((s) => s.lineCount)).toEqual(template.sections.map((s) => s.lines.length));
    const lines = await owner.schedule.listScheduleLines.query({ projectId: project.id });
    const expected = template.sections.flatMap((s) => s.lines);
    expect(lines.items.map((l) => l.heading)).toEqual(expected.map((l) => l.heading));
    expect(lines.items.map((l) => l.code)).toEqual(expected.map((_, i) => `FF-${String(i + 1).padStart(3, '0')}`));
    expect(lines.items.map((l) => l.quantity)).toEqual(expected.map((l) => l.quantity));
    for (const l of lines.items) {
      expect(l).toMatchObject({ status: 'draft', version: 1, supplierId: null, tradePrice: { state: 'tbc' } });
    }
    // The next line carries on from the template's codes.
    const next = await owner.schedule.createScheduleLine.mutate({
      projectId: project.id,
      sectionId: project.sections[0]!.id,
      heading: 'Extra',
      commandKey: uuid(),
    });
    expect(next.code).toBe(`FF-${String(expected.length + 1).padStart(3, '0')}`);
    const events = await owner.audit.listProjectAuditEvents.query({ projectId: project.id });
    const created = events.items.find((e) => e.action === 'create_studio_project' && e.target.kind === 'project');
    expect(created?.changes).toMatchObject({ fromTemplate: { from: null, to: template.id } });
    expect(events.items.filter((e) => e.target.kind === 'line' && e.action === 'create_studio_project')).toHaveLength(
      expected.length,
    );
  });

  it('through POST /v1/projects (create_project): 201 with the sections, replayed for the same Idempotency-Key', async () => {
    const template = await newTemplate('Townhouse', [
      { title: 'Drawing Room', lines: [{ heading: 'Chesterfield', status: 'specified' }] },
      { title: 'Garden', lines: [{ heading: 'Bench' }, { heading: 'Planters', quantity: { amount4: '40000' } }] },
    ]);
    const key = uuid();
    const post = () =>
      http(app.url, 'POST', '/v1/projects', {
        token: app.token,
        body: { name: 'Albany Street', templateId: template.id },
        headers: { 'idempotency-key': key },
      });
    const res = await post();
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('location')).toBe(`/v1/projects/${res.body.id}`);
    expect(res.body.sections.map((s: { title: string; lineCount: number }) => [s.title, s.lineCount])).toEqual([
      ['Drawing Room', 1],
      ['Garden', 2],
    ]);
    const items = await http(app.url, 'GET', `/v1/projects/${res.body.id}/items`, { token: app.token });
    expect(
      items.body.items.map((l: { code: string; heading: string; status: string; quantity: { amount4: string } }) => [
        l.code,
        l.heading,
        l.status,
        l.quantity.amount4,
      ]),
    ).toEqual([
      ['FF-001', 'Chesterfield', 'specified', '10000'],
      ['FF-002', 'Bench', 'draft', '10000'],
      ['FF-003', 'Planters', 'draft', '40000'],
    ]);
    const again = await post();
    expect(again.body.id).toBe(res.body.id);
  });

  it('refuses sections and templateId together, over REST and tRPC, creating nothing', async () => {
    const template = await demoTemplate();
    const before = (await owner.projects.listStudioProjects.query({})).items.length;
    const res = await http(app.url, 'POST', '/v1/projects', {
      token: app.token,
      body: { name: 'Both', sections: ['Hall'], templateId: template.id },
      headers: { 'idempotency-key': uuid() },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(res.body.detail).toMatch(/sections or templateId, not both/);
    expect(
      await codeOf(
        owner.projects.createStudioProject.mutate({
          name: 'Both',
          sections: ['Hall'],
          templateId: template.id,
          commandKey: uuid(),
        }),
      ),
    ).toBe('VALIDATION_FAILED');
    expect((await owner.projects.listStudioProjects.query({})).items.length).toBe(before);
  });

  it('lets an assistant (projects:write, reference:read) start from a template, over MCP', async () => {
    const template = await demoTemplate();
    const assistant = await app.mcp(members.assistant.token);
    const out = await callAction(assistant, 'create_studio_project', {
      name: 'Assistant job',
      templateId: template.id,
      commandKey: uuid(),
    });
    expect(out.result.sections).toHaveLength(template.sections.length);
  });
});

describe('another studio', () => {
  it('its templates, units and projects are NOT_FOUND wherever an input names them', async () => {
    const { them } = await studioOfTheirOwn(app, owner);
    const theirTemplate = await them.templates.createProjectTemplate.mutate({
      name: 'Their template',
      sections: [{ title: 'Their room', lines: [{ heading: 'Their chair' }] }],
      commandKey: uuid(),
    });
    const theirUnit = theirTemplate.sections[0]!.lines[0]!.quantity.unitId;
    const theirProject = await them.projects.createStudioProject.mutate({ name: 'Their job', commandKey: uuid() });
    expect(await codeOf(owner.templates.getProjectTemplate.query({ templateId: theirTemplate.id }))).toBe('NOT_FOUND');
    expect(
      await codeOf(
        owner.templates.updateProjectTemplate.mutate({ templateId: theirTemplate.id, expectedVersion: 1, name: 'X' }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(owner.templates.archiveProjectTemplate.mutate({ templateId: theirTemplate.id, expectedVersion: 1 })),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(
        owner.projects.createStudioProject.mutate({ name: 'Theirs', templateId: theirTemplate.id, commandKey: uuid() }),
      ),
    ).toBe('NOT_FOUND');
    const res = await http(app.url, 'POST', '/v1/projects', {
      token: app.token,
      body: { name: 'Theirs', templateId: theirTemplate.id },
      headers: { 'idempotency-key': uuid() },
    });
    expect(res.status).toBe(404);
    expect(
      await codeOf(
        newTemplate('Their unit', [
          { title: 'R', lines: [{ heading: 'X', quantity: { amount4: '10000', unitId: theirUnit } }] },
        ]),
      ),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(
        owner.templates.createTemplateFromProject.mutate({ projectId: theirProject.id, commandKey: uuid() }),
      ),
    ).toBe('NOT_FOUND');
    expect((await them.templates.listProjectTemplates.query({})).items.map((t) => t.id)).toEqual([theirTemplate.id]);
  });
});
