/**
 * Every action is reachable through every surface it is declared on, and answers either a result or one of the codes
 * it declares (tests run with STUDIO_STRICT_ERRORS=1, so an undeclared code would surface as INTERNAL). Each action is
 * called with its own worked example: the example's ids are made up, so most calls end in NOT_FOUND, which proves the
 * route, the input mapping and `invoke` are wired, while the per-domain suites prove the behaviour.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { restShape } from '../../src/contract/rest-shape.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ACTIONS } from '../../actions/index.js';
import { allErrorsOf } from '../../src/core/action-errors.js';
import type { AnyAction } from '../../src/core/define-action.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { http } from '../helpers/clients.js';

let app: TestApp;
let mcp: Client;
openTestAppWithMcp((opened) => ({ app, mcp } = opened));

/** The outcome must be success or a declared code, and never INTERNAL. */
function expectDeclared(action: AnyAction, code: string | undefined) {
  if (code === undefined) return;
  expect(code).not.toBe('INTERNAL');
  expect([...allErrorsOf(action)]).toContain(code);
}

/** The REST request an example input makes: path parameters, control headers, then query or body. */
function restRequest(action: AnyAction) {
  const { ifMatch, idempotencyKey, ...fields } = action.example as Record<string, unknown>;
  const headers: Record<string, string> = {};
  if (typeof ifMatch === 'string') headers['if-match'] = ifMatch;
  if (typeof idempotencyKey === 'string') headers['idempotency-key'] = idempotencyKey;
  let path = action.http!.path.replace(/\{(\w+)\}/g, (_, p: string) => {
    const v = String(fields[p]);
    delete fields[p];
    return encodeURIComponent(v);
  });
  // A body only where the operation takes one (an operation without one refuses any with 415); else the query.
  const json = restShape(action).body !== undefined;
  if (!json && Object.keys(fields).length)
    path += `?${new URLSearchParams(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])))}`;
  return { method: action.http!.method, path: `/v1${path}`, headers, body: json ? fields : undefined };
}

/** Actions whose example ran to a result: many need no existing record, so this must not be a wall of NOT_FOUND. */
const succeeded = new Set<string>();
afterAll(() => {
  expect(succeeded.size).toBeGreaterThanOrEqual(10);
});

describe.each(ACTIONS.map((a) => [a.name, a] as const))('%s', (_name, action) => {
  it('answers through MCP call_action with a result or a declared code', async () => {
    const args = action.kind === 'procedure' ? { input: action.example } : action.example;
    const r = await mcp.callTool({ name: 'call_action', arguments: { name: action.name, arguments: args } });
    const sc = r.structuredContent as { code?: string; result?: unknown; result_page?: unknown };
    if (r.isError) expectDeclared(action, sc.code);
    else {
      expect(sc.result ?? sc.result_page).toBeDefined();
      succeeded.add(action.name);
    }
  });

  if (action.kind === 'resource') {
    it(`answers through REST ${action.http!.method} /v1${action.http!.path} with a result or a declared code`, async () => {
      const req = restRequest(action);
      const res = await http(app.url, req.method, req.path, { token: app.token, headers: req.headers, body: req.body });
      if (res.status >= 400) {
        expect(res.headers.get('content-type')).toContain('application/problem+json');
        // The route itself exists: a 404 here comes from the action, not from "no such route".
        expect(res.body.detail).not.toMatch(/^Nothing is served at/);
        expectDeclared(action, res.body.code);
      } else expect(res.status).toBe(action.http!.status ?? 200);
    });
  }

  if (action.kind === 'procedure') {
    it(`answers through tRPC ${action.trpcPath} with a result or a declared code`, async () => {
      const url = `${app.url}/api/trpc/${action.trpcPath}`;
      const init = { headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' } };
      const res =
        action.effect === 'query'
          ? await fetch(`${url}?input=${encodeURIComponent(JSON.stringify(action.example))}`, init)
          : await fetch(url, { ...init, method: 'POST', body: JSON.stringify(action.example) });
      const body = (await res.json()) as { result?: { data: unknown }; error?: { data: { serviceCode: string } } };
      if (body.error) {
        expect(body.error.data.serviceCode === 'NOT_FOUND' && /No such procedure/.test(JSON.stringify(body))).toBe(
          false,
        );
        expectDeclared(action, body.error.data.serviceCode);
      } else expect(body.result).toBeDefined();
    });
  }
});
