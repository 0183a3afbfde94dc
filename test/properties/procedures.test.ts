/**
 * The properties domain (10 procedures) through the typed tRPC client and MCP call_action: a project's custom
 * properties (its own schedule columns) of one kind each, in a display order, with options for the choice kinds;
 * versioned, archived rather than deleted, unique by name, frozen with their project, reached only with a grant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestAppAsOwner, type TestApp } from '../helpers/in-process.js';
import { trpc, type Trpc } from '../helpers/clients.js';
import { callAction, codeOf, refusal } from '../helpers/calls.js';
import { demoMembers, memberWithToken, type Member } from '../helpers/fixtures.js';

const uuid = () => crypto.randomUUID();

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let viewer: Member;
let designer: Member;
let projectId: string;

beforeAll(async () => {
  ({ app, owner } = await createTestAppAsOwner());
  mcp = await app.mcp();
  ({ viewer, designer } = await demoMembers(app, ['viewer', 'designer']));
  projectId = app.projectId;
});
afterAll(async () => app?.close());

const create = (input: { name: string; kind: string; clientVisible?: boolean; options?: string[] }, pid = projectId) =>
  owner.properties.createCustomProperty.mutate({ projectId: pid, commandKey: uuid(), ...input } as never);

describe('create, list and get custom properties', () => {
  it('creates a choice property with its options, last in order; lists and gets it; MCP answers the same', async () => {
    const before = await owner.properties.listCustomProperties.query({ projectId });
    const fire = await create({
      name: 'Fire rating',
      kind: 'single_choice',
      clientVisible: true,
      options: ['Class 0', 'Class 1'],
    });
    expect(fire).toMatchObject({
      projectId,
      name: 'Fire rating',
      kind: 'single_choice',
      clientVisible: true,
      position: before.items.length + 1,
      version: 1,
      archived_at: null,
    });
    expect(fire.options.map((o) => o.label)).toEqual(['Class 0', 'Class 1']);
    const notes = await create({ name: 'Install notes', kind: 'long_text' });
    expect(notes).toMatchObject({ clientVisible: false, options: [], position: fire.position + 1 });

    const list = await owner.properties.listCustomProperties.query({ projectId });
    expect(list.items.slice(-2).map((p) => p.id)).toEqual([fire.id, notes.id]);
    expect(await owner.properties.getCustomProperty.query({ projectId, propertyId: fire.id })).toEqual(fire);
    expect((await callAction(mcp, 'list_custom_properties', { projectId })).result).toEqual(list);
    expect((await callAction(mcp, 'get_custom_property', { projectId, propertyId: fire.id })).result).toEqual(fire);
    // q finds by a piece of the name, case-insensitively; sort by name.
    const found = await owner.properties.listCustomProperties.query({ projectId, q: 'RATING' });
    expect(found.items.map((p) => p.id)).toEqual([fire.id]);
    const byName = await owner.properties.listCustomProperties.query({ projectId, sort: 'name' });
    const names = byName.items.map((p) => p.name);
    expect(names).toEqual([...names].sort());
  });

  it('refuses a second active property of the same name (any case), options on a non-choice kind and repeated labels', async () => {
    await create({ name: 'Finish code', kind: 'text' });
    const again = await refusal(create({ name: 'FINISH CODE', kind: 'url' }));
    expect(again.code).toBe('VALIDATION_FAILED');
    const noOptions = await codeOf(create({ name: 'Width', kind: 'number', options: ['1'] }));
    expect(noOptions).toBe('VALIDATION_FAILED');
    expect(await codeOf(create({ name: 'Colourway', kind: 'multiple_choice', options: ['Sage', 'sage'] }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await codeOf(create({ name: 'Odd', kind: 'colour' }))).toBe('VALIDATION_FAILED');
    const names = (await owner.properties.listCustomProperties.query({ projectId })).items.map((p) => p.name);
    expect(names.filter((n) => n.toLowerCase() === 'finish code')).toHaveLength(1);
    expect(names).not.toContain('Colourway');
  });
});

describe('update, archive and reorder', () => {
  it('renames with the expected version, refuses a stale one, and never changes the kind', async () => {
    const p = await create({ name: 'Lead time note', kind: 'text' });
    const renamed = await owner.properties.updateCustomProperty.mutate({
      projectId,
      propertyId: p.id,
      expectedVersion: 1,
      name: 'Lead-time note',
      clientVisible: true,
    });
    expect(renamed).toMatchObject({ name: 'Lead-time note', clientVisible: true, version: 2, kind: 'text' });
    expect(
      await codeOf(
        owner.properties.updateCustomProperty.mutate({ projectId, propertyId: p.id, expectedVersion: 1, name: 'X' }),
      ),
    ).toBe('VERSION_CONFLICT');
    expect(
      await codeOf(
        owner.properties.updateCustomProperty.mutate({
          projectId,
          propertyId: p.id,
          expectedVersion: 2,
          kind: 'number',
        } as never),
      ),
    ).toBe('VALIDATION_FAILED');
    expect((await owner.properties.getCustomProperty.query({ projectId, propertyId: p.id })).version).toBe(2);
  });

  it('archives once, hides the archived by default, frees the name, and leaves archived properties unchanged', async () => {
    const p = await create({ name: 'Samples sent', kind: 'yes_no' });
    const archived = await owner.properties.archiveCustomProperty.mutate({
      projectId,
      propertyId: p.id,
      expectedVersion: 1,
    });
    expect(archived.archived_at).not.toBeNull();
    expect(
      await codeOf(owner.properties.archiveCustomProperty.mutate({ projectId, propertyId: p.id, expectedVersion: 2 })),
    ).toBe('ALREADY_ARCHIVED');
    expect(
      await codeOf(
        owner.properties.updateCustomProperty.mutate({ projectId, propertyId: p.id, expectedVersion: 2, name: 'Y' }),
      ),
    ).toBe('ARCHIVED');
    const active = await owner.properties.listCustomProperties.query({ projectId });
    expect(active.items.map((x) => x.id)).not.toContain(p.id);
    const only = await owner.properties.listCustomProperties.query({ projectId, archived: 'only' });
    expect(only.items.map((x) => x.id)).toContain(p.id);
    // The name may be used again once the first is archived.
    expect((await create({ name: 'Samples sent', kind: 'yes_no' })).name).toBe('Samples sent');
  });

  it('reorders with the full list of active properties, and refuses a partial list without moving anything', async () => {
    const p = await owner.projects.createStudioProject.mutate({ name: 'Columns', commandKey: uuid() });
    const [a, b, c] = [
      await create({ name: 'A', kind: 'text' }, p.id),
      await create({ name: 'B', kind: 'date' }, p.id),
      await create({ name: 'C', kind: 'money' }, p.id),
    ];
    const reordered = await owner.properties.reorderCustomProperties.mutate({
      projectId: p.id,
      propertyIds: [c!.id, a!.id, b!.id],
    });
    expect(reordered.items.map((x) => [x.name, x.position])).toEqual([
      ['C', 1],
      ['A', 2],
      ['B', 3],
    ]);
    expect(reordered.items.find((x) => x.id === c!.id)!.version).toBe(2);
    const partial = await refusal(
      owner.properties.reorderCustomProperties.mutate({ projectId: p.id, propertyIds: [a!.id, b!.id] }),
    );
    expect(partial.code).toBe('VALIDATION_FAILED');
    const after = await owner.properties.listCustomProperties.query({ projectId: p.id });
    expect(after.items.map((x) => x.name)).toEqual(['C', 'A', 'B']);
  });
});

describe('options of choice properties', () => {
  it('adds, renames and archives options; labels are unique among the active ones', async () => {
    const p = await create({ name: 'Upholstery grade', kind: 'single_choice', options: ['A'] });
    const b = await owner.properties.createCustomPropertyOption.mutate({
      projectId,
      propertyId: p.id,
      label: 'B',
      commandKey: uuid(),
    });
    expect(b).toMatchObject({ propertyId: p.id, label: 'B', position: 2, version: 1 });
    expect(
      await codeOf(
        owner.properties.createCustomPropertyOption.mutate({
          projectId,
          propertyId: p.id,
          label: 'b',
          commandKey: uuid(),
        }),
      ),
    ).toBe('VALIDATION_FAILED');
    const renamed = await owner.properties.updateCustomPropertyOption.mutate({
      projectId,
      propertyId: p.id,
      optionId: b.id,
      expectedVersion: 1,
      label: 'Grade B',
    });
    expect(renamed).toMatchObject({ label: 'Grade B', version: 2 });
    await owner.properties.archiveCustomPropertyOption.mutate({
      projectId,
      propertyId: p.id,
      optionId: b.id,
      expectedVersion: 2,
    });
    const shown = await owner.properties.getCustomProperty.query({ projectId, propertyId: p.id });
    expect(shown.options.map((o) => o.label)).toEqual(['A']);
    const all = await owner.properties.listCustomPropertyOptions.query({
      projectId,
      propertyId: p.id,
      archived: 'include',
    });
    expect(all.items.map((o) => [o.label, o.archived_at === null])).toEqual([
      ['A', true],
      ['Grade B', false],
    ]);
    const viaMcp = await callAction(mcp, 'list_custom_property_options', { projectId, propertyId: p.id });
    expect(viaMcp.result.items.map((o: { label: string }) => o.label)).toEqual(['A']);
  });

  it('refuses options on other kinds, and an option named under another property does not exist', async () => {
    const text = await create({ name: 'Supplier ref', kind: 'text' });
    expect(
      await codeOf(
        owner.properties.createCustomPropertyOption.mutate({
          projectId,
          propertyId: text.id,
          label: 'X',
          commandKey: uuid(),
        }),
      ),
    ).toBe('VALIDATION_FAILED');
    const one = await create({ name: 'Stock', kind: 'single_choice', options: ['In stock'] });
    const two = await create({ name: 'Lamp type', kind: 'multiple_choice', options: ['LED'] });
    expect(
      await codeOf(
        owner.properties.updateCustomPropertyOption.mutate({
          projectId,
          propertyId: two.id,
          optionId: one.options[0]!.id,
          expectedVersion: 1,
          label: 'Hijacked',
        }),
      ),
    ).toBe('NOT_FOUND');
  });
});

describe('who may, and where', () => {
  it('a viewer reads but may not add; a member without a grant does not see the project', async () => {
    const v = trpc(app.url, viewer.token);
    expect((await v.properties.listCustomProperties.query({ projectId })).items.length).toBeGreaterThan(0);
    expect(
      await codeOf(
        v.properties.createCustomProperty.mutate({ projectId, name: 'Nope', kind: 'text', commandKey: uuid() }),
      ),
    ).toBe('FORBIDDEN');
    const d = trpc(app.url, designer.token);
    await d.properties.createCustomProperty.mutate({
      projectId,
      name: 'Designer column',
      kind: 'url',
      commandKey: uuid(),
    });
    const stranger = await memberWithToken(app.database, 'designer');
    expect(await codeOf(trpc(app.url, stranger.token).properties.listCustomProperties.query({ projectId }))).toBe(
      'NOT_FOUND',
    );
  });

  it("a property of another project is not found through this one, and an archived project's columns are frozen", async () => {
    const other = await owner.projects.createStudioProject.mutate({ name: 'Elsewhere', commandKey: uuid() });
    const theirs = await create({ name: 'Theirs', kind: 'text' }, other.id);
    expect(await codeOf(owner.properties.getCustomProperty.query({ projectId, propertyId: theirs.id }))).toBe(
      'NOT_FOUND',
    );
    await owner.projects.archiveStudioProject.mutate({ projectId: other.id, expectedVersion: other.version });
    expect(await codeOf(create({ name: 'Too late', kind: 'text' }, other.id))).toBe('ARCHIVED');
    expect(
      await codeOf(
        owner.properties.archiveCustomProperty.mutate({
          projectId: other.id,
          propertyId: theirs.id,
          expectedVersion: 1,
        }),
      ),
    ).toBe('ARCHIVED');
  });

  it("records every change in the project's audit feed", async () => {
    const p = await create({ name: 'Audited column', kind: 'date' });
    const feed = await owner.audit.listProjectAuditEvents.query({ projectId, targetId: p.id });
    expect(feed.items.map((e) => e.action)).toEqual(['create_custom_property']);
    expect(feed.items[0]!.target).toEqual({ kind: 'custom_property', id: p.id });
  });
});
