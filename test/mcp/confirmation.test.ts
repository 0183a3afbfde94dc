/**
 * Acts the person must confirm themselves (removing a member, handing the studio on, sharing the schedule), with real
 * MCP SDK clients: one that declared elicitation is asked the question through `elicitation/create` (in memory and
 * over stdio as mcp.json starts the server) and the act goes ahead only on the person's acceptance, whatever the
 * agent sent as confirm; one that did not (or stateless HTTP, which cannot ask) gets CONFIRMATION_REQUIRED and then
 * confirm: true works. The audit event says which. A keyed replay is never asked again. The stdio case runs dist/:
 * `npm run build` first.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAction } from '../helpers/calls.js';
import { http, type Trpc } from '../helpers/clients.js';
import { httpMcp, spawnStdioMcp, type StdioMcp } from '../helpers/e2e.js';
import { type Member, memberWithToken } from '../helpers/fixtures.js';
import { openTestApp, type TestApp } from '../helpers/in-process.js';

let app: TestApp;
let owner: Trpc;
let members: Member[];
let stdio: StdioMcp | undefined;

openTestApp((opened) => ({ app, owner } = opened));
beforeAll(async () => {
  members = [];
  for (const role of ['designer', 'assistant', 'viewer', 'admin', 'designer'] as const) {
    members.push(await memberWithToken(app.database, role));
  }
});
afterAll(async () => {
  await stdio?.close();
});

/** The person behind a client that can ask them: answers as told, and keeps every question put to them. */
function personBehind(client: Client) {
  const asked: Array<{ message: string; requestedSchema?: unknown }> = [];
  let next: ElicitResult = { action: 'decline' };
  client.setRequestHandler(ElicitRequestSchema, async ({ params }) => {
    asked.push({
      message: params.message,
      ...('requestedSchema' in params ? { requestedSchema: params.requestedSchema } : {}),
    });
    return next;
  });
  return {
    asked,
    /** How the person answers the next questions. */
    answers(answer: ElicitResult) {
      next = answer;
    },
  };
}

const ACCEPT: ElicitResult = { action: 'accept', content: { confirm: true } };
const elicitation = { elicitation: {} };

const stateOf = async (m: Member) => (await owner.members.getStudioMember.query({ memberId: m.memberId })).state;
const canStillWork = async (m: Member) => (await http(app.url, 'GET', '/v1/projects', { token: m.token })).status;
const emailOf = async (m: Member) => (await owner.members.getStudioMember.query({ memberId: m.memberId })).email;

/** The audit events one action recorded about one member, newest first. */
async function eventsOf(action: string, targetId: string) {
  const feed = await owner.audit.listStudioAuditEvents.query({ action, limit: 500 });
  return feed.items.filter((e) => e.target.id === targetId);
}

describe('a client that can ask the person (elicitation)', () => {
  it('asks them in words naming the act, and removes the member only once they accept', async () => {
    const client = await app.mcp(app.token, elicitation);
    const person = personBehind(client);
    const jo = members[0]!;
    person.answers(ACCEPT);
    const out = await callAction(client, 'remove_studio_member', { memberId: jo.memberId });
    expect(out.result).toMatchObject({ member: { id: jo.memberId, state: 'removed' }, tokensRevoked: 1 });
    expect(person.asked).toHaveLength(1);
    const question = person.asked[0]!;
    expect(question.message).toBe(
      `Remove Test designer (${await emailOf(jo)}) from Hartley & Rowe Interiors? Their API tokens and OAuth connections here stop working at once and their project grants are deleted; only a new invitation brings them back.`,
    );
    // The smallest form: one box the person ticks.
    expect(question.requestedSchema).toMatchObject({
      type: 'object',
      properties: { confirm: { type: 'boolean' } },
      required: ['confirm'],
    });
    expect(await canStillWork(jo)).toBe(401);
    const [event] = await eventsOf('remove_studio_member', jo.memberId);
    expect(event!.changes).toMatchObject({ confirmedBy: 'elicitation', removedAt: { from: null } });
    // Removing a removed member changes nothing, so there is nothing to ask.
    await callAction(client, 'remove_studio_member', { memberId: jo.memberId });
    expect(person.asked).toHaveLength(1);
  });

  it('changes nothing when the person declines, cancels or accepts without ticking the box, even with confirm: true from the agent', async () => {
    const client = await app.mcp(app.token, elicitation);
    const person = personBehind(client);
    const sam = members[1]!;
    const answers: ElicitResult[] = [
      { action: 'decline' },
      { action: 'cancel' },
      { action: 'accept', content: { confirm: false } },
    ];
    for (const answer of answers) {
      person.answers(answer);
      for (const input of [{ memberId: sam.memberId }, { memberId: sam.memberId, confirm: true }]) {
        const out = await callAction(client, 'remove_studio_member', input);
        expect(out.code, JSON.stringify(answer)).toBe('CONFIRMATION_DECLINED');
        expect(out.error!.message).toMatch(/nothing changed/);
        expect(out.error!.nextStep).toMatch(/do not repeat/i);
      }
    }
    expect(person.asked).toHaveLength(answers.length * 2);
    expect(await stateOf(sam)).toBe('active');
    expect(await canStillWork(sam)).toBe(200);
    expect(await eventsOf('remove_studio_member', sam.memberId)).toEqual([]);
  });

  it('asks before ownership changes hands; a decline leaves the owner where they were', async () => {
    const client = await app.mcp(app.token, elicitation);
    const person = personBehind(client);
    const admin = members[3]!;
    const out = await callAction(client, 'transfer_studio_ownership', { memberId: admin.memberId, confirm: true });
    expect(out.code).toBe('CONFIRMATION_DECLINED');
    expect(person.asked[0]!.message).toMatch(
      /^Hand Hartley & Rowe Interiors to Test admin \(.+\)\? They become its owner and you become an admin/,
    );
    expect((await owner.members.listStudioMembers.query({ role: 'owner' })).items.map((m) => m.you)).toEqual([true]);
    // A refusal of the act's own comes before any question: nobody is asked to confirm what could not happen.
    const self = (await owner.account.getCurrentUser.query({})).memberId;
    expect((await callAction(client, 'transfer_studio_ownership', { memberId: self })).code).toBe('VALIDATION_FAILED');
    expect(person.asked).toHaveLength(1);
  });

  it('asks before a share is issued, and a keyed replay answers without asking again', async () => {
    const client = await app.mcp(app.token, elicitation);
    const person = personBehind(client);
    const projectId = app.projectId;
    const shares = async () => (await owner.shares.listProjectShares.query({ projectId })).items.length;
    const before = await shares();
    const input = { projectId, recipientEmail: 'Marsden@Example.com', expiresInDays: 30 };

    const declined = await callAction(client, 'issue_project_share', { ...input, commandKey: randomUUID() });
    expect(declined.code).toBe('CONFIRMATION_DECLINED');
    expect(await shares()).toBe(before);
    expect(person.asked[0]!.message).toMatch(
      /^Share the client document of Harbour House with marsden@example\.com\? It is meant for marsden@example\.com, but anyone holding the link can view it, .* until \d{4}-\d{2}-\d{2}\.$/,
    );

    person.answers(ACCEPT);
    const commandKey = randomUUID();
    const issued = await callAction(client, 'issue_project_share', { ...input, commandKey });
    expect(issued.result.token).toMatch(/^share_/);
    expect(person.asked).toHaveLength(2);
    // The retry of the same act (confirm: true added or not) is answered as first answered, and nobody is asked.
    person.answers({ action: 'decline' });
    for (const again of [
      { ...input, commandKey },
      { ...input, commandKey, confirm: true },
    ]) {
      const replay = await callAction(client, 'issue_project_share', again);
      expect(replay.result).toMatchObject({ id: issued.result.id, token: null, url: null });
    }
    expect(person.asked).toHaveLength(2);
    expect(await shares()).toBe(before + 1);
    const [event] = await eventsOf('issue_project_share', issued.result.id);
    expect(event!.changes).toMatchObject({ confirmedBy: 'elicitation' });

    // Reissuing mints a link too: asked the same way.
    person.answers(ACCEPT);
    const reissued = await callAction(client, 'reissue_project_share', {
      projectId,
      shareId: issued.result.id,
      commandKey: randomUUID(),
    });
    expect(reissued.result.token).toMatch(/^share_/);
    expect(person.asked[2]!.message).toMatch(/^Issue a new link to the client document of Harbour House, like share …/);
  });
});

describe('a client that cannot ask the person', () => {
  it('answers CONFIRMATION_REQUIRED with the question to put to them, then goes ahead on confirm: true', async () => {
    const client = await app.mcp();
    const sam = members[1]!;
    const unconfirmed = await callAction(client, 'remove_studio_member', { memberId: sam.memberId });
    expect(unconfirmed.code).toBe('CONFIRMATION_REQUIRED');
    expect(unconfirmed.error!.message).toContain(`"Remove Test assistant (${await emailOf(sam)}) from Hartley & Rowe`);
    expect(unconfirmed.error!.nextStep).toMatch(/confirm: true/);
    expect(await stateOf(sam)).toBe('active');
    const removed = await callAction(client, 'remove_studio_member', { memberId: sam.memberId, confirm: true });
    expect(removed.result).toMatchObject({ member: { state: 'removed' } });
    const [event] = await eventsOf('remove_studio_member', sam.memberId);
    expect(event!.changes).toMatchObject({ confirmedBy: 'confirm_flag' });
  });

  it('over stateless HTTP a client that declared elicitation is not asked: confirm: true it is', async () => {
    const mcp = await httpMcp(app.url, app.token, elicitation);
    try {
      const person = personBehind(mcp.client);
      const kim = members[2]!;
      const call = (input: Record<string, unknown>) =>
        mcp.call('call_action', { name: 'remove_studio_member', arguments: { input } });
      const unconfirmed = await call({ memberId: kim.memberId });
      expect(unconfirmed.structuredContent.code).toBe('CONFIRMATION_REQUIRED');
      expect(await stateOf(kim)).toBe('active');
      expect((await call({ memberId: kim.memberId, confirm: true })).isError).toBeFalsy();
      expect(person.asked).toEqual([]);
      const [event] = await eventsOf('remove_studio_member', kim.memberId);
      expect(event!.changes).toMatchObject({ confirmedBy: 'confirm_flag' });
    } finally {
      await mcp.close();
    }
  });

  it('over tRPC, confirm: true is how the person agreed, and the audit says so', async () => {
    const lee = members[4]!;
    await owner.members.removeStudioMember.mutate({ memberId: lee.memberId, confirm: true });
    const [event] = await eventsOf('remove_studio_member', lee.memberId);
    expect(event!.changes).toMatchObject({ confirmedBy: 'confirm_flag' });
  });
});

describe('stdio MCP as mcp.json starts it, with a client that can ask', () => {
  it('removes a member only once the person accepts', async () => {
    stdio = await spawnStdioMcp({ database: app.database, capabilities: elicitation });
    const person = personBehind(stdio.client);
    const admin = members[3]!;
    const remove = (input: Record<string, unknown>) =>
      stdio!.call('call_action', { name: 'remove_studio_member', arguments: { input } });
    const declined = await remove({ memberId: admin.memberId, confirm: true });
    expect(declined.structuredContent.code).toBe('CONFIRMATION_DECLINED');
    expect(await stateOf(admin)).toBe('active');
    person.answers(ACCEPT);
    const removed = await remove({ memberId: admin.memberId });
    expect(removed.isError, JSON.stringify(removed.structuredContent)).toBeFalsy();
    expect(person.asked.map((q) => q.message)).toEqual([
      expect.stringMatching(/^Remove Test admin \(.+\) from Hartley & Rowe Interiors\?/),
      expect.stringMatching(/^Remove Test admin/),
    ]);
    const [event] = await eventsOf('remove_studio_member', admin.memberId);
    expect(event).toMatchObject({ actor: { via: 'local_owner' }, changes: { confirmedBy: 'elicitation' } });
  });
});
