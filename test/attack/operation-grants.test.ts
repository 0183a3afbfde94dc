/**
 * An operation belongs to its project (issue 29, item 3). A designer or assistant without a grant on a project (the
 * project answers them 404) must get the same 404 for its operations, through get_operation (REST),
 * get_operation_status and cancel_operation (tRPC), must not find them in list_operations, and must not be able to
 * cancel them. A view grant reads them but cannot cancel (403, as a write to the project). Operations without a project
 * keep their rule: visible to every role that may do the act.
 *
 * No worker runs here (STUDIO_WORKERS=0), so every operation stays queued and a cancel would show.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, nowIso } from '../../src/core/ids.js';
import { OPERATION_RECORD } from '../../src/jobs/record.js';
import { callTool, refusal } from '../helpers/calls.js';
import { http, trpc, type Trpc } from '../helpers/clients.js';
import { fromOutside, memberWithToken, type Member } from '../helpers/fixtures.js';
import { createTestApp, type TestApp } from '../helpers/in-process.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
/** A project only the owner reaches, and the demo project everyone below has an edit grant on. */
let hidden: string;
let granted: string;
/** Operations: a paste into the hidden project, a document render of it, a paste into the granted one, a studio-level one. */
const ops = { hiddenPaste: '', hiddenRender: '', grantedPaste: '', studioLevel: '' };
let designer: Member;
let assistant: Member;
let onlooker: Member;

const paste = async (projectId: string) =>
  (
    await owner.schedule.pasteScheduleLines.mutate({
      projectId,
      text: 'Item\tQty\tSupplier\tNet\nPendant light\t2\tPooky\t£185.00',
      commandKey: crypto.randomUUID(),
    })
  ).id;

beforeAll(async () => {
  app = await createTestApp({ STUDIO_WORKERS: '0' });
  owner = trpc(app.url, app.token);
  mcp = await app.mcp();
  granted = app.projectId;
  hidden = (await owner.projects.createStudioProject.mutate({ name: 'Private house', commandKey: crypto.randomUUID() }))
    .id;
  ops.hiddenPaste = await paste(hidden);
  ops.grantedPaste = await paste(granted);
  // A file tool: its fields at the top level of call_action's arguments.
  const render = await callTool(mcp, 'call_action', {
    name: 'generate_document',
    arguments: { projectId: hidden, kind: 'client_schedule', commandKey: crypto.randomUUID() },
  });
  ops.hiddenRender = render.result.result.id as string;
  // An operation of no project (as an invitation's delivery is), of an act designers and assistants may do.
  ops.studioLevel = newId();
  await fromOutside(app.database, async (db) => {
    const { studio_id, requested_by } = await db
      .selectFrom('operations')
      .select(['studio_id', 'requested_by'])
      .where('id', '=', ops.hiddenPaste)
      .executeTakeFirstOrThrow();
    const now = nowIso();
    await db
      .insertInto('operations')
      .values(
        OPERATION_RECORD.newRow(
          {
            kind: 'test_studio_level',
            action: 'test_studio_level',
            scope: 'projects:write',
            input: '{}',
            requestedBy: requested_by,
            updatedAt: now,
          },
          { id: ops.studioLevel, ownerId: studio_id, now },
        ),
      )
      .execute();
  });
  designer = await memberWithToken(app.database, 'designer', [{ projectId: granted, level: 'edit' }]);
  assistant = await memberWithToken(app.database, 'assistant', [{ projectId: granted, level: 'edit' }]);
  onlooker = await memberWithToken(app.database, 'designer', [
    { projectId: granted, level: 'edit' },
    { projectId: hidden, level: 'view' },
  ]);
});
afterAll(async () => app?.close());

const listed = async (client: Trpc) =>
  (await client.operations.listOperations.query({ limit: 100 })).items.map((op) => op.id);
const stillQueued = async (id: string) => {
  const op = await owner.operations.getOperationStatus.query({ operationId: id });
  expect(op.status, id).toBe('queued');
  expect(op.cancelRequested, id).toBe(false);
};

describe.each([
  ['designer', () => designer, ['hiddenPaste', 'hiddenRender'] as const],
  ['assistant', () => assistant, ['hiddenPaste'] as const],
])('a %s without a grant on the project', (_role, who, theirActs) => {
  it('gets the project’s own 404 for its operations over /v1 and tRPC', async () => {
    const project = await http(app.url, 'GET', `/v1/projects/${hidden}`, { token: who().token });
    expect(project.status).toBe(404);
    for (const key of theirActs) {
      const id = ops[key];
      const res = await http(app.url, 'GET', `/v1/operations/${id}`, { token: who().token });
      expect(res.status, key).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.code, key).toBe(project.body.code);
      expect(res.body.detail).toContain(id);
      expect(JSON.stringify(res.body)).not.toContain(hidden);
      expect(
        await refusal(trpc(app.url, who().token).operations.getOperationStatus.query({ operationId: id })),
      ).toEqual({ code: 'NOT_FOUND', status: 404 });
    }
  });

  it('does not see them in list_operations, but sees the granted project’s and the studio-level ones', async () => {
    const ids = await listed(trpc(app.url, who().token));
    expect(ids).not.toContain(ops.hiddenPaste);
    expect(ids).not.toContain(ops.hiddenRender);
    expect(ids).toContain(ops.grantedPaste);
    expect(ids).toContain(ops.studioLevel);
    expect(await refusal(trpc(app.url, who().token).operations.listOperations.query({ projectId: hidden }))).toEqual({
      code: 'NOT_FOUND',
      status: 404,
    });
  });

  it('cannot cancel them: 404, and the operation is still queued', async () => {
    for (const key of theirActs) {
      const id = ops[key];
      expect(
        await refusal(trpc(app.url, who().token).operations.cancelOperation.mutate({ operationId: id })),
        key,
      ).toEqual({ code: 'NOT_FOUND', status: 404 });
      await stillQueued(id);
    }
  });
});

describe('who reaches the project', () => {
  it('with a view grant reads and lists its operations, but cancelling one is 403 and changes nothing', async () => {
    const client = trpc(app.url, onlooker.token);
    const op = await client.operations.getOperationStatus.query({ operationId: ops.hiddenPaste });
    expect(op).toMatchObject({ id: ops.hiddenPaste, projectId: hidden, status: 'queued' });
    expect(await listed(client)).toEqual(expect.arrayContaining([ops.hiddenPaste, ops.hiddenRender]));
    const refused = await refusal(client.operations.cancelOperation.mutate({ operationId: ops.hiddenPaste }));
    expect(refused).toEqual({ code: 'FORBIDDEN', status: 403 });
    await stillQueued(ops.hiddenPaste);
    // Those who reach a project still steer its operations: the owner lists every one, and a designer with an edit
    // grant cancels one of the granted project.
    expect(await listed(owner)).toEqual(expect.arrayContaining(Object.values(ops)));
    const canceled = await trpc(app.url, designer.token).operations.cancelOperation.mutate({
      operationId: ops.grantedPaste,
    });
    expect(canceled).toMatchObject({ id: ops.grantedPaste, status: 'canceled' });
  });
});
