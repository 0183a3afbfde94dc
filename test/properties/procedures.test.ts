/**
 * The properties domain (10 procedures) through the typed tRPC client and MCP call_action: a project's custom
 * properties (its own schedule columns) of one kind each, in a display order, with options for the choice kinds;
 * versioned, archived rather than deleted, unique by name, frozen with their project, reached only with a grant.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { http, trpc, type Trpc } from '../helpers/clients.js';
import { callAction, codeOf, refusal } from '../helpers/calls.js';
import { demoMembers, memberWithToken, type Member } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let viewer: Member;
let designer: Member;
let projectId: string;

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  ({ viewer, designer } = await demoMembers(app, ['viewer', 'designer']));
  projectId = app.projectId;
});

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

describe('set_custom_property_value: values on lines', () => {
  let line: { id: string; version: number };
  const lineNow = async () => {
    const l = await owner.schedule.getScheduleLine.query({ projectId, lineId: line.id });
    return l;
  };
  const set = (propertyId: string, value: unknown, expectedVersion?: number) =>
    owner.properties.setCustomPropertyValue.mutate({
      projectId,
      lineId: line.id,
      propertyId,
      value: value as never,
      expectedVersion: expectedVersion ?? line.version,
    });

  beforeAll(async () => {
    const sectionId = (await owner.projects.getStudioProject.query({ projectId })).sections[0]!.id;
    line = await owner.schedule.createScheduleLine.mutate({
      commandKey: uuid(),
      projectId,
      sectionId,
      heading: 'Valued chair',
    });
  });

  it('sets values of every kind; the line shows them in property order at a new version, through REST, tRPC and MCP', async () => {
    const colour = await create({ name: 'Colourways', kind: 'multiple_choice', options: ['Sage', 'Ochre', 'Ink'] });
    const allowance = await create({ name: 'Allowance', kind: 'money' });
    const delivered = await create({ name: 'Delivered on', kind: 'date' });
    const fragile = await create({ name: 'Fragile', kind: 'yes_no' });
    let l = await set(colour.id, [colour.options[2]!.id, colour.options[0]!.id]);
    expect(l.version).toBe(line.version + 1);
    line = l;
    l = await set(allowance.id, { amount4: '1250000' });
    line = l;
    l = await set(delivered.id, '2026-12-01');
    line = l;
    l = await set(fragile.id, true);
    line = l;
    const mine = l.properties.filter((p) => [colour.id, allowance.id, delivered.id, fragile.id].includes(p.propertyId));
    expect(mine).toEqual([
      {
        propertyId: colour.id,
        name: 'Colourways',
        value: [colour.options[2]!.id, colour.options[0]!.id],
      },
      { propertyId: allowance.id, name: 'Allowance', value: { amount4: '1250000', currency: 'GBP' } },
      { propertyId: delivered.id, name: 'Delivered on', value: '2026-12-01' },
      { propertyId: fragile.id, name: 'Fragile', value: true },
    ]);
    const rest = await http(app.url, 'GET', `/v1/projects/${projectId}/items/${line.id}`, { token: app.token });
    expect(rest.body.properties).toEqual(l.properties);
    const listed = await owner.schedule.listScheduleLines.query({ projectId, q: 'Valued chair' });
    expect(listed.items[0]!.properties).toEqual(l.properties);
    // Through MCP as an agent would, clearing one with null.
    const viaMcp = await callAction(mcp, 'set_custom_property_value', {
      projectId,
      lineId: line.id,
      propertyId: fragile.id,
      value: null,
      expectedVersion: line.version,
    });
    expect(viaMcp.result.properties.map((p: { propertyId: string }) => p.propertyId)).not.toContain(fragile.id);
    line = viaMcp.result;
  });

  it('the same value again changes nothing; a stale version is refused', async () => {
    const text = await create({ name: 'Maker', kind: 'text' });
    line = await set(text.id, 'Ercol');
    const again = await set(text.id, 'Ercol');
    expect(again.version).toBe(line.version);
    expect(await codeOf(set(text.id, 'Other', line.version - 1))).toBe('VERSION_CONFLICT');
    expect((await lineNow()).properties.find((p) => p.propertyId === text.id)!.value).toBe('Ercol');
  });

  it("refuses a value that does not fit the property's kind, naming what to send", async () => {
    const date = await create({ name: 'Ordered on', kind: 'date' });
    const amount = await create({ name: 'Width mm', kind: 'number' });
    const url = await create({ name: 'Spec sheet', kind: 'url' });
    const pick = await create({ name: 'Leg finish', kind: 'single_choice', options: ['Oak', 'Walnut'] });
    const other = await create({ name: 'Seat finish', kind: 'single_choice', options: ['Linen'] });
    for (const [propertyId, value, words] of [
      [date.id, '2026-02-30', 'YYYY-MM-DD'],
      [date.id, true, 'YYYY-MM-DD'],
      [amount.id, { amount4: '12.5' }, 'scale-4 integer string'],
      [amount.id, '12', 'amount4'],
      [url.id, 'javascript:alert(1)', 'http'],
      [pick.id, other.options[0]!.id, 'not an active option'],
      [pick.id, [pick.options[0]!.id], 'one option id'],
    ] as const) {
      const r = await refusal(set(propertyId, value));
      expect(r.code, JSON.stringify(value)).toBe('VALIDATION_FAILED');
      const message = await set(propertyId, value).then(
        () => '',
        (e: { message: string }) => e.message,
      );
      expect(message, JSON.stringify(value)).toContain(words);
    }
    expect((await lineNow()).version).toBe(line.version);
  });

  it('an archived property stops showing its values (they are kept); a duplicate carries the values; audit names the change', async () => {
    const tag = await create({ name: 'Tag', kind: 'text' });
    line = await set(tag.id, 'Kept');
    const dup = await owner.schedule.duplicateScheduleLine.mutate({ projectId, lineId: line.id, commandKey: uuid() });
    expect(dup.properties.find((p) => p.propertyId === tag.id)?.value).toBe('Kept');
    await owner.properties.archiveCustomProperty.mutate({ projectId, propertyId: tag.id, expectedVersion: 1 });
    expect((await lineNow()).properties.map((p) => p.propertyId)).not.toContain(tag.id);
    expect(await codeOf(set(tag.id, 'Changed'))).toBe('ARCHIVED');
    const events = await owner.audit.listLineAuditEvents.query({ projectId, lineId: line.id, limit: 20 });
    const change = events.items.find((e) => e.changes && 'property:Tag' in e.changes);
    expect(change?.changes).toEqual({ 'property:Tag': { from: null, to: 'Kept' } });
  });
});
