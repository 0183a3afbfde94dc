/**
 * get_shared_document (`GET /v1/shares/{token}/document`): the document a share link opens, read by the token alone.
 * Over plain HTTP without an Authorization header, and over MCP from a connection whose member could not read the
 * project at all (the token is the authority, never the connection). Every token that does not work, whatever the
 * reason or shape, gets one refusal. Photographs are served by the token, only those the document shows, as the
 * latest mint froze them, while pieces follow the live schedule; prices vanish when the settings hide them.
 */
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../helpers/calls.js';
import type { Trpc } from '../helpers/clients.js';
import { fromOutside, memberWithToken } from '../helpers/fixtures.js';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { solid } from '../helpers/images.js';
import { ACCENT, buildSharedProject, issueShare, type SharedProject, uploadPhotograph } from './fixture.js';

let app: TestApp;
let owner: Trpc;
let shared: SharedProject;

openTestApp((opened) => ({ app, owner } = opened));
beforeAll(async () => {
  shared = await buildSharedProject(app, owner);
});

/** A plain fetch, with no Authorization header and nothing else: what a client's browser or script sends. */
const anonymous = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${app.url}${path}`, { headers });
  const type = res.headers.get('content-type') ?? '';
  const body: any = type.includes('json') ? await res.json() : Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body };
};
const read = (token: string) => anonymous(`/v1/shares/${token}/document`);

/** The shared document over MCP's call_action, as an agent calls a resource action: its fields as the arguments. */
const readOverMcp = async (mcp: Client, token: unknown) =>
  callTool(mcp, 'call_action', { name: 'get_shared_document', arguments: { token } });

/** A document without its read time, which moves on every read. */
const settled = (doc: any) => ({ ...doc, document: { ...doc.document, piecesAsOf: undefined } });

const piecesOf = (doc: any): any[] => doc.document.sections.flatMap((s: any) => s.pieces);
const photographIds = (doc: any): string[] => piecesOf(doc).flatMap((p) => p.photographs.map((ph: any) => ph.id));

describe('reading the shared document', () => {
  it('over plain HTTP with no Authorization header: the client document, the link and its photograph URLs', async () => {
    const res = await read(shared.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const doc = res.body;
    expect(doc.intent).toBe('view');
    expect(Date.parse(doc.expiresAt) - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
    expect(doc.document).toMatchObject({
      title: 'Marsden townhouse: furniture and lighting',
      projectName: 'Marsden townhouse',
      branding: { accentColour: ACCENT },
      currency: 'GBP',
      showPrices: true,
    });
    expect(doc.document.studioName.length).toBeGreaterThan(0);
    expect(doc.document.sections.map((s: any) => s.title)).toEqual(['Drawing room', 'Principal bedroom']);
    expect(doc.document.removedPieces.map((r: any) => r.heading)).toEqual(['Walnut side table']);
    // Photographs as the mint froze them, each at URLs that carry the token and nothing else.
    expect(photographIds(doc)).toEqual(shared.photographs.shown);
    for (const p of piecesOf(doc).flatMap((piece) => piece.photographs)) {
      expect(p.url).toBe(`/s/${shared.token}/photographs/${p.id}?variant=display`);
      expect(p.thumbnailUrl).toBe(`/s/${shared.token}/photographs/${p.id}?variant=thumbnail`);
    }
  });

  it("is the studio's own client document, with photograph URLs added and nothing else", async () => {
    const doc = (await read(shared.token)).body;
    const own = await owner.clientDocument.getProjectClientDocument.query({ projectId: shared.projectId });
    const withoutUrls = {
      ...doc.document,
      sections: doc.document.sections.map((s: any) => ({
        ...s,
        pieces: s.pieces.map((p: any) => ({
          ...p,
          photographs: p.photographs.map(({ url: _u, thumbnailUrl: _t, ...rest }: any) => rest),
        })),
      })),
    };
    expect({ ...withoutUrls, piecesAsOf: null }).toEqual({ ...own, piecesAsOf: null });
  });

  it('over MCP with the token as the argument, from a connection whose member cannot read the project', async () => {
    const rest = (await read(shared.token)).body;
    const ownerMcp = await app.mcp();
    const viaOwner = await readOverMcp(ownerMcp, shared.token);
    expect(settled(viaOwner.result.result)).toEqual(settled(rest));
    // A viewer with no grant on this project: the project is out of their reach, the link is not.
    const outsider = await memberWithToken(app.database, 'viewer', []);
    const outsiderMcp = await app.mcp(outsider.token);
    const own = await callTool(outsiderMcp, 'call_action', {
      name: 'get_project_client_document',
      arguments: { input: { projectId: shared.projectId } },
    });
    expect(own.code).toBe('NOT_FOUND');
    const viaOutsider = await readOverMcp(outsiderMcp, shared.token);
    expect(settled(viaOutsider.result.result)).toEqual(settled(rest));
  });
});

describe('one refusal for every token that does not work', () => {
  let refusals: Record<string, string>;

  beforeAll(async () => {
    const revoked = await issueShare(owner, shared.projectId);
    await owner.shares.revokeProjectShare.mutate({
      projectId: shared.projectId,
      shareId: revoked.shareId,
      commandKey: crypto.randomUUID(),
    });
    const expired = await issueShare(owner, shared.projectId, 1);
    await fromOutside(app.database, (db) =>
      db
        .updateTable('shares')
        .set({ expires_at: '2000-01-01T00:00:00.000Z' })
        .where('id', '=', expired.shareId)
        .execute(),
    );
    refusals = {
      revoked: revoked.token,
      expired: expired.token,
      unknown: `share_${randomBytes(32).toString('base64url')}`,
      malformed: 'not-a-share-token',
      'live token with more after it': `${shared.token}x`,
      'NUL (percent-encoded)': '%00',
      'bad percent-encoding': '%zz',
      'far too long': 'x'.repeat(3000),
      'a slash (percent-encoded)': 'a%2Fb',
    };
  });

  it('over HTTP: 403 FORBIDDEN, the same problem document and headers whatever the reason', async () => {
    const seen = [];
    for (const [why, token] of Object.entries(refusals)) {
      const res = await read(token);
      const { requestId: _r, ...body } = res.body;
      seen.push({
        why,
        status: res.status,
        type: res.headers.get('content-type'),
        cache: res.headers.get('cache-control'),
        referrer: res.headers.get('referrer-policy'),
        body,
      });
    }
    const first = seen[0]!;
    expect(first).toMatchObject({
      status: 403,
      body: { code: 'FORBIDDEN' },
      cache: 'no-store',
      referrer: 'no-referrer',
    });
    expect(first.body.detail).toMatch(/no longer available; ask the studio/);
    for (const s of seen) expect({ ...s, why: first.why }, s.why).toEqual(first);
  });

  it('over MCP: FORBIDDEN with the same sentence, a lone surrogate in the token too', async () => {
    const mcp = await app.mcp();
    const tokens = [refusals.revoked, refusals.expired, refusals.unknown, refusals.malformed, 'share_\ud800', ''];
    const answers = await Promise.all(tokens.map((t) => readOverMcp(mcp, t)));
    for (const a of answers)
      expect({ code: a.code, detail: a.error?.detail }).toEqual({
        code: 'FORBIDDEN',
        detail: answers[0]!.error!.detail,
      });
  });
});

describe('photographs by token', () => {
  const photo = (token: string, id: string, variant = 'display') =>
    anonymous(`/s/${token}/photographs/${id}?variant=${variant}`);

  it('serves every photograph the document shows, upright at its stated size, without any credential', async () => {
    const doc = (await read(shared.token)).body;
    for (const p of piecesOf(doc).flatMap((piece) => piece.photographs)) {
      const res = await anonymous(p.url);
      expect(res.status, p.id).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('cache-control')).toBe('private, no-cache');
      const facts = await sharp(res.body).metadata();
      expect({ width: facts.width, height: facts.height }).toEqual({ width: p.width, height: p.height });
      const thumb = await anonymous(p.thumbnailUrl);
      const small = await sharp(thumb.body).metadata();
      expect(Math.max(small.width!, small.height!)).toBeLessThanOrEqual(320);
      // Revalidation costs a 304 (and still passes the token check).
      const again = await anonymous(p.url, { 'if-none-match': res.headers.get('etag')! });
      expect(again.status).toBe(304);
    }
  });

  it('answers 404 for a photograph the document does not show, with a working token', async () => {
    const { addedAfterMint, onRemovedPiece } = shared.photographs;
    for (const id of [addedAfterMint, onRemovedPiece, 'no-such-photograph']) {
      const res = await photo(shared.token, id);
      expect(res.status, id).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
    }
    expect((await photo(shared.token, shared.photographs.shown[0]!, 'original')).status).toBe(400);
  });

  it('answers the one 403 page for a token that does not work, whatever the photograph', async () => {
    const page = await anonymous('/s/not-a-share-token');
    expect(page.status).toBe(403);
    for (const token of ['not-a-share-token', `share_${randomBytes(32).toString('base64url')}`, '%00']) {
      for (const id of [shared.photographs.shown[0]!, shared.photographs.addedAfterMint, 'x']) {
        const res = await photo(token, id);
        expect({ status: res.status, body: res.body.toString() }, `${token} ${id}`).toEqual({
          status: 403,
          body: page.body.toString(),
        });
      }
    }
  });
});

describe('what the link shows follows the studio', () => {
  it('prices vanish, fields and all, when the settings hide them; the page too', async () => {
    const other = await buildSharedProject(app, owner);
    const settings = await owner.clientDocument.getClientDocumentSettings.query({ projectId: other.projectId });
    await owner.clientDocument.updateClientDocumentSettings.mutate({
      projectId: other.projectId,
      expectedVersion: settings.version,
      showPrices: false,
    });
    const doc = (await read(other.token)).body;
    expect(doc.document.showPrices).toBe(false);
    for (const piece of piecesOf(doc)) {
      for (const field of ['priceState', 'unitPrice', 'total']) expect(piece, field).not.toHaveProperty(field);
      expect(piece.quantity.amount4).toMatch(/^\d+$/);
    }
    for (const section of doc.document.sections) expect(section).not.toHaveProperty('total');
    expect(Object.keys(doc.document.totals)).toEqual(['pieceCount']);
    const page = (await anonymous(other.path)).body.toString();
    expect(page).toContain('Three-seat sofa in washed linen');
    expect(page).not.toMatch(/£|Unit price|To be confirmed/);
  });

  it('pieces follow live edits while photographs stay as minted, until the next mint', async () => {
    const { projectId, lines } = shared;
    const sofa = await owner.schedule.getScheduleLine.query({ projectId, lineId: lines.sofa });
    await owner.schedule.updateScheduleLine.mutate({
      projectId,
      lineId: lines.sofa,
      expectedVersion: sofa.version,
      patch: {
        heading: 'Three-seat sofa in washed linen, re-covered',
        clientPrice: { state: 'set', amount4: '45000000' },
      },
    });
    // The sofa's cover photograph is taken off the line; a new one goes on.
    const listed = await owner.photographs.listLinePhotographs.query({ projectId, lineId: lines.sofa });
    const [cover] = shared.photographs.shown as [string];
    await owner.photographs.removeLinePhotograph.mutate({
      projectId,
      lineId: lines.sofa,
      photographId: cover,
      expectedVersion: listed.version,
    });
    const fresh = await uploadPhotograph(
      app,
      projectId,
      lines.sofa,
      await solid('jpeg', 500, 400, '#334455'),
      'image/jpeg',
    );

    const doc = (await read(shared.token)).body;
    const piece = piecesOf(doc).find((p) => p.reference === sofa.code);
    expect(piece.heading).toBe('Three-seat sofa in washed linen, re-covered');
    expect(piece.unitPrice).toEqual({ amount4: '45000000', currency: 'GBP' });
    expect(piece.photographs.map((p: any) => p.alt)).toEqual([piece.heading, piece.heading]);
    // As minted: the removed cover is still shown and served, the new photograph not yet.
    expect(photographIds(doc)).toEqual(shared.photographs.shown);
    expect((await anonymous(piece.photographs[0].url)).status).toBe(200);
    expect((await anonymous(`/s/${shared.token}/photographs/${fresh}?variant=display`)).status).toBe(404);

    await owner.clientDocument.mintClientDocument.mutate({ projectId, commandKey: crypto.randomUUID() });
    const after = (await read(shared.token)).body;
    expect(photographIds(after)).toContain(fresh);
    expect(photographIds(after)).toContain(shared.photographs.addedAfterMint);
    expect(photographIds(after)).not.toContain(cover);
    expect((await anonymous(`/s/${shared.token}/photographs/${fresh}?variant=display`)).status).toBe(200);
    expect((await anonymous(`/s/${shared.token}/photographs/${cover}?variant=display`)).status).toBe(404);
  });

  it('a revoked link stops reading the document and its photographs at once', async () => {
    const { token, shareId } = await issueShare(owner, shared.projectId);
    const doc = (await read(token)).body;
    const url = piecesOf(doc).flatMap((p) => p.photographs)[0].url;
    expect((await anonymous(url)).status).toBe(200);
    await owner.shares.revokeProjectShare.mutate({
      projectId: shared.projectId,
      shareId,
      commandKey: crypto.randomUUID(),
    });
    expect((await read(token)).status).toBe(403);
    expect((await anonymous(url)).status).toBe(403);
  });
});
