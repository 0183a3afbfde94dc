/**
 * The shares domain (6 procedures, 2 resource operations) through the typed tRPC client, MCP call_action and plain
 * HTTP: a share is an issued, immutable link to a project's live client document, whose token is shown once and stored
 * only as a digest; revocation is an appended record; reissue mints another link and leaves the old one as issued.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { http, trpc, type Trpc } from '../helpers/clients.js';
import { callAction, callTool, codeOf, refusal } from '../helpers/calls.js';
import { demoMembers, fromOutside, type Member, studioOfTheirOwn } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';

const DAY_MS = 24 * 60 * 60 * 1000;

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let projectId: string;
let designer: Member;
let assistant: Member;
/** Every token any test was given, to prove none of them is ever shown or kept again. */
const tokens: string[] = [];

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  ({ designer, assistant } = await demoMembers(app, ['designer', 'assistant']));
  projectId = app.projectId;
});

type IssueInput = { recipientEmail?: string; expiresInDays?: number; intent?: 'view' };
const issue = async (input: IssueInput = {}, pid = projectId, client = owner) => {
  const share = await client.shares.issueProjectShare.mutate({
    projectId: pid,
    commandKey: uuid(),
    confirm: true,
    ...input,
  });
  if (share.token) tokens.push(share.token);
  return share;
};

/** A resource operation through MCP call_action: its fields at the top level, Idempotency-Key as idempotencyKey. */
const callResource = async (name: string, args: Record<string, unknown>) => {
  const out = await callTool(mcp, 'call_action', { name, arguments: args });
  return out.error ? out : { result: out.result.result };
};

const sharePath = (shareId: string, pid = projectId) => `/v1/projects/${pid}/shares/${shareId}`;

describe('issue, get and list', () => {
  it('issues a link to the live client document, with its token and url once; tokenHint is the last 4 characters', async () => {
    const share = await issue({ recipientEmail: 'Client@Example.com', expiresInDays: 30 });
    expect(share.token).toMatch(/^share_[A-Za-z0-9_-]{43}$/);
    expect(share.url).toBe(`${app.rt.config.baseUrl}/s/${share.token}`);
    expect(share.tokenHint).toBe(share.token!.slice(-4));
    expect(share).toMatchObject({
      projectId,
      document: { kind: 'client_document', id: projectId },
      intent: 'view',
      recipientEmail: 'client@example.com',
      revokedAt: null,
      state: 'live',
    });
    expect(share.issuedBy.memberId).toMatch(/^[0-9a-z]{26}$/);
    expect(share.issuedBy.name.length).toBeGreaterThan(0);
    expect(Date.parse(share.expiresAt!) - Date.parse(share.issuedAt)).toBe(30 * DAY_MS);

    const { token: _t, url: _u, served: _s, ...stored } = share;
    const got = await owner.shares.getProjectShare.query({ projectId, shareId: share.id });
    expect(got).toEqual(stored);
    const listed = await owner.shares.listProjectShares.query({ projectId });
    expect(listed.items[0]).toEqual(stored);
    expect(JSON.stringify([got, listed])).not.toContain(share.token);
  });

  it('answers a commandKey replay with the same share but never the token or url again', async () => {
    const commandKey = uuid();
    const first = await owner.shares.issueProjectShare.mutate({
      projectId,
      commandKey,
      recipientEmail: 'a@b.test',
      confirm: true,
    });
    tokens.push(first.token!);
    const again = await owner.shares.issueProjectShare.mutate({ projectId, commandKey, recipientEmail: 'a@b.test' });
    expect(again.id).toBe(first.id);
    expect(again.token).toBeNull();
    expect(again.url).toBeNull();
    expect(
      await codeOf(owner.shares.issueProjectShare.mutate({ projectId, commandKey, recipientEmail: 'c@d.test' })),
    ).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await codeOf(owner.shares.issueProjectShare.mutate({ projectId }))).toBe('IDEMPOTENCY_KEY_REQUIRED');
  });

  it('refuses an invalid recipient, an expiry outside 1 to 365 days and an intent other than view', async () => {
    for (const bad of [
      { recipientEmail: 'not an address' },
      { expiresInDays: 0 },
      { expiresInDays: 366 },
      { expiresInDays: 1.5 },
      { intent: 'decide' },
    ]) {
      expect(await codeOf(issue(bad as IssueInput)), JSON.stringify(bad)).toBe('VALIDATION_FAILED');
    }
  });

  it('lists newest first (or oldest first), filters by state and recipient, and answers the same through MCP', async () => {
    const p = await owner.projects.createStudioProject.mutate({ name: 'Listing shares', commandKey: uuid() });
    const a = await issue({ recipientEmail: 'one@example.test' }, p.id);
    const b = await issue({ expiresInDays: 1 }, p.id);
    const c = await issue({}, p.id);
    await owner.shares.revokeProjectShare.mutate({ projectId: p.id, shareId: c.id, commandKey: uuid() });
    // Time passing, simulated: b's day is over.
    await fromOutside(app.database, (db) =>
      db.updateTable('shares').set({ expires_at: '2000-01-01T00:00:00.000Z' }).where('id', '=', b.id).execute(),
    );
    const ids = async (q: Record<string, unknown>) =>
      (await owner.shares.listProjectShares.query({ projectId: p.id, ...q })).items.map((s) => s.id);
    expect((await ids({})).sort()).toEqual([a.id, b.id, c.id].sort());
    const newest = await owner.shares.listProjectShares.query({ projectId: p.id });
    expect(newest.items.map((s) => s.issuedAt)).toEqual(
      newest.items
        .map((s) => s.issuedAt)
        .sort()
        .reverse(),
    );
    expect(await ids({ sort: 'issuedAt' })).toEqual([...(await ids({}))].reverse());
    expect(await ids({ state: 'live' })).toEqual([a.id]);
    expect(await ids({ state: 'expired' })).toEqual([b.id]);
    expect(await ids({ state: 'revoked' })).toEqual([c.id]);
    expect(await ids({ recipientEmail: 'ONE@example.test' })).toEqual([a.id]);
    const states = Object.fromEntries(newest.items.map((s) => [s.id, s.state]));
    expect(states).toEqual({ [a.id]: 'live', [b.id]: 'expired', [c.id]: 'revoked' });
    expect((await callAction(mcp, 'list_project_shares', { projectId: p.id })).result).toEqual(newest);
    expect((await callAction(mcp, 'get_project_share', { projectId: p.id, shareId: a.id })).result).toEqual(
      newest.items.find((s) => s.id === a.id),
    );
  });

  it('issues through MCP call_action, with the token once', async () => {
    const out = await callAction(mcp, 'issue_project_share', { projectId, commandKey: uuid(), confirm: true });
    expect(out.result.token).toMatch(/^share_/);
    expect(out.result.tokenHint).toBe(out.result.token.slice(-4));
    tokens.push(out.result.token);
  });
});

describe('revoke', () => {
  it('appends a revocation record; the share shows revokedAt from it and is otherwise as issued', async () => {
    const share = await issue({ recipientEmail: 'gone@example.test' });
    const revocation = await owner.shares.revokeProjectShare.mutate({
      projectId,
      shareId: share.id,
      reason: 'Sent to the wrong address',
      commandKey: uuid(),
    });
    expect(revocation).toMatchObject({ shareId: share.id, projectId, reason: 'Sent to the wrong address' });
    expect(revocation.revokedBy.memberId).toBe(share.issuedBy.memberId);
    const after = await owner.shares.getProjectShare.query({ projectId, shareId: share.id });
    const { token: _t, url: _u, served: _s, ...issued } = share;
    expect(after).toEqual({ ...issued, revokedAt: revocation.revokedAt, state: 'revoked' });
    const listed = await owner.shares.listShareRevocations.query({ projectId, shareId: share.id });
    expect(listed.items).toEqual([revocation]);
    expect((await owner.shares.listShareRevocations.query({ projectId })).items[0]).toEqual(revocation);
    expect((await callAction(mcp, 'list_share_revocations', { projectId, shareId: share.id })).result).toEqual(listed);
  });

  it('revoking twice answers the first revocation and changes nothing (no second record, no audit event)', async () => {
    const share = await issue();
    const first = await owner.shares.revokeProjectShare.mutate({ projectId, shareId: share.id, commandKey: uuid() });
    const feed = async () => (await owner.audit.listProjectAuditEvents.query({ projectId, targetId: share.id })).items;
    const events = await feed();
    const second = await owner.shares.revokeProjectShare.mutate({
      projectId,
      shareId: share.id,
      reason: 'Again',
      commandKey: uuid(),
    });
    expect(second).toEqual(first);
    expect(await feed()).toEqual(events);
    const viaMcp = await callAction(mcp, 'revoke_project_share', { projectId, shareId: share.id, commandKey: uuid() });
    expect(viaMcp.result).toEqual(first);
    expect((await owner.shares.listShareRevocations.query({ projectId, shareId: share.id })).items).toHaveLength(1);
  });
});

describe('reissue', () => {
  it('mints a new share with the same document, intent, recipient and lifetime; the old one stays as issued', async () => {
    const old = await issue({ recipientEmail: 'lost@example.test', expiresInDays: 14 });
    const fresh = await owner.shares.reissueProjectShare.mutate({
      projectId,
      shareId: old.id,
      commandKey: uuid(),
      confirm: true,
    });
    tokens.push(fresh.token!);
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.token).not.toBe(old.token);
    expect(fresh).toMatchObject({
      document: old.document,
      intent: old.intent,
      recipientEmail: 'lost@example.test',
      state: 'live',
      revokedAt: null,
    });
    expect(Date.parse(fresh.expiresAt!) - Date.parse(fresh.issuedAt)).toBe(14 * DAY_MS);
    const { token: _t, url: _u, served: _s, ...issued } = old;
    expect(await owner.shares.getProjectShare.query({ projectId, shareId: old.id })).toEqual(issued);
    // A link without expiry gives one without expiry; a revoked share may be reissued (the usual way to replace it).
    const forever = await issue();
    await owner.shares.revokeProjectShare.mutate({ projectId, shareId: forever.id, commandKey: uuid() });
    const again = await callAction(mcp, 'reissue_project_share', {
      projectId,
      shareId: forever.id,
      commandKey: uuid(),
      confirm: true,
    });
    tokens.push(again.result.token);
    expect(again.result).toMatchObject({ expiresAt: null, state: 'live' });
  });
});

describe('the /v1 resources', () => {
  it('POST …/reissues answers 201 with Location of the new share; a replay answers the same record without the token', async () => {
    const old = await issue({ recipientEmail: 'rest@example.test' });
    const key = uuid();
    const first = await http(app.url, 'POST', `${sharePath(old.id)}/reissues`, {
      token: app.token,
      headers: { 'idempotency-key': key },
      body: { confirm: true },
    });
    expect(first.status).toBe(201);
    expect(first.headers.get('location')).toBe(sharePath(first.body.id));
    expect(first.body.token).toMatch(/^share_/);
    expect(first.body.url).toBe(`${app.rt.config.baseUrl}/s/${first.body.token}`);
    expect(first.body.recipientEmail).toBe('rest@example.test');
    tokens.push(first.body.token);
    const replay = await http(app.url, 'POST', `${sharePath(old.id)}/reissues`, {
      token: app.token,
      headers: { 'idempotency-key': key },
    });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual({ ...first.body, token: null, url: null });
    expect(JSON.stringify(replay.body)).not.toContain(first.body.token);
    const missing = await http(app.url, 'POST', `${sharePath(old.id)}/reissues`, { token: app.token });
    expect([missing.status, missing.body.code]).toEqual([400, 'IDEMPOTENCY_KEY_REQUIRED']);
  });

  it('POST …/revocation answers the appended record; a replay and a second revocation answer the same one', async () => {
    const share = await issue();
    const key = uuid();
    const revoke = (k: string, body?: unknown) =>
      http(app.url, 'POST', `${sharePath(share.id)}/revocation`, {
        token: app.token,
        headers: { 'idempotency-key': k },
        body,
      });
    const first = await revoke(key, { reason: 'Project paused' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ shareId: share.id, projectId, reason: 'Project paused' });
    const replay = await revoke(key, { reason: 'Project paused' });
    expect([replay.status, replay.body]).toEqual([200, first.body]);
    const second = await revoke(uuid());
    expect([second.status, second.body]).toEqual([200, first.body]);
    expect((await revoke(key, { reason: 'Other' })).body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('both are reached through MCP call_action with idempotencyKey', async () => {
    const share = await issue();
    const fresh = await callResource('reissue_share', {
      projectId,
      shareId: share.id,
      idempotencyKey: uuid(),
      confirm: true,
    });
    expect(fresh.result.token).toMatch(/^share_/);
    tokens.push(fresh.result.token);
    const revoked = await callResource('revoke_share', { projectId, shareId: share.id, idempotencyKey: uuid() });
    expect(revoked.result).toMatchObject({ shareId: share.id });
    expect((await owner.shares.getProjectShare.query({ projectId, shareId: share.id })).state).toBe('revoked');
  });

  it("a share of another studio's project is NOT_FOUND, through either path; so is one of another project", async () => {
    const { them } = await studioOfTheirOwn(app, owner);
    const theirProject = await them.projects.createStudioProject.mutate({ name: 'Theirs', commandKey: uuid() });
    const theirs = await issue({}, theirProject.id, them);
    for (const path of [sharePath(theirs.id, theirProject.id), sharePath(theirs.id)]) {
      for (const op of ['reissues', 'revocation']) {
        const res = await http(app.url, 'POST', `${path}/${op}`, {
          token: app.token,
          headers: { 'idempotency-key': uuid() },
        });
        expect([res.status, res.body.code], `${path}/${op}`).toEqual([404, 'NOT_FOUND']);
      }
    }
    expect(await codeOf(owner.shares.getProjectShare.query({ projectId, shareId: theirs.id }))).toBe('NOT_FOUND');
    const other = await owner.projects.createStudioProject.mutate({ name: 'Other job', commandKey: uuid() });
    const mine = await issue({}, other.id);
    const res = await http(app.url, 'POST', `${sharePath(mine.id)}/revocation`, {
      token: app.token,
      headers: { 'idempotency-key': uuid() },
    });
    expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await them.shares.getProjectShare.query({ projectId: theirProject.id, shareId: theirs.id })).state).toBe(
      'live',
    );
  });
});

describe('who may, and when', () => {
  it('a role without shares:manage is refused 403 on every share action; a designer may issue', async () => {
    const share = await issue();
    const a = trpc(app.url, assistant.token);
    expect(await refusal(a.shares.listProjectShares.query({ projectId }))).toEqual({ code: 'FORBIDDEN', status: 403 });
    expect(await codeOf(a.shares.issueProjectShare.mutate({ projectId, commandKey: uuid() }))).toBe('FORBIDDEN');
    for (const op of ['reissues', 'revocation']) {
      const res = await http(app.url, 'POST', `${sharePath(share.id)}/${op}`, {
        token: assistant.token,
        headers: { 'idempotency-key': uuid() },
      });
      expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
    }
    const byDesigner = await issue({}, projectId, trpc(app.url, designer.token));
    expect(byDesigner.issuedBy.memberId).toBe(designer.memberId);
    expect(byDesigner.issuedBy.name).toBe('Test designer');
  });

  it('an archived project takes no new or reissued shares, but its links can still be revoked', async () => {
    const p = await owner.projects.createStudioProject.mutate({ name: 'Archived job', commandKey: uuid() });
    const share = await issue({}, p.id);
    await owner.projects.archiveStudioProject.mutate({ projectId: p.id, expectedVersion: p.version });
    expect(await codeOf(issue({}, p.id))).toBe('ARCHIVED');
    expect(
      await codeOf(owner.shares.reissueProjectShare.mutate({ projectId: p.id, shareId: share.id, commandKey: uuid() })),
    ).toBe('ARCHIVED');
    const revoked = await owner.shares.revokeProjectShare.mutate({
      projectId: p.id,
      shareId: share.id,
      commandKey: uuid(),
    });
    expect(revoked.shareId).toBe(share.id);
  });
});

describe('the token is never kept or shown again', () => {
  it('audit events record each write by tokenHint and never hold a token; neither do reads or stored replies', async () => {
    const share = await issue();
    const fresh = await owner.shares.reissueProjectShare.mutate({
      projectId,
      shareId: share.id,
      commandKey: uuid(),
      confirm: true,
    });
    tokens.push(fresh.token!);
    await owner.shares.revokeProjectShare.mutate({ projectId, shareId: share.id, commandKey: uuid() });
    const events = (await owner.audit.listProjectAuditEvents.query({ projectId, limit: 1000 })).items.filter(
      (e) => e.target.kind === 'share',
    );
    const about = (id: string) => events.filter((e) => e.target.id === id).map((e) => e.action);
    expect(about(share.id).sort()).toEqual(['issue_project_share', 'revoke_project_share']);
    expect(about(fresh.id)).toEqual(['reissue_project_share']);
    const issued = events.find((e) => e.target.id === share.id && e.action === 'issue_project_share')!;
    expect(issued.changes).toMatchObject({ created: { to: { tokenHint: share.tokenHint } } });

    const everything = await fromOutside(app.database, async (db) =>
      JSON.stringify([
        await db.selectFrom('audit_events').selectAll().execute(),
        await db.selectFrom('idempotency_records').selectAll().execute(),
        await db.selectFrom('shares').selectAll().execute(),
        await db.selectFrom('share_revocations').selectAll().execute(),
      ]),
    );
    const shown = JSON.stringify([
      await owner.shares.listProjectShares.query({ projectId, limit: 1000 }),
      await owner.shares.listShareRevocations.query({ projectId, limit: 1000 }),
      events,
    ]);
    expect(tokens.length).toBeGreaterThan(8);
    for (const token of tokens) {
      expect(everything).not.toContain(token);
      expect(everything).not.toContain(token.slice('share_'.length));
      expect(shown).not.toContain(token);
    }
  });
});
