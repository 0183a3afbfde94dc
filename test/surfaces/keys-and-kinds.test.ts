/**
 * Contract points of the reference-data issue, through /v1, tRPC and MCP alike: idempotency keys are UUIDs and every
 * create needs one (Idempotency-Key on /v1, commandKey in procedures); ids are opaque (a malformed id naming nothing
 * is the same 404 as an unknown one); audit target kinds are a closed set.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callAction } from '../helpers/calls.js';
import { http } from '../helpers/clients.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';

let app: TestApp;
let mcp: Client;
let sectionId: string;
openTestAppWithMcp((opened) => ({ app, mcp } = opened));
beforeAll(async () => {
  sectionId = (await http(app.url, 'GET', `/v1/projects/${app.projectId}`, { token: app.token })).body.sections[0].id;
});

const trpcPost = (path: string, input: unknown) =>
  http(app.url, 'POST', `/api/trpc/${path}`, { token: app.token, body: input });

describe('idempotency keys', () => {
  it('a key that is not a UUID is 400 VALIDATION_FAILED naming the field, on every surface', async () => {
    const rest = await http(app.url, 'POST', `/v1/projects/${app.projectId}/items`, {
      token: app.token,
      headers: { 'idempotency-key': 'retry-1' },
      body: { sectionId, heading: 'Never created' },
    });
    expect(rest.status).toBe(400);
    expect(rest.body.errors[0].path).toBe('idempotencyKey');
    const input = { projectId: app.projectId, sectionId, heading: 'Never created', commandKey: 'retry-1' };
    const viaTrpc = await trpcPost('schedule.createScheduleLine', input);
    expect(viaTrpc.status).toBe(400);
    expect(viaTrpc.body.error.data).toMatchObject({ serviceCode: 'VALIDATION_FAILED' });
    expect(viaTrpc.body.error.data.errors[0].path).toBe('commandKey');
    expect((await callAction(mcp, 'create_schedule_line', input)).code).toBe('VALIDATION_FAILED');
  });

  it('a create without a key is IDEMPOTENCY_KEY_REQUIRED, naming the field to send, and creates nothing', async () => {
    const heading = `Keyless ${crypto.randomUUID()}`;
    const rest = await http(app.url, 'POST', `/v1/projects/${app.projectId}/items`, {
      token: app.token,
      body: { sectionId, heading },
    });
    expect(rest.status).toBe(400);
    expect(rest.body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const viaTrpc = await trpcPost('schedule.createScheduleLine', { projectId: app.projectId, sectionId, heading });
    expect(viaTrpc.body.error.data.serviceCode).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect(viaTrpc.body.error.message).toMatch(/commandKey/);
    const viaMcp = await callAction(mcp, 'create_schedule_line', { projectId: app.projectId, sectionId, heading });
    expect(viaMcp.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const found = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items?q=${encodeURIComponent(heading)}`, {
      token: app.token,
    });
    expect(found.body.items).toEqual([]);
  });
});

describe('opaque ids and closed kinds', () => {
  it('a malformed id is the same 404 as an unknown one, on every surface', async () => {
    for (const id of ['x', 'not-an-id', 'a'.repeat(26)]) {
      const rest = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items/${id}`, { token: app.token });
      expect(rest.status, id).toBe(404);
      const input = encodeURIComponent(JSON.stringify({ projectId: app.projectId, lineId: id }));
      const viaTrpc = await http(app.url, 'GET', `/api/trpc/schedule.getScheduleLine?input=${input}`, {
        token: app.token,
      });
      expect(viaTrpc.body.error.data.serviceCode, id).toBe('NOT_FOUND');
      expect((await callAction(mcp, 'get_schedule_line', { projectId: app.projectId, lineId: id })).code).toBe(
        'NOT_FOUND',
      );
    }
  });

  it('an audit target kind outside the closed set is refused, not silently matched by nothing', async () => {
    const input = encodeURIComponent(JSON.stringify({ targetKind: 'spaceship' }));
    const viaTrpc = await http(app.url, 'GET', `/api/trpc/audit.listStudioAuditEvents?input=${input}`, {
      token: app.token,
    });
    expect(viaTrpc.body.error.data.serviceCode).toBe('VALIDATION_FAILED');
    expect((await callAction(mcp, 'list_studio_audit_events', { targetKind: 'spaceship' })).code).toBe(
      'VALIDATION_FAILED',
    );
    const ok = await callAction(mcp, 'list_studio_audit_events', { targetKind: 'line' });
    expect(ok.result.items).toEqual(expect.any(Array));
  });
});
