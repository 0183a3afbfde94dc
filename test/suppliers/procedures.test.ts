/**
 * The suppliers domain (6 procedures) through the typed tRPC client, and through MCP call_action as an agent reaches
 * it: studio-level reference data that lines name, versioned, archived rather than deleted, searchable, and merged
 * in one transaction with every moved line versioned and audited.
 */
import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { http, type Trpc } from '../helpers/clients.js';
import { allPages, callAction, codeOf } from '../helpers/calls.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';
import { postItem } from '../helpers/schedule.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));

const create = (name: string, extra: Record<string, unknown> = {}) =>
  owner.suppliers.createSupplier.mutate({ name, ...extra, commandKey: uuid() });

async function lineNaming(supplierId: string, heading: string) {
  const project = await owner.projects.getStudioProject.query({ projectId: app.projectId });
  return postItem(app, app.projectId, { sectionId: project.sections[0]!.id, heading, supplierId });
}

describe('list_suppliers and get_supplier', () => {
  it('lists the demo suppliers by name with their line counts, the same over MCP', async () => {
    const list = await owner.suppliers.listSuppliers.query({});
    const names = list.items.map((s) => s.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(names).toContain('Loaf & Linen Co.');
    expect(list.items.find((s) => s.name === 'Loaf & Linen Co.')!.lineCount).toBeGreaterThan(0);
    const viaMcp = await callAction(mcp, 'list_suppliers', {});
    expect(viaMcp.result.items.map((s: { name: string }) => s.name)).toEqual(names);
  });

  it('finds suppliers by a piece of their name, case-insensitively, and pages with sort', async () => {
    const found = await owner.suppliers.listSuppliers.query({ q: 'LINEN' });
    expect(found.items.map((s) => s.name)).toEqual(['Loaf & Linen Co.']);
    const all = await allPages((cursor) => owner.suppliers.listSuppliers.query({ limit: 2, sort: '-name', cursor }));
    const names = all.map((s) => s.name);
    expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a)));
    expect(new Set(names).size).toBe(names.length);
  });

  it('reads one supplier; another studio’s or an unknown id is NOT_FOUND', async () => {
    const s = await create('Weavers Guild', { email: 'hello@weavers.example' });
    const read = await owner.suppliers.getSupplier.query({ supplierId: s.id });
    expect(read).toMatchObject({ name: 'Weavers Guild', email: 'hello@weavers.example', version: 1, lineCount: 0 });
    expect(await codeOf(owner.suppliers.getSupplier.query({ supplierId: '0000000000000000000000000s' }))).toBe(
      'NOT_FOUND',
    );
  });
});

describe('create_supplier and update_supplier', () => {
  it('creates once per commandKey and audits it', async () => {
    const commandKey = uuid();
    const first = await owner.suppliers.createSupplier.mutate({ name: 'Marble & Co', commandKey });
    const again = await owner.suppliers.createSupplier.mutate({ name: 'Marble & Co', commandKey });
    expect(again.id).toBe(first.id);
    const events = await owner.audit.listStudioAuditEvents.query({ targetKind: 'supplier' });
    expect(events.items.filter((e) => e.target.id === first.id).map((e) => e.action)).toEqual(['create_supplier']);
  });

  it('patches only the fields sent, checks the version, and clears with null', async () => {
    const s = await create('Stone Yard', { phone: '01234', website: 'https://stone.example' });
    const updated = await owner.suppliers.updateSupplier.mutate({
      supplierId: s.id,
      expectedVersion: 1,
      phone: null,
      notes: '30 days net',
    });
    expect(updated).toMatchObject({ phone: null, website: 'https://stone.example', notes: '30 days net', version: 2 });
    expect(
      await codeOf(owner.suppliers.updateSupplier.mutate({ supplierId: s.id, expectedVersion: 1, name: 'Late' })),
    ).toBe('VERSION_CONFLICT');
    expect(await codeOf(owner.suppliers.updateSupplier.mutate({ supplierId: s.id, name: 'No version' }))).toBe(
      'PRECONDITION_REQUIRED',
    );
  });

  it('needs reference:write: a viewer reads suppliers but cannot add one', async () => {
    const viewer = await memberWithToken(app.database, 'viewer', [{ projectId: app.projectId, level: 'view' }]);
    const asViewer = await app.mcp(viewer.token);
    expect((await callAction(asViewer, 'list_suppliers', {})).result.items.length).toBeGreaterThan(0);
    const refused = await callAction(asViewer, 'create_supplier', { name: 'Nope', commandKey: uuid() });
    expect(refused.code).toBe('FORBIDDEN');
  });
});

describe('archive_supplier', () => {
  it('keeps the lines that name it, says so, and refuses it for new lines', async () => {
    const s = await create('Old Lamps Ltd');
    const line = await lineNaming(s.id, 'Brass lamp');
    const archived = await owner.suppliers.archiveSupplier.mutate({ supplierId: s.id, expectedVersion: 1 });
    expect(archived.archived_at).not.toBeNull();
    expect(archived.note).toMatch(/^1 active line still names this supplier/);
    const kept = await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id });
    expect(kept.supplierId).toBe(s.id);
    const res = await http(app.url, 'POST', `/v1/projects/${app.projectId}/items`, {
      token: app.token,
      body: { sectionId: kept.sectionId, heading: 'Another lamp', supplierId: s.id },
      headers: { 'idempotency-key': uuid() },
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'ARCHIVED' });
    expect(res.body.detail).toMatch(/Old Lamps Ltd is archived/);
    expect(await codeOf(owner.suppliers.archiveSupplier.mutate({ supplierId: s.id, expectedVersion: 2 }))).toBe(
      'ALREADY_ARCHIVED',
    );
    const listed = await owner.suppliers.listSuppliers.query({ archived: 'only', q: 'Old Lamps' });
    expect(listed.items.map((x) => x.id)).toEqual([s.id]);
  });
});

describe('merge_suppliers', () => {
  it('moves every line to the kept supplier in one go, versioning and auditing each, and archives the duplicate', async () => {
    const kept = await create('Lumen Lighting');
    const dup = await create('Lumen Lighting Ltd');
    const a = await lineNaming(dup.id, 'Pendant A');
    const b = await lineNaming(dup.id, 'Pendant B');
    const merged = await owner.suppliers.mergeSuppliers.mutate({
      supplierId: kept.id,
      mergedSupplierId: dup.id,
      commandKey: uuid(),
    });
    expect(merged.linesMoved).toBe(2);
    expect(merged.kept.lineCount).toBe(2);
    expect(merged.merged.archived_at).not.toBeNull();
    for (const line of [a, b]) {
      const after = await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id });
      expect(after.supplierId).toBe(kept.id);
      expect(after.version).toBe(line.version + 1);
      const history = await owner.schedule.getScheduleLineHistory.query({ projectId: app.projectId, lineId: line.id });
      expect(history.items[0]!.changes).toMatchObject({ supplierId: { from: dup.id, to: kept.id } });
    }
  });

  it('refuses merging a supplier into itself or into an archived one, changing nothing', async () => {
    const s = await create('Solo Supplier');
    const line = await lineNaming(s.id, 'Solo chair');
    expect(
      await codeOf(
        owner.suppliers.mergeSuppliers.mutate({ supplierId: s.id, mergedSupplierId: s.id, commandKey: uuid() }),
      ),
    ).toBe('VALIDATION_FAILED');
    const gone = await create('Gone Supplier');
    await owner.suppliers.archiveSupplier.mutate({ supplierId: gone.id, expectedVersion: 1 });
    expect(
      await codeOf(
        owner.suppliers.mergeSuppliers.mutate({ supplierId: gone.id, mergedSupplierId: s.id, commandKey: uuid() }),
      ),
    ).toBe('ARCHIVED');
    const after = await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: line.id });
    expect(after).toMatchObject({ supplierId: s.id, version: line.version });
  });
});
