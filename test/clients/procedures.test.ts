/**
 * The clients domain (6 procedures) through the typed tRPC client, REST and MCP call_action: studio-level records
 * that projects refer to by clientId, versioned, archived rather than deleted, searchable; a project shows its client's
 * current name, older callers' clientName keeps working as a label, and project lists filter by client under the
 * same grant rule everywhere.
 */
import { CLIENT_RECORD } from '../../src/domain/clients/record.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { http, trpc, type Trpc } from '../helpers/clients.js';
import { allPages, callAction, codeOf, refusal } from '../helpers/calls.js';
import { anotherStudio, demoMembers, memberWithToken, type Member } from '../helpers/fixtures.js';
import { newId } from '../../src/core/ids.js';
import { createProject } from '../helpers/projects.js';
import { uuid } from '../helpers/ids.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let designer: Member;
let assistant: Member;
let viewer: Member;
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  ({ designer, assistant, viewer } = await demoMembers(app, ['designer', 'assistant', 'viewer']));
});

const create = (name: string, extra: Record<string, unknown> = {}) =>
  owner.clients.createClient.mutate({ name, ...extra, commandKey: uuid() });

const newProject = (name: string, extra: Record<string, unknown> = {}, as: Trpc = owner) =>
  createProject(as, { name, ...extra });

const marsden = async () => (await owner.clients.listClients.query({ q: 'Marsden' })).items[0]!;

describe('list_clients and get_client', () => {
  it('has the demo client, linked to Harbour House, and lists the same over MCP', async () => {
    const list = await owner.clients.listClients.query({});
    expect(list.items.map((c) => c.name)).toContain('The Marsden family');
    const m = await marsden();
    expect(m).toMatchObject({
      email: 'marsden.family@example.com',
      billingAddress: expect.stringContaining('Salcombe'),
      version: 1,
      archived_at: null,
    });
    const project = await owner.projects.getStudioProject.query({ projectId: app.projectId });
    expect(project).toMatchObject({ clientId: m.id, clientName: 'The Marsden family' });
    const viaMcp = await callAction(mcp, 'list_clients', {});
    expect(viaMcp.result.items).toEqual(list.items);
  });

  it('finds clients by a piece of their name, email or phone, case-insensitively, and pages with sort', async () => {
    await create('Ms Ede', { email: 'ede@cottage.example', phone: '01234 567890' });
    await create('Dr Patel', { email: 'patel@surgery.example' });
    await create('The Okafors');
    expect((await owner.clients.listClients.query({ q: 'COTTAGE' })).items.map((c) => c.name)).toEqual(['Ms Ede']);
    expect((await owner.clients.listClients.query({ q: '567' })).items.map((c) => c.name)).toEqual(['Ms Ede']);
    expect((await owner.clients.listClients.query({ q: '%' })).items).toEqual([]);
    const all = await allPages((cursor) => owner.clients.listClients.query({ limit: 2, sort: '-name', cursor }));
    const names = all.map((c) => c.name);
    expect(names.length).toBeGreaterThanOrEqual(4);
    expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a)));
    expect(new Set(names).size).toBe(names.length);
  });

  it('reads one client; an unknown id is NOT_FOUND', async () => {
    const c = await create('Mr Lowe', { billingAddress: '1 Mill Lane\nTotnes TQ9 5AA', notes: 'Dog in the house' });
    expect(await owner.clients.getClient.query({ clientId: c.id })).toEqual(c);
    expect(c).toMatchObject({ billingAddress: '1 Mill Lane\nTotnes TQ9 5AA', notes: 'Dog in the house', phone: null });
    expect(await codeOf(owner.clients.getClient.query({ clientId: '0000000000000000000000000k' }))).toBe('NOT_FOUND');
  });
});

describe('create_client and update_client', () => {
  it('creates once per commandKey and audits it', async () => {
    const commandKey = uuid();
    const first = await owner.clients.createClient.mutate({ name: 'The Hendersons', commandKey });
    const again = await owner.clients.createClient.mutate({ name: 'The Hendersons', commandKey });
    expect(again).toEqual(first);
    expect(await codeOf(owner.clients.createClient.mutate({ name: 'The Hendersons II', commandKey }))).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
    const events = await owner.audit.listStudioAuditEvents.query({ targetKind: 'client' });
    expect(events.items.filter((e) => e.target.id === first.id).map((e) => e.action)).toEqual(['create_client']);
  });

  it('patches only the fields sent, clears with null, and checks the version', async () => {
    const c = await create('Mrs Carter', { phone: '07700 900000', email: 'carter@example.com' });
    const updated = await owner.clients.updateClient.mutate({
      clientId: c.id,
      expectedVersion: 1,
      phone: null,
      billingAddress: '3 The Green\nDartmouth',
    });
    expect(updated).toMatchObject({
      name: 'Mrs Carter',
      phone: null,
      email: 'carter@example.com',
      billingAddress: '3 The Green\nDartmouth',
      version: 2,
    });
    expect(await codeOf(owner.clients.updateClient.mutate({ clientId: c.id, expectedVersion: 1, name: 'Late' }))).toBe(
      'VERSION_CONFLICT',
    );
    expect(await codeOf(owner.clients.updateClient.mutate({ clientId: c.id, name: 'No version' }))).toBe(
      'PRECONDITION_REQUIRED',
    );
    expect(await codeOf(owner.clients.updateClient.mutate({ clientId: c.id, expectedVersion: 2 }))).toBe(
      'VALIDATION_FAILED',
    );
    const events = await owner.audit.listStudioAuditEvents.query({ targetKind: 'client' });
    const change = events.items.find((e) => e.target.id === c.id && e.action === 'update_client')!;
    expect(change.changes).toEqual({
      phone: { from: '07700 900000', to: null },
      billingAddress: { from: null, to: '3 The Green\nDartmouth' },
    });
  });

  it('a rename shows on the projects linked to the client at once, without moving their versions', async () => {
    const c = await create('The Smiths');
    const p = await newProject('Smith kitchen', { clientId: c.id });
    await owner.clients.updateClient.mutate({ clientId: c.id, expectedVersion: 1, name: 'The Smith-Joneses' });
    const read = await owner.projects.getStudioProject.query({ projectId: p.id });
    expect(read).toMatchObject({ clientId: c.id, clientName: 'The Smith-Joneses', version: p.version });
    // A text query on projects finds the client by its name as shown now.
    expect((await owner.projects.listStudioProjects.query({ q: 'smith-jones' })).items.map((x) => x.id)).toEqual([
      p.id,
    ]);
  });

  it('needs reference:write: a designer adds clients, an assistant and a viewer only read them', async () => {
    const made = await trpc(app.url, designer.token).clients.createClient.mutate({
      name: 'Designer client',
      commandKey: uuid(),
    });
    for (const m of [assistant, viewer]) {
      const t = trpc(app.url, m.token);
      expect((await t.clients.getClient.query({ clientId: made.id })).name).toBe('Designer client');
      expect(await codeOf(t.clients.createClient.mutate({ name: 'Nope', commandKey: uuid() }))).toBe('FORBIDDEN');
    }
    const refused = await callAction(await app.mcp(viewer.token), 'update_client', {
      clientId: made.id,
      expectedVersion: 1,
      name: 'Renamed',
    });
    expect(refused.code).toBe('FORBIDDEN');
    expect((await owner.clients.getClient.query({ clientId: made.id })).version).toBe(1);
  });
});

describe('archive_client', () => {
  it('keeps the projects that name the client, says so, and refuses the client for new projects and edits', async () => {
    const c = await create('The Former Clients');
    const p = await newProject('Old job', { clientId: c.id });
    const archived = await owner.clients.archiveClient.mutate({ clientId: c.id, expectedVersion: 1 });
    expect(archived.archived_at).not.toBeNull();
    expect(archived.version).toBe(2);
    expect(archived.note).toBe(
      '1 active project still names this client and keeps it; new projects and edits cannot choose it.',
    );
    expect(await owner.projects.getStudioProject.query({ projectId: p.id })).toMatchObject({
      clientId: c.id,
      clientName: 'The Former Clients',
    });

    const refused = await refusal(newProject('New job', { clientId: c.id }));
    expect(refused).toEqual({ code: 'ARCHIVED', status: 409 });
    const res = await http(app.url, 'POST', '/v1/projects', {
      token: app.token,
      body: { name: 'New job', clientId: c.id },
      headers: { 'idempotency-key': uuid() },
    });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/The client The Former Clients is archived; choose an active client/);
    const other = await newProject('Other job');
    expect(
      await codeOf(
        owner.projects.updateProjectDetails.mutate({
          projectId: other.id,
          expectedVersion: other.version,
          clientId: c.id,
        }),
      ),
    ).toBe('ARCHIVED');
    // The project that already names it keeps it through other edits, and may repeat it.
    const renamed = await owner.projects.updateProjectDetails.mutate({
      projectId: p.id,
      expectedVersion: p.version,
      name: 'Old job (closed)',
      clientId: c.id,
    });
    expect(renamed).toMatchObject({ name: 'Old job (closed)', clientId: c.id });

    expect(await codeOf(owner.clients.archiveClient.mutate({ clientId: c.id, expectedVersion: 2 }))).toBe(
      'ALREADY_ARCHIVED',
    );
    expect(await codeOf(owner.clients.updateClient.mutate({ clientId: c.id, expectedVersion: 2, notes: 'x' }))).toBe(
      'ARCHIVED',
    );
    expect((await owner.clients.listClients.query({})).items.map((x) => x.id)).not.toContain(c.id);
    expect((await owner.clients.listClients.query({ archived: 'only' })).items.map((x) => x.id)).toEqual([c.id]);
  });

  it('answers a null note for a client no active project names', async () => {
    const c = await create('Never hired us');
    expect((await owner.clients.archiveClient.mutate({ clientId: c.id, expectedVersion: 1 })).note).toBeNull();
  });
});

describe("a project's client", () => {
  it('create_studio_project and update_project_details link a client by clientId; null unlinks', async () => {
    const a = await create('Client A');
    const b = await create('Client B');
    const p = await newProject('Linked', { clientId: a.id });
    expect(p).toMatchObject({ clientId: a.id, clientName: 'Client A' });
    const moved = await owner.projects.updateProjectDetails.mutate({
      projectId: p.id,
      expectedVersion: p.version,
      clientId: b.id,
    });
    expect(moved).toMatchObject({ clientId: b.id, clientName: 'Client B', version: p.version + 1 });
    const history = await owner.audit.listProjectAuditEvents.query({ projectId: p.id });
    expect(history.items.find((e) => e.action === 'update_project_details')!.changes).toEqual({
      clientId: { from: a.id, to: b.id },
      clientName: { from: 'Client A', to: 'Client B' },
    });
    const unlinked = await owner.projects.updateProjectDetails.mutate({
      projectId: p.id,
      expectedVersion: moved.version,
      clientId: null,
    });
    expect(unlinked).toMatchObject({ clientId: null, clientName: null });
  });

  it('keeps clientName for older callers: a plain label on a project linked to no client', async () => {
    const p = await newProject('Labelled', { clientName: 'Mrs Label' });
    expect(p).toMatchObject({ clientId: null, clientName: 'Mrs Label' });
    const relabelled = await owner.projects.updateProjectDetails.mutate({
      projectId: p.id,
      expectedVersion: p.version,
      clientName: 'Mr Label',
    });
    expect(relabelled).toMatchObject({ clientId: null, clientName: 'Mr Label' });
    // A label is not a client: the project is not among any client's projects.
    const c = await create('Mr Label');
    expect((await owner.clients.listClientProjects.query({ clientId: c.id })).items).toEqual([]);
    // Linking it replaces the label with the client.
    const linked = await owner.projects.updateProjectDetails.mutate({
      projectId: p.id,
      expectedVersion: relabelled.version,
      clientId: c.id,
    });
    expect(linked).toMatchObject({ clientId: c.id, clientName: 'Mr Label' });
  });

  it('on a linked project, clientName may only repeat the client’s name; null unlinks', async () => {
    const c = await create('The Wrights');
    const p = await newProject('Wright house', { clientId: c.id });
    const other = await refusal(
      owner.projects.updateProjectDetails.mutate({ projectId: p.id, expectedVersion: p.version, clientName: 'Wrong' }),
    );
    expect(other).toEqual({ code: 'VALIDATION_FAILED', status: 400 });
    const viaMcp = await callAction(mcp, 'update_project_details', {
      projectId: p.id,
      expectedVersion: p.version,
      clientName: 'Wrong',
    });
    expect(viaMcp.error!.message).toMatch(/linked to the client The Wrights.*send its clientId.*update_client/);
    expect(viaMcp.error!.errors).toEqual([{ path: 'clientName', message: expect.any(String) }]);
    const same = await owner.projects.updateProjectDetails.mutate({
      projectId: p.id,
      expectedVersion: p.version,
      clientName: 'The Wrights',
      reference: 'WR-1',
    });
    expect(same).toMatchObject({ clientId: c.id, clientName: 'The Wrights', reference: 'WR-1' });
    expect(await codeOf(newProject('Mismatch', { clientId: c.id, clientName: 'Somebody else' }))).toBe(
      'VALIDATION_FAILED',
    );
    const cleared = await owner.projects.updateProjectDetails.mutate({
      projectId: p.id,
      expectedVersion: same.version,
      clientName: null,
    });
    expect(cleared).toMatchObject({ clientId: null, clientName: null });
  });

  it('duplicate_project keeps the client', async () => {
    const c = await create('The Duplicates');
    const p = await newProject('Original', { clientId: c.id });
    const copy = await owner.projects.duplicateProject.mutate({ projectId: p.id, commandKey: uuid() });
    expect(copy).toMatchObject({ clientId: c.id, clientName: 'The Duplicates' });
  });
});

describe('list_client_projects and the clientId filter', () => {
  let client: { id: string };
  let granted: { id: string; version: number };
  let hidden: { id: string };
  beforeAll(async () => {
    client = await create('The Filtered');
    hidden = await newProject('Filtered: not granted', { clientId: client.id });
    granted = await newProject('Filtered: granted', { clientId: client.id }, trpc(app.url, designer.token));
    await newProject('Unrelated job', { clientId: (await create('Somebody else')).id });
  });

  it('lists the client’s projects newest first, and the same through list_studio_projects and REST', async () => {
    const viaClient = await owner.clients.listClientProjects.query({ clientId: client.id });
    expect(viaClient.items.map((p) => p.id)).toEqual([granted.id, hidden.id]);
    expect(viaClient.items.every((p) => p.clientId === client.id && p.clientName === 'The Filtered')).toBe(true);
    const viaFilter = await owner.projects.listStudioProjects.query({ clientId: client.id });
    expect(viaFilter).toEqual(viaClient);
    const res = await http(app.url, 'GET', `/v1/projects?clientId=${client.id}`, { token: app.token });
    expect(res.status).toBe(200);
    expect(res.body.items.map((p: { id: string }) => p.id)).toEqual([granted.id, hidden.id]);
    const viaMcp = await callAction(mcp, 'list_client_projects', { clientId: client.id });
    expect(viaMcp.result.items.map((p: { id: string }) => p.id)).toEqual([granted.id, hidden.id]);
    const tool = await mcp.callTool({ name: 'list_projects', arguments: { clientId: client.id } });
    expect((tool.structuredContent as { items: Array<{ id: string }> }).items.map((p) => p.id)).toEqual([
      granted.id,
      hidden.id,
    ]);
    // With the other filters.
    await owner.projects.archiveStudioProject.mutate({ projectId: hidden.id, expectedVersion: 1 });
    expect(
      (await owner.clients.listClientProjects.query({ clientId: client.id, status: 'active' })).items.map((p) => p.id),
    ).toEqual([granted.id]);
    const archived = await http(app.url, 'GET', `/v1/projects?clientId=${client.id}&status=archived`, {
      token: app.token,
    });
    expect(archived.body.items.map((p: { id: string }) => p.id)).toEqual([hidden.id]);
  });

  it('shows a member only the projects granted to them, under the same rule as list_studio_projects', async () => {
    const asDesigner = trpc(app.url, designer.token);
    expect((await asDesigner.clients.listClientProjects.query({ clientId: client.id })).items.map((p) => p.id)).toEqual(
      [granted.id],
    );
    expect(
      (await asDesigner.projects.listStudioProjects.query({ clientId: client.id })).items.map((p) => p.id),
    ).toEqual([granted.id]);
    const res = await http(app.url, 'GET', `/v1/projects?clientId=${client.id}`, { token: designer.token });
    expect(res.body.items.map((p: { id: string }) => p.id)).toEqual([granted.id]);
    const stranger = await memberWithToken(app.database, 'viewer');
    expect(
      (await trpc(app.url, stranger.token).clients.listClientProjects.query({ clientId: client.id })).items,
    ).toEqual([]);
  });

  it('refuses an unknown or malformed client id in the filter', async () => {
    const unknown = newId();
    expect(await codeOf(owner.clients.listClientProjects.query({ clientId: unknown }))).toBe('NOT_FOUND');
    expect(await codeOf(owner.projects.listStudioProjects.query({ clientId: unknown }))).toBe('NOT_FOUND');
    const res = await http(app.url, 'GET', `/v1/projects?clientId=${unknown}`, { token: app.token });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
    // Ids are opaque: a malformed one names nothing, the same 404.
    const bad = await http(app.url, 'GET', '/v1/projects?clientId=marsden', { token: app.token });
    expect(bad.status).toBe(404);
    expect(bad.body.code).toBe('NOT_FOUND');
  });
});

// Last: it adds a second studio to the database, which the fixtures above do not expect.
describe('another studio', () => {
  it('its clients are NOT_FOUND wherever an input names them', async () => {
    const now = new Date().toISOString();
    const { studioId } = await anotherStudio(app, 'clients');
    const theirs = newId();
    await app.rt.store.db
      .insertInto('clients')
      .values(CLIENT_RECORD.newRow({ name: 'Their client' }, { id: theirs, ownerId: studioId, now }))
      .execute();
    expect(await codeOf(owner.clients.getClient.query({ clientId: theirs }))).toBe('NOT_FOUND');
    expect(await codeOf(owner.clients.updateClient.mutate({ clientId: theirs, expectedVersion: 1, name: 'x' }))).toBe(
      'NOT_FOUND',
    );
    expect(await codeOf(owner.clients.archiveClient.mutate({ clientId: theirs, expectedVersion: 1 }))).toBe(
      'NOT_FOUND',
    );
    expect(await codeOf(owner.clients.listClientProjects.query({ clientId: theirs }))).toBe('NOT_FOUND');
    expect(await codeOf(newProject('Poaching', { clientId: theirs }))).toBe('NOT_FOUND');
    const p = await owner.projects.getStudioProject.query({ projectId: app.projectId });
    expect(
      await codeOf(
        owner.projects.updateProjectDetails.mutate({ projectId: p.id, expectedVersion: p.version, clientId: theirs }),
      ),
    ).toBe('NOT_FOUND');
    const res = await http(app.url, 'GET', `/v1/projects?clientId=${theirs}`, { token: app.token });
    expect(res.status).toBe(404);
    expect((await owner.clients.listClients.query({ q: 'Their client' })).items).toEqual([]);
  });
});
