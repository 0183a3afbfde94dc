/**
 * Every hint an MCP answer gives is a call that works as written (issue 26, item 3): a refusal whose next step is a
 * call carries it as `nextCall` (tool and arguments). Each hint here is sent as it stands, and must do what it says.
 * (An operation still running names its poll the same way; test/operations/runner.test.ts holds one queued and sends
 * that call, which a test here could not do without a worker that waits.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ACTIONS } from '../../actions/index.js';
import { readOf } from '../../src/surfaces/mcp/next-call.js';
import { openTestAppWithMcp, type TestApp } from '../helpers/in-process.js';
import { firstItem } from '../helpers/schedule.js';

let app: TestApp;
let client: Client;
let line: { id: string; sectionId: string };
openTestAppWithMcp((opened) => ({ app, mcp: client } = opened));
beforeAll(async () => {
  line = await firstItem(app);
});

interface Outcome {
  isError: boolean;
  text: string;
  body: Record<string, any>;
}
async function send(tool: string, args: Record<string, unknown>): Promise<Outcome> {
  const res = await client.callTool({ name: tool, arguments: args });
  const text = (res.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
  return { isError: Boolean(res.isError), text, body: res.structuredContent as Record<string, any> };
}

/** Sends the refusal's nextCall exactly as given; the text names the same call. */
async function follow(refused: Outcome): Promise<Outcome> {
  const next = refused.body.nextCall as { tool: string; arguments: Record<string, unknown> };
  expect(next, refused.text).toBeDefined();
  expect(refused.text).toContain(`nextCall: ${JSON.stringify(next)}`);
  return send(next.tool, next.arguments);
}

describe('a missing key', () => {
  it('on a resource create through call_action: nextCall repeats it with an idempotencyKey, and it is created', async () => {
    const args = { projectId: app.projectId, sectionId: line.sectionId, heading: 'Hint-made side table' };
    const refused = await send('call_action', { name: 'create_line', arguments: args });
    expect(refused.body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const done = await follow(refused);
    expect(done.isError, done.text).toBe(false);
    expect(done.body.result.heading).toBe('Hint-made side table');
  });

  it('on a procedure: nextCall puts commandKey inside input, and the supplier is made', async () => {
    const refused = await send('call_action', { name: 'create_supplier', arguments: { input: { name: 'Hint & Co' } } });
    expect(refused.body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect(refused.body.nextCall.arguments.arguments.input.commandKey).toMatch(/^[0-9a-f-]{36}$/);
    const done = await follow(refused);
    expect(done.isError, done.text).toBe(false);
    expect(done.body.result.name).toBe('Hint & Co');
  });
});

describe('a missing or stale version', () => {
  it('update_line without ifMatch: nextCall reads the line, whose etag then writes', async () => {
    const refused = await send('update_line', { projectId: app.projectId, itemId: line.id, finish: 'Limed oak' });
    expect(refused.body.code).toBe('PRECONDITION_REQUIRED');
    const read = await follow(refused);
    expect(read.isError, read.text).toBe(false);
    const ok = await send('update_line', {
      projectId: app.projectId,
      itemId: line.id,
      ifMatch: read.body.etag,
      finish: 'Limed oak',
    });
    expect(ok.isError, ok.text).toBe(false);
  });

  it('update_line with a stale etag: nextCall reads the line again', async () => {
    const refused = await send('update_line', {
      projectId: app.projectId,
      itemId: line.id,
      ifMatch: '"1-00000000"',
      finish: 'Stale',
    });
    expect(refused.body.code).toBe('VERSION_CONFLICT');
    const read = await follow(refused);
    expect(read.body.id).toBe(line.id);
    expect(read.body.finish).not.toBe('Stale');
  });

  it('a procedure without expectedVersion: nextCall is its read through call_action, answering the version', async () => {
    const made = await send('call_action', {
      name: 'create_supplier',
      arguments: { input: { name: 'Versioned Ltd', commandKey: crypto.randomUUID() } },
    });
    const supplierId = made.body.result.id as string;
    const refused = await send('call_action', {
      name: 'update_supplier',
      arguments: { input: { supplierId, phone: '+44 20 0000 0000' } },
    });
    expect(refused.body.code).toBe('PRECONDITION_REQUIRED');
    expect(refused.body.nextCall).toEqual({
      tool: 'call_action',
      arguments: { name: 'get_supplier', arguments: { input: { supplierId } } },
    });
    const read = await follow(refused);
    expect(read.body.result.version).toBe(1);
  });
});

describe('the catalog', () => {
  it('every versioned write has a read its hints can name, taking only ids the write was given', () => {
    const missing = ACTIONS.filter((a) => a.versioned && 'idField' in a.versioned && !readOf(a, ACTIONS)).map(
      (a) => a.name,
    );
    expect(missing).toEqual([]);
  });
});
