/**
 * The everyday mistakes an agent makes through the MCP tools, and what it is told: the real mistake by name, in the
 * words of the surface it is using (fields it sends, not HTTP headers), with every field problem in the text too.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { http } from '../helpers/clients.js';
import { firstItem } from '../helpers/schedule.js';

let app: TestApp;
let client: Client;
let line: { id: string; sectionId: string; version: number };
openTestAppWithMcp((opened) => ({ app, mcp: client } = opened));
beforeAll(async () => {
  line = await firstItem(app);
});

interface ToolOutcome {
  isError?: boolean;
  text: string;
  body: Record<string, any>;
}
async function call(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  const res = await client.callTool({ name, arguments: args });
  const text = (res.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
  return { isError: res.isError as boolean | undefined, text, body: res.structuredContent as Record<string, any> };
}

/** Every entry of errors[] is readable in the text, so a client showing only the text still sees the real mistake. */
function expectErrorsInText(out: ToolOutcome) {
  for (const e of out.body.errors ?? []) expect(out.text).toContain(`${e.path}: ${e.message}`);
}

describe('call_action names the wrapping mistake', () => {
  it('a procedure called with its fields at the top level is told to wrap them in input', async () => {
    const out = await call('call_action', {
      name: 'get_schedule_line',
      arguments: { projectId: app.projectId, lineId: line.id },
    });
    expect(out.isError).toBe(true);
    expect(out.body.code).toBe('VALIDATION_FAILED');
    expect(out.body.message).toContain('wrap these fields in input');
    expect(out.body.message).toContain('{ input: { projectId, lineId } }');
    expect(out.body.message).not.toContain('required');
    expect(out.body.errors.map((e: { path: string }) => e.path)).toEqual(['projectId', 'lineId']);
    expectErrorsInText(out);
    // Done as told, it works.
    const right = await call('call_action', {
      name: 'get_schedule_line',
      arguments: { input: { projectId: app.projectId, lineId: line.id } },
    });
    expect(right.isError).toBeFalsy();
    expect(right.body.result.id).toBe(line.id);
  });

  it('a procedure with some fields inside input and some outside is told to move those inside', async () => {
    const out = await call('call_action', {
      name: 'get_schedule_line',
      arguments: { input: { projectId: app.projectId }, lineId: line.id },
    });
    expect(out.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'lineId' }] });
    expect(out.body.message).toContain('{ input: { projectId, lineId } }');
  });

  it('a resource action wrapped in input is told it takes its fields at the top level', async () => {
    for (const [name, args] of [
      ['call_action', { name: 'get_line', arguments: { input: { projectId: app.projectId, itemId: line.id } } }],
      ['get_line', { input: { projectId: app.projectId, itemId: line.id } }],
    ] as const) {
      const out = await call(name, args);
      expect(out.isError, name).toBe(true);
      expect(out.body.code, name).toBe('VALIDATION_FAILED');
      expect(out.body.message, name).toContain('takes its fields at the top level');
      expect(out.body.message, name).toContain('{ projectId, itemId }');
      expect(out.body.errors, name).toEqual([{ path: 'input', message: expect.stringContaining('top level') }]);
      expectErrorsInText(out);
    }
  });

  it("the action's fields beside name, or under input instead of arguments, are told to go inside arguments", async () => {
    for (const [args, shape] of [
      [
        { name: 'get_schedule_line', input: { projectId: app.projectId, lineId: line.id } },
        'arguments: { input: { projectId, lineId } }',
      ],
      [{ name: 'get_line', projectId: app.projectId, itemId: line.id }, 'arguments: { projectId, itemId }'],
    ] as const) {
      for (const tool of ['call_action', 'read_action_result']) {
        const out = await call(tool, args);
        expect(out.body.code, tool).toBe('VALIDATION_FAILED');
        expect(out.body.message, tool).toContain(`${tool} takes the action's fields inside arguments`);
        expect(out.body.message, tool).toContain(shape);
        expectErrorsInText(out);
      }
    }
  });

  it('an unknown action name answers with the closest actions by meaning: delete_line finds archive_line', async () => {
    const out = await call('call_action', { name: 'delete_line', arguments: { projectId: app.projectId } });
    expect(out.body.code).toBe('NOT_FOUND');
    expect(out.text).toMatch(/No action is named delete_line\. Closest by meaning: archive_line\b/);
    const odd = await call('call_action', { name: 'zzqx_frobnicate', arguments: {} });
    expect(odd.body.code).toBe('NOT_FOUND');
    expect(odd.text).not.toContain('Closest');
  });

  it('lists every field problem in the text, not only in structuredContent.errors[]', async () => {
    const out = await call('update_line', {
      projectId: app.projectId,
      itemId: line.id,
      ifMatch: `"${line.version}"`,
      heading: '',
      leadTimeDays: -3,
      colour: 'red',
    });
    expect(out.body.code).toBe('VALIDATION_FAILED');
    expect(out.body.errors.length).toBeGreaterThanOrEqual(3);
    expectErrorsInText(out);
    expect(out.text).toContain('colour');
  });
});

describe('MCP answers name the fields an agent sends', () => {
  it('a missing ifMatch is PRECONDITION_REQUIRED naming ifMatch and a real etag, never the If-Match header', async () => {
    const out = await call('update_line', { projectId: app.projectId, itemId: line.id, finish: 'Oak' });
    expect(out.body.code).toBe('PRECONDITION_REQUIRED');
    expect(out.body.message).toContain('ifMatch');
    expect(out.body.message).toMatch(/"\d+-[0-9a-f]{8}"/);
    expect(out.text).not.toMatch(/If-Match|header/);
    // REST keeps its own words.
    const rest = await http(app.url, 'PATCH', `/v1/projects/${app.projectId}/items/${line.id}`, {
      token: app.token,
      body: { finish: 'Oak' },
    });
    expect(rest.status).toBe(428);
    expect(rest.body.detail).toContain('If-Match header');
  });

  it('ifMatch "*" and a weak etag are refused naming ifMatch over MCP', async () => {
    const star = await call('update_line', { projectId: app.projectId, itemId: line.id, ifMatch: '*', finish: 'Oak' });
    expect(star.body.code).toBe('PRECONDITION_REQUIRED');
    expect(star.body.message).toContain('ifMatch "*"');
    expect(star.text).not.toContain('If-Match');
    const weak = await call('update_line', {
      projectId: app.projectId,
      itemId: line.id,
      ifMatch: `W/"${line.version}"`,
      finish: 'Oak',
    });
    expect(weak.body.code).toBe('VALIDATION_FAILED');
    expect(weak.text).not.toContain('If-Match');
  });

  it('a missing idempotencyKey is IDEMPOTENCY_KEY_REQUIRED naming idempotencyKey, never a header', async () => {
    const out = await call('call_action', {
      name: 'create_line',
      arguments: { projectId: app.projectId, sectionId: line.sectionId, heading: 'Side table' },
    });
    expect(out.body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect(out.body.message).toContain('idempotencyKey');
    expect(out.text).not.toMatch(/Idempotency-Key|header/);
    const rest = await http(app.url, 'POST', `/v1/projects/${app.projectId}/items`, {
      token: app.token,
      body: { sectionId: line.sectionId, heading: 'Side table' },
    });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REQUIRED', detail: expect.stringContaining('header') });
  });

  it('a procedure without expectedVersion is told to send expectedVersion', async () => {
    const out = await call('call_action', {
      name: 'update_schedule_line',
      arguments: { input: { projectId: app.projectId, lineId: line.id, patch: { finish: 'Oak' } } },
    });
    expect(out.body.code).toBe('PRECONDITION_REQUIRED');
    expect(out.body.message).toContain('expectedVersion');
    expect(out.text).not.toMatch(/If-Match|header/);
  });
});
