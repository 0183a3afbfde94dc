/**
 * The clientDocument domain (7 procedures and the /v1 get_client_document resource) through the typed tRPC client,
 * MCP call_action and plain HTTP: a projection in the client's register built from the live schedule and its
 * settings; photographs frozen by minting; numbered, immutable versions; reached only with a grant and the documents
 * scopes; frozen with an archived project.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { mintToken, createStudioWithOwner } from '../../src/domain/studio/onboarding.js';
import { callAction, codeOf, refusal } from '../helpers/calls.js';
import { http, type Trpc, trpc } from '../helpers/clients.js';
import { demoMembers, fromOutside, type Member, memberWithToken } from '../helpers/fixtures.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { addPhotograph, removePhotograph } from './photographs.js';
import { uuid } from '../helpers/ids.js';
import { createProject } from '../helpers/projects.js';
import { createLine } from '../helpers/schedule.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let members: Record<'viewer' | 'assistant' | 'designer', Member>;

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  members = await demoMembers(app, ['viewer', 'assistant', 'designer']);
});

/** A small project: the demo one is too large for one MCP result. */
async function newProject(name: string, sections = ['Living Room', 'Kitchen', 'Empty']) {
  const p = await createProject(owner, { name, sections });
  return { id: p.id, sections: p.sections.map((s) => s.id) };
}

/**
 * Four pieces whose client prices exercise every path: a derived price (trade 123.4567 at 33.33%, three of them), a
 * hand-set one, one to be confirmed and one on application.
 */
async function pricedProject(name: string) {
  const project = await newProject(name);
  const [living, kitchen] = project.sections as [string, string];
  const sofa = await createLine(owner, {
    projectId: project.id,
    sectionId: living,
    heading: 'Three-seat sofa',
    description: 'Washed linen.',
    brand: 'Hartwell',
    finish: 'Oatmeal',
    dimensions: 'W 2300 mm',
    leadTimeDays: 70,
    quantity: { amount4: '30000' },
    tradePrice: { state: 'set', amount4: '1234567' },
    markup: { ratio4: '3333' },
  });
  const lamp = await createLine(owner, {
    projectId: project.id,
    sectionId: living,
    heading: 'Table lamp',
    quantity: { amount4: '20000' },
    clientPrice: { state: 'set', amount4: '250000' },
  });
  const rug = await createLine(owner, { projectId: project.id, sectionId: living, heading: 'Wool rug' });
  const stool = await createLine(owner, {
    projectId: project.id,
    sectionId: kitchen,
    heading: 'Bar stool',
    clientPrice: { state: 'poa' },
  });
  return { ...project, sofa, lamp, rug, stool };
}

const getDoc = (projectId: string) => owner.clientDocument.getProjectClientDocument.query({ projectId });
const withoutReadTime = <T extends { piecesAsOf?: string }>(d: T) => ({ ...d, piecesAsOf: undefined });

describe('the live client document', () => {
  let p: Awaited<ReturnType<typeof pricedProject>>;
  beforeAll(async () => {
    p = await pricedProject('Document basics');
  });

  it('shows pieces by section with client prices rounded for display and totals from exact factors', async () => {
    const doc = await getDoc(p.id);
    expect(doc).toMatchObject({
      title: 'Document basics',
      introduction: '',
      projectName: 'Document basics',
      currency: 'GBP',
      showPrices: true,
      columns: ['brand', 'finish', 'dimensions'],
      photographsAsOf: null,
      removedPieces: [],
    });
    expect(Date.parse(doc.piecesAsOf)).not.toBeNaN();
    // The empty section is left out.
    expect(doc.sections.map((s) => s.title)).toEqual(['Living Room', 'Kitchen']);
    const [sofa, lamp, rug] = doc.sections[0]!.pieces;
    expect(sofa).toEqual({
      reference: p.sofa.code,
      heading: 'Three-seat sofa',
      description: 'Washed linen.',
      quantity: { amount4: '30000', unit: p.sofa.unitName },
      priceState: 'set',
      // 123.4567 × 1.3333 = 164.60481811: shown as 164.60; the total 3 × 164.60481811 = 493.81445433 → 493.81.
      unitPrice: { amount4: '1646000', currency: 'GBP' },
      total: { amount4: '4938100', currency: 'GBP' },
      brand: 'Hartwell',
      finish: 'Oatmeal',
      dimensions: 'W 2300 mm',
      properties: [],
      photographs: [],
    });
    expect(lamp).toMatchObject({
      priceState: 'set',
      unitPrice: { amount4: '250000', currency: 'GBP' },
      total: { amount4: '500000', currency: 'GBP' },
    });
    expect(rug).toMatchObject({ priceState: 'tbc', unitPrice: null, total: null });
    expect(doc.sections[1]!.pieces[0]).toMatchObject({ heading: 'Bar stool', priceState: 'poa', unitPrice: null });
    expect(doc.sections[0]!.total).toEqual({ amount4: '5438100', currency: 'GBP' });
    expect(doc.sections[1]!.total).toEqual({ amount4: '0', currency: 'GBP' });
    expect(doc.totals).toEqual({ pieceCount: 4, total: { amount4: '5438100', currency: 'GBP' }, piecesToConfirm: 2 });
  });

  it('answers the same through MCP call_action and /v1, with an ETag that holds while nothing changes', async () => {
    const viaTrpc = await getDoc(p.id);
    const viaMcp = await callAction(mcp, 'get_project_client_document', { projectId: p.id });
    expect(withoutReadTime(viaMcp.result)).toEqual(withoutReadTime(viaTrpc));
    const viaResourceTool = await mcp.callTool({
      name: 'call_action',
      arguments: { name: 'get_client_document', arguments: { projectId: p.id } },
    });
    expect(withoutReadTime((viaResourceTool.structuredContent as { result: typeof viaTrpc }).result)).toEqual(
      withoutReadTime(viaTrpc),
    );

    const path = `/v1/projects/${p.id}/client-document`;
    const first = await http(app.url, 'GET', path, { token: app.token });
    expect(first.status).toBe(200);
    expect(withoutReadTime(first.body)).toEqual(withoutReadTime(viaTrpc));
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"c[0-9a-f]{20}"$/);
    // The read time moves; the tag does not, so a client holding the document is told it is current.
    const again = await http(app.url, 'GET', path, { token: app.token });
    expect(again.headers.get('etag')).toBe(etag);
    const unchanged = await http(app.url, 'GET', path, { token: app.token, headers: { 'if-none-match': etag! } });
    expect(unchanged.status).toBe(304);
    await owner.schedule.updateScheduleLine.mutate({
      projectId: p.id,
      lineId: p.rug.id,
      expectedVersion: p.rug.version,
      patch: { heading: 'Wool rug, hand-knotted' },
    });
    const changed = await http(app.url, 'GET', path, { token: app.token, headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.body.sections[0].pieces[2].heading).toBe('Wool rug, hand-knotted');
  });

  it('shows an archived line as a removed piece, most recent first, and the same to a member without pricing', async () => {
    const q = await pricedProject('Removals');
    await owner.schedule.archiveScheduleLine.mutate({ projectId: q.id, lineId: q.lamp.id, expectedVersion: 1 });
    await owner.schedule.archiveScheduleLine.mutate({ projectId: q.id, lineId: q.rug.id, expectedVersion: 1 });
    const doc = await getDoc(q.id);
    expect(doc.sections[0]!.pieces.map((x) => x.heading)).toEqual(['Three-seat sofa']);
    expect(doc.removedPieces.map(({ reference, heading }) => ({ reference, heading }))).toEqual([
      { reference: q.rug.code, heading: 'Wool rug' },
      { reference: q.lamp.code, heading: 'Table lamp' },
    ]);
    const lamp = await owner.schedule.getScheduleLine.query({ projectId: q.id, lineId: q.lamp.id });
    expect(doc.removedPieces[1]!.removedAt).toBe(lamp.archived_at);
    expect(doc.totals.pieceCount).toBe(2);
    // An assistant holds documents:read but not pricing:read: client prices are theirs to see, nothing is withheld.
    await fromOutside(app.database, (db) =>
      db
        .insertInto('project_grants')
        .values({
          project_id: q.id,
          member_id: members.assistant.memberId,
          level: 'edit',
          created_at: new Date().toISOString(),
        })
        .execute(),
    );
    const asAssistant = await trpc(app.url, members.assistant.token).clientDocument.getProjectClientDocument.query({
      projectId: q.id,
    });
    expect(withoutReadTime(asAssistant)).toEqual(withoutReadTime(doc));
  });
});

describe('settings', () => {
  it('start as defaults at version 1; a merge patch with expectedVersion changes them; a stale one is VERSION_CONFLICT', async () => {
    const p = await pricedProject('Settings');
    const before = await owner.clientDocument.getClientDocumentSettings.query({ projectId: p.id });
    expect(before).toEqual({
      projectId: p.id,
      title: null,
      introduction: '',
      showPrices: true,
      columns: ['brand', 'finish', 'dimensions'],
      propertyIds: [],
      branding: { studioName: null, accentColour: null },
      version: 1,
      updatedAt: null,
    });
    const after = await owner.clientDocument.updateClientDocumentSettings.mutate({
      projectId: p.id,
      expectedVersion: 1,
      title: 'Furniture for the Marsdens',
      introduction: 'Our selection for the ground floor.',
      columns: ['leadTime', 'supplier'],
      branding: { studioName: 'Hartley & Rowe', accentColour: '#7A4B2A' },
    });
    expect(after).toMatchObject({
      title: 'Furniture for the Marsdens',
      columns: ['leadTime', 'supplier'],
      branding: { studioName: 'Hartley & Rowe', accentColour: '#7a4b2a' },
      version: 2,
    });
    expect(after.updatedAt).not.toBeNull();
    const stale = await refusal(
      owner.clientDocument.updateClientDocumentSettings.mutate({ projectId: p.id, expectedVersion: 1, title: 'Late' }),
    );
    expect(stale).toEqual({ code: 'VERSION_CONFLICT', status: 409 });
    const viaMcp = await callAction(mcp, 'update_client_document_settings', {
      projectId: p.id,
      expectedVersion: 1,
      showPrices: false,
    });
    expect(viaMcp.code).toBe('VERSION_CONFLICT');
    expect(viaMcp.error?.currentVersion).toBe(2);
    expect(await owner.clientDocument.getClientDocumentSettings.query({ projectId: p.id })).toEqual(after);
    expect((await callAction(mcp, 'get_client_document_settings', { projectId: p.id })).result).toEqual(after);
    // The same values again change nothing: no version, no audit event.
    const same = await owner.clientDocument.updateClientDocumentSettings.mutate({
      projectId: p.id,
      expectedVersion: 2,
      title: 'Furniture for the Marsdens',
    });
    expect(same.version).toBe(2);

    const doc = await getDoc(p.id);
    expect(doc).toMatchObject({
      title: 'Furniture for the Marsdens',
      introduction: 'Our selection for the ground floor.',
      studioName: 'Hartley & Rowe',
      branding: { accentColour: '#7a4b2a' },
      columns: ['leadTime', 'supplier'],
    });
    const sofa = doc.sections[0]!.pieces[0]!;
    expect(sofa).toMatchObject({ leadTimeDays: 70, supplier: null });
    expect(sofa).not.toHaveProperty('brand');
    expect(sofa).not.toHaveProperty('finish');

    const feed = await owner.audit.listProjectAuditEvents.query({
      projectId: p.id,
      action: 'update_client_document_settings',
    });
    expect(feed.items.map((e) => e.target.kind)).toEqual(['client_document_settings']);
    expect(feed.items[0]!.changes).toHaveProperty('title');
  });

  it('hidden prices leave no price field anywhere in the document', async () => {
    const p = await pricedProject('Hidden prices');
    // Through MCP, as an agent would.
    const updated = await callAction(mcp, 'update_client_document_settings', {
      projectId: p.id,
      expectedVersion: 1,
      showPrices: false,
    });
    expect(updated.result).toMatchObject({ showPrices: false, version: 2 });
    const doc = await getDoc(p.id);
    expect(doc.showPrices).toBe(false);
    for (const section of doc.sections) {
      expect(section).not.toHaveProperty('total');
      for (const piece of section.pieces) {
        for (const field of ['priceState', 'unitPrice', 'total']) expect(piece).not.toHaveProperty(field);
      }
    }
    expect(doc.totals).toEqual({ pieceCount: 4 });
    expect(JSON.stringify(doc)).not.toMatch(/"(unitPrice|total|priceState)":/);
    const minted = await owner.clientDocument.mintClientDocument.mutate({ projectId: p.id, commandKey: uuid() });
    expect(minted.document.totals).toEqual({ pieceCount: 4 });
  });

  it('show only client-visible custom properties that were chosen, choices by their labels', async () => {
    const p = await pricedProject('Properties');
    const create = (name: string, kind: string, clientVisible: boolean, options?: string[]) =>
      owner.properties.createCustomProperty.mutate({
        projectId: p.id,
        name,
        kind,
        clientVisible,
        options,
        commandKey: uuid(),
      } as never);
    const fire = await create('Fire rating', 'single_choice', true, ['Class 0', 'Class 1']);
    const allowance = await create('Allowance', 'money', true);
    const hidden = await create('Internal note', 'text', false);
    const unchosen = await create('Colourway', 'text', true);
    const setValue = async (lineId: string, propertyId: string, value: unknown) => {
      const line = await owner.schedule.getScheduleLine.query({ projectId: p.id, lineId });
      await owner.properties.setCustomPropertyValue.mutate({
        projectId: p.id,
        lineId,
        propertyId,
        value: value as never,
        expectedVersion: line.version,
      });
    };
    await setValue(p.sofa.id, fire.id, fire.options[1]!.id);
    await setValue(p.sofa.id, allowance.id, { amount4: '1250000' });
    await setValue(p.sofa.id, hidden.id, 'Ask for trade discount');
    await setValue(p.sofa.id, unchosen.id, 'Sage');

    const refused = await refusal(
      owner.clientDocument.updateClientDocumentSettings.mutate({
        projectId: p.id,
        expectedVersion: 1,
        propertyIds: [fire.id, hidden.id],
      }),
    );
    expect(refused.code).toBe('VALIDATION_FAILED');
    const message = await owner.clientDocument.updateClientDocumentSettings
      .mutate({ projectId: p.id, expectedVersion: 1, propertyIds: [hidden.id] })
      .catch((e: Error) => e.message);
    expect(message).toContain('update_custom_property');
    const other = await newProject('Elsewhere properties');
    const theirs = await owner.properties.createCustomProperty.mutate({
      projectId: other.id,
      name: 'Theirs',
      kind: 'text',
      clientVisible: true,
      commandKey: uuid(),
    });
    expect(
      await codeOf(
        owner.clientDocument.updateClientDocumentSettings.mutate({
          projectId: p.id,
          expectedVersion: 1,
          propertyIds: [theirs.id],
        }),
      ),
    ).toBe('NOT_FOUND');

    const settings = await owner.clientDocument.updateClientDocumentSettings.mutate({
      projectId: p.id,
      expectedVersion: 1,
      propertyIds: [allowance.id, fire.id],
    });
    expect(settings.propertyIds).toEqual([allowance.id, fire.id]);
    const sofa = (await getDoc(p.id)).sections[0]!.pieces[0]!;
    expect(sofa.properties).toEqual([
      { name: 'Allowance', kind: 'money', value: { amount4: '1250000', currency: 'GBP' } },
      { name: 'Fire rating', kind: 'single_choice', value: 'Class 1' },
    ]);
    // A property that stops being client-visible stops showing, and leaves the settings' list.
    await owner.properties.updateCustomProperty.mutate({
      projectId: p.id,
      propertyId: fire.id,
      expectedVersion: fire.version,
      clientVisible: false,
    });
    expect((await getDoc(p.id)).sections[0]!.pieces[0]!.properties.map((x) => x.name)).toEqual(['Allowance']);
    expect((await owner.clientDocument.getClientDocumentSettings.query({ projectId: p.id })).propertyIds).toEqual([
      allowance.id,
    ]);
  });
});

describe('minted versions and photographs', () => {
  let p: Awaited<ReturnType<typeof pricedProject>>;
  const photos: Record<string, string> = {};
  beforeAll(async () => {
    p = await pricedProject('Minting');
    const add = async (key: string, seed: Parameters<typeof addPhotograph>[1]) => {
      photos[key] = (await addPhotograph(app.database, seed)).id;
    };
    await add('sofaSide', { projectId: p.id, lineId: p.sofa.id, position: 1, width: 4000, height: 3000 });
    await add('sofaCover', {
      projectId: p.id,
      lineId: p.sofa.id,
      position: 2,
      width: 3000,
      height: 4000,
      isCover: true,
    });
    await add('sofaTurned', {
      projectId: p.id,
      lineId: p.sofa.id,
      position: 3,
      width: 1200,
      height: 800,
      rotation: 90,
    });
    await add('sofaRemoved', {
      projectId: p.id,
      lineId: p.sofa.id,
      position: 4,
      width: 800,
      height: 800,
      removed: true,
    });
    await add('lamp', { projectId: p.id, lineId: p.lamp.id, position: 1, width: 640, height: 480 });
  });

  it('shows no photographs before the first mint; a preview shows them live, cover first, at display size', async () => {
    const live = await getDoc(p.id);
    expect(live.photographsAsOf).toBeNull();
    expect(live.sections[0]!.pieces.every((x) => x.photographs.length === 0)).toBe(true);

    const preview = await owner.clientDocument.previewClientDocument.query({ projectId: p.id });
    expect(preview.photographsAsOf).toBe(preview.piecesAsOf);
    expect(preview.sections[0]!.pieces[0]!.photographs).toEqual([
      { id: photos.sofaCover, width: 1176, height: 1568, alt: 'Three-seat sofa' },
      { id: photos.sofaSide, width: 1568, height: 1176, alt: 'Three-seat sofa' },
      // Turned a quarter: the upright original's sides swap; small enough to keep its size.
      { id: photos.sofaTurned, width: 800, height: 1200, alt: 'Three-seat sofa' },
    ]);
    expect(preview.sections[0]!.pieces[1]!.photographs).toEqual([
      { id: photos.lamp, width: 640, height: 480, alt: 'Table lamp' },
    ]);
    expect(JSON.stringify(preview)).not.toContain(photos.sofaRemoved);
    const viaMcp = await callAction(mcp, 'preview_client_document', { projectId: p.id });
    expect(withoutReadTime({ ...viaMcp.result, photographsAsOf: undefined })).toEqual(
      withoutReadTime({ ...preview, photographsAsOf: undefined }),
    );
    // Previewing keeps nothing.
    expect((await owner.clientDocument.listClientDocumentVersions.query({ projectId: p.id })).versions).toEqual([]);
  });

  it('mints versions numbered 1, 2 …; a retry with the same commandKey mints nothing new', async () => {
    const key = uuid();
    const first = await owner.clientDocument.mintClientDocument.mutate({ projectId: p.id, commandKey: key });
    expect(first).toMatchObject({ number: 1, title: 'Minting', pieceCount: 4, mintedBy: { name: expect.any(String) } });
    expect(first.document.piecesAsOf).toBe(first.mintedAt);
    expect(first.document.photographsAsOf).toBe(first.mintedAt);
    expect(first.document.sections[0]!.pieces[0]!.photographs.map((x) => x.id)).toEqual([
      photos.sofaCover,
      photos.sofaSide,
      photos.sofaTurned,
    ]);
    const replay = await owner.clientDocument.mintClientDocument.mutate({ projectId: p.id, commandKey: key });
    expect(replay).toEqual(first);
    const second = await callAction(mcp, 'mint_client_document', { projectId: p.id, commandKey: uuid() });
    expect(second.result).toMatchObject({ number: 2 });
    const list = await owner.clientDocument.listClientDocumentVersions.query({ projectId: p.id });
    expect(list.versions.map((v) => v.number)).toEqual([1, 2]);
    expect(list.versions[0]).toEqual({
      id: first.id,
      number: 1,
      title: 'Minting',
      pieceCount: 4,
      mintedAt: first.mintedAt,
      mintedBy: first.mintedBy,
    });
    const latest = await owner.clientDocument.listClientDocumentVersions.query({
      projectId: p.id,
      sort: '-number',
      limit: 1,
    });
    expect(latest.versions.map((v) => v.number)).toEqual([2]);
    expect(latest.nextCursor).not.toBeNull();
    const rest = await owner.clientDocument.listClientDocumentVersions.query({
      projectId: p.id,
      sort: '-number',
      cursor: latest.nextCursor!,
    });
    expect(rest.versions.map((v) => v.number)).toEqual([1]);
    expect((await callAction(mcp, 'list_client_document_versions', { projectId: p.id })).result).toEqual(list);
    const feed = await owner.audit.listProjectAuditEvents.query({
      projectId: p.id,
      action: 'mint_client_document',
    });
    expect(feed.items.map((e) => [e.target.kind, e.target.id]).sort()).toEqual(
      [first.id, second.result.id].sort().map((id) => ['client_document_version', id]),
    );
  });

  it('keeps each version as minted; the live document shows photographs as the latest mint froze them', async () => {
    const v1 = await owner.clientDocument.getClientDocumentVersion.query({ projectId: p.id, number: 1 });
    // Later: a price, a heading and an archival change, a photograph is added and another removed.
    const sofa = await owner.schedule.getScheduleLine.query({ projectId: p.id, lineId: p.sofa.id });
    await owner.schedule.updateScheduleLine.mutate({
      projectId: p.id,
      lineId: p.sofa.id,
      expectedVersion: sofa.version,
      patch: { heading: 'Four-seat sofa', tradePrice: { state: 'set', amount4: '2000000' } },
    });
    await owner.schedule.archiveScheduleLine.mutate({ projectId: p.id, lineId: p.rug.id, expectedVersion: 1 });
    const added = await addPhotograph(app.database, {
      projectId: p.id,
      lineId: p.sofa.id,
      position: 5,
      width: 100,
      height: 100,
    });
    await removePhotograph(app.database, photos.lamp!);

    expect(await owner.clientDocument.getClientDocumentVersion.query({ projectId: p.id, number: 1 })).toEqual(v1);
    expect((await callAction(mcp, 'get_client_document_version', { projectId: p.id, number: 1 })).result).toEqual(v1);
    const live = await getDoc(p.id);
    const v2 = await owner.clientDocument.getClientDocumentVersion.query({ projectId: p.id, number: 2 });
    expect(live.photographsAsOf).toBe(v2.mintedAt);
    const liveSofa = live.sections[0]!.pieces[0]!;
    expect(liveSofa.heading).toBe('Four-seat sofa');
    expect(liveSofa.unitPrice).not.toEqual(v1.document.sections[0]!.pieces[0]!.unitPrice);
    // Frozen: the new photograph is not shown, the removed one still is; alt follows the live heading.
    expect(liveSofa.photographs.map((x) => x.id)).toEqual([photos.sofaCover, photos.sofaSide, photos.sofaTurned]);
    expect(liveSofa.photographs[0]!.alt).toBe('Four-seat sofa');
    expect(live.sections[0]!.pieces[1]!.photographs.map((x) => x.id)).toEqual([photos.lamp]);
    expect(live.removedPieces.map((x) => x.heading)).toEqual(['Wool rug']);
    const preview = await owner.clientDocument.previewClientDocument.query({ projectId: p.id });
    expect(preview.sections[0]!.pieces[0]!.photographs.map((x) => x.id)).toContain(added.id);
    expect(preview.sections[0]!.pieces[1]!.photographs).toEqual([]);

    // What serves the frozen images is kept beside the document, never in it.
    expect(JSON.stringify(v1)).not.toMatch(/sha256|rotation/i);
    const kept = await fromOutside(app.database, (db) =>
      db
        .selectFrom('client_document_versions')
        .select('photograph_sources')
        .where('id', '=', v1.id)
        .executeTakeFirstOrThrow(),
    );
    const sources = JSON.parse(kept.photograph_sources) as Record<
      string,
      Array<{ id: string; sha256: string; rotation: number }>
    >;
    expect(sources[p.sofa.id]!.map((s) => [s.id, s.rotation])).toEqual([
      [photos.sofaCover, 0],
      [photos.sofaSide, 0],
      [photos.sofaTurned, 90],
    ]);
    expect(sources[p.sofa.id]![0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers NOT_FOUND for a version that was never minted, naming where to look', async () => {
    const missing = await refusal(owner.clientDocument.getClientDocumentVersion.query({ projectId: p.id, number: 99 }));
    expect(missing).toEqual({ code: 'NOT_FOUND', status: 404 });
    const viaMcp = await callAction(mcp, 'get_client_document_version', { projectId: p.id, number: 99 });
    expect(viaMcp.code).toBe('NOT_FOUND');
    expect(JSON.stringify(viaMcp.error)).toContain('list_client_document_versions');
  });
});

describe('who may, and where', () => {
  it('a viewer reads but may not change settings or mint; an assistant may not mint; no grant is NOT_FOUND', async () => {
    const projectId = app.projectId;
    const viewer = trpc(app.url, members.viewer.token);
    const assistant = trpc(app.url, members.assistant.token);
    expect((await viewer.clientDocument.getClientDocumentSettings.query({ projectId })).version).toBeGreaterThan(0);
    expect((await viewer.clientDocument.listClientDocumentVersions.query({ projectId })).versions).toEqual([]);
    const res = await http(app.url, 'GET', `/v1/projects/${projectId}/client-document`, {
      token: members.viewer.token,
    });
    expect(res.status).toBe(200);
    expect(
      await refusal(
        viewer.clientDocument.updateClientDocumentSettings.mutate({ projectId, expectedVersion: 1, showPrices: false }),
      ),
    ).toEqual({ code: 'FORBIDDEN', status: 403 });
    expect(
      await refusal(assistant.clientDocument.mintClientDocument.mutate({ projectId, commandKey: uuid() })),
    ).toEqual({
      code: 'FORBIDDEN',
      status: 403,
    });
    expect(
      (
        await callAction(await app.mcp(members.assistant.token), 'mint_client_document', {
          projectId,
          commandKey: uuid(),
        })
      ).code,
    ).toBe('FORBIDDEN');
    // A designer holds documents:write and an edit grant.
    const designer = trpc(app.url, members.designer.token);
    const minted = await designer.clientDocument.mintClientDocument.mutate({ projectId, commandKey: uuid() });
    expect(minted.number).toBe(1);
    const stranger = await memberWithToken(app.database, 'designer');
    const s = trpc(app.url, stranger.token);
    expect(await codeOf(s.clientDocument.getProjectClientDocument.query({ projectId }))).toBe('NOT_FOUND');
    expect(await codeOf(s.clientDocument.mintClientDocument.mutate({ projectId, commandKey: uuid() }))).toBe(
      'NOT_FOUND',
    );
    const rest = await http(app.url, 'GET', `/v1/projects/${projectId}/client-document`, { token: stranger.token });
    expect(rest.status).toBe(404);
  });

  it("an archived project's document reads as before; its settings and minting are frozen", async () => {
    const p = await pricedProject('Archived document');
    await owner.clientDocument.mintClientDocument.mutate({ projectId: p.id, commandKey: uuid() });
    const project = await owner.projects.getStudioProject.query({ projectId: p.id });
    await owner.projects.archiveStudioProject.mutate({ projectId: p.id, expectedVersion: project.version });
    expect((await getDoc(p.id)).totals.pieceCount).toBe(4);
    expect((await owner.clientDocument.getClientDocumentVersion.query({ projectId: p.id, number: 1 })).number).toBe(1);
    expect(await codeOf(owner.clientDocument.mintClientDocument.mutate({ projectId: p.id, commandKey: uuid() }))).toBe(
      'ARCHIVED',
    );
    expect(
      await codeOf(
        owner.clientDocument.updateClientDocumentSettings.mutate({
          projectId: p.id,
          expectedVersion: 1,
          title: 'Late',
        }),
      ),
    ).toBe('ARCHIVED');
  });

  // Last: it adds a second studio to the database.
  it("another studio's member finds no such project (404), whatever the surface", async () => {
    const now = new Date().toISOString();
    const { memberId } = await createStudioWithOwner(
      app.rt.store.db,
      { name: 'Elsewhere Studio', currency: 'EUR', codePrefix: 'EL' },
      { email: 'el-docs@example.test', name: 'El' },
      now,
    );
    const { token } = await mintToken(app.rt.store.db, memberId, 'elsewhere', now);
    const res = await http(app.url, 'GET', `/v1/projects/${app.projectId}/client-document`, { token });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
    const them = trpc(app.url, token);
    expect(await codeOf(them.clientDocument.previewClientDocument.query({ projectId: app.projectId }))).toBe(
      'NOT_FOUND',
    );
    expect(
      await codeOf(them.clientDocument.getClientDocumentVersion.query({ projectId: app.projectId, number: 1 })),
    ).toBe('NOT_FOUND');
  });
});
