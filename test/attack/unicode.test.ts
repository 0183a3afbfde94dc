/**
 * Malformed Unicode in every string field of every action: a lone UTF-16 surrogate (or NUL) is refused with 400
 * VALIDATION_FAILED naming the field, before anything is hashed or stored, through every surface the action is
 * declared on. Afterwards the studio's audit chain still verifies from its first event. A well-formed astral
 * character (a surrogate pair) is stored and echoed exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ACTIONS } from '../../actions/index.js';
import type { AnyAction } from '../../src/core/define-action.js';
import { createTestApp, type TestApp } from '../helpers/in-process.js';
import { http } from '../helpers/clients.js';
import { fromOutside } from '../helpers/fixtures.js';

let app: TestApp;
let mcp: Client;
beforeAll(async () => {
  app = await createTestApp();
  mcp = await app.mcp();
});
afterAll(async () => app?.close());

const LONE = 'Sofa \ud800';

/** Every path to a string in a value, e.g. ['patch', 'finish'] or ['sections', '0']. */
function stringPaths(value: unknown, path: string[] = []): string[][] {
  if (typeof value === 'string') return [path];
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...path, k]));
}

function withString(value: unknown, path: string[], text: string): unknown {
  if (!path.length) return text;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string, unknown>;
  copy[path[0]!] = withString(copy[path[0]!], path.slice(1), text);
  return copy;
}

/**
 * Each action's example with each of its string fields made malformed in turn (control fields included). A capability
 * field (a share token) is the exception: malformed, it is a token that does not work, and gets that one refusal (see
 * below), never a validation error that would tell it apart from an unknown or revoked one.
 */
const cases = ACTIONS.flatMap((action) =>
  stringPaths(action.example)
    .filter((path) => path.join('.') !== action.capability?.field)
    .map((path) => [action.name, path.join('.'), action, path] as const),
);
const capabilityCases = ACTIONS.filter((a) => a.capability).map((a) => [a.name, a] as const);

async function callProcedure(action: AnyAction, input: unknown) {
  const get = action.effect === 'query';
  const url = `/api/trpc/${action.trpcPath}${get ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ''}`;
  return http(app.url, get ? 'GET' : 'POST', url, { token: app.token, body: get ? undefined : input });
}

describe('a lone surrogate in any string field is refused, naming the field', () => {
  it('covers many fields of many actions', () => {
    expect(new Set(cases.map((c) => c[0])).size).toBeGreaterThan(30);
  });

  it.each(cases)('%s: %s', async (_name, field, action, path) => {
    const input = withString(action.example, path, LONE);
    const r = await mcp.callTool({
      name: 'call_action',
      arguments: { name: action.name, arguments: action.kind === 'procedure' ? { input } : input },
    });
    expect(r.isError).toBe(true);
    const sc = r.structuredContent as { code: string; errors?: Array<{ path: string; message: string }> };
    expect(sc.code).toBe('VALIDATION_FAILED');
    expect(sc.errors?.[0]?.path).toBe(field);
    expect(sc.errors?.[0]?.message).toMatch(/well-formed/);
    if (action.kind === 'procedure') {
      const res = await callProcedure(action, input);
      expect(res.status).toBe(400);
      expect(res.body.error.data.serviceCode).toBe('VALIDATION_FAILED');
      expect(res.body.error.data.errors[0].path).toBe(field);
    }
  });
});

describe('a lone surrogate or NUL in a capability (a share token) is a token that does not work', () => {
  it.each(capabilityCases)('%s answers FORBIDDEN, as for an unknown token', async (_name, action) => {
    const field = action.capability!.field;
    const call = (value: string) =>
      mcp.callTool({
        name: 'call_action',
        arguments: { name: action.name, arguments: { ...action.example, [field]: value } },
      });
    const unknown = (await call('share_unknown')).structuredContent as { code: string; detail: string };
    expect(unknown.code).toBe('FORBIDDEN');
    for (const odd of [LONE, 'share_\u0000']) {
      const sc = (await call(odd)).structuredContent as { code: string; detail: string };
      expect({ code: sc.code, detail: sc.detail }).toEqual({ code: unknown.code, detail: unknown.detail });
    }
  });
});

describe('the attack that found it', () => {
  let lineId: string;
  beforeAll(async () => {
    const lines = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items?limit=1`, { token: app.token });
    lineId = lines.body.items[0].id;
  });

  const readLine = () => http(app.url, 'GET', `/v1/projects/${app.projectId}/items/${lineId}`, { token: app.token });

  it('PATCH with a lone surrogate answers 400 and changes nothing', async () => {
    const before = await readLine();
    const res = await http(app.url, 'PATCH', `/v1/projects/${app.projectId}/items/${lineId}`, {
      token: app.token,
      headers: { 'if-match': before.headers.get('etag')!, 'content-type': 'application/merge-patch+json' },
      rawBody: '{"heading":"Sofa \\ud800"}',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors[0].path).toBe('heading');
    const after = await readLine();
    expect(after.body.version).toBe(before.body.version);
    expect(after.body.heading).toBe(before.body.heading);
  });

  it('NUL in a text filter is refused rather than matching every line', async () => {
    const res = await http(app.url, 'GET', `/v1/projects/${app.projectId}/items?q=%00`, { token: app.token });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('q');
  });

  it('a well-formed astral character (a surrogate pair) is stored and echoed exactly', async () => {
    const before = await readLine();
    const heading = 'Sofa 🛋 in bouclé';
    const res = await http(app.url, 'PATCH', `/v1/projects/${app.projectId}/items/${lineId}`, {
      token: app.token,
      headers: { 'if-match': before.headers.get('etag')! },
      body: { heading },
    });
    expect(res.status).toBe(200);
    expect((await readLine()).body.heading).toBe(heading);
  });

  const verify = async () => {
    const r = await mcp.callTool({
      name: 'call_action',
      arguments: { name: 'list_studio_audit_events', arguments: { input: { verifyChain: true, limit: 1 } } },
    });
    return (
      r.structuredContent as {
        result: { chain: { intact: boolean; eventsChecked: number; brokenAtSeq: number | null } };
      }
    ).result.chain;
  };

  it("leaves the studio's audit chain intact (verified from its first event)", async () => {
    const chain = await verify();
    expect(chain).toMatchObject({ intact: true, brokenAtSeq: null });
    expect(chain.eventsChecked).toBeGreaterThanOrEqual(1);
  });

  it('and the verification does find an edited event', async () => {
    await fromOutside(app.database, (db) =>
      db
        .updateTable('audit_events')
        .set((eb) => ({ summary: eb('summary', '||', ' (edited)') }))
        .where('seq', '=', 1)
        .execute(),
    );
    expect(await verify()).toMatchObject({ intact: false, brokenAtSeq: 1 });
  });
});
