/**
 * create_import, the seed's one import resource: `POST /v1/projects/{projectId}/imports` in two phases, each answered
 * 202 with the operation's Location and polled there, over plain HTTP and over MCP (followed to its end with progress);
 * the previewId a commit names; the shape rules of the two phases. Then what happens to an import whose commit never
 * runs to success: canceled while queued (the import is previewed again) or failed in the worker (the import is
 * failed, and can be committed again).
 */
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationRunner } from '../../src/jobs/runner.js';
import { settledOperation } from '../helpers/calls.js';
import { http, type Trpc, trpc } from '../helpers/clients.js';
import { fromOutside } from '../helpers/fixtures.js';
import { createTestApp, type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { uploadImportFile } from './fixture.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));

const CSV = 'Item,Qty,Supplier,Net\nWall light,2,Lumen House,"£1,250.00"\nPendant,1,Pooky,TBC\n';

async function upload(target: TestApp, client: Client, text = CSV) {
  const out = await uploadImportFile(client, target.projectId, text, { filename: 'lights.csv' });
  expect(out.error).toBeUndefined();
  return out.result.id as string;
}

/** POST /v1/projects/{projectId}/imports as a client sends it. */
const post = (body: Record<string, unknown>, key: string = crypto.randomUUID(), projectId = app.projectId) =>
  http(app.url, 'POST', `/v1/projects/${projectId}/imports`, {
    token: app.token,
    body,
    headers: { 'idempotency-key': key },
  });

/** Polls the Location of a 202 until the operation ends, checking Retry-After while it has not. */
async function follow(location: string) {
  for (;;) {
    const res = await http(app.url, 'GET', location, { token: app.token });
    expect(res.status).toBe(200);
    if (['succeeded', 'failed', 'canceled'].includes(res.body.status)) {
      expect(res.headers.get('retry-after')).toBeNull();
      return res.body;
    }
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('create_import over /v1', () => {
  it('previews then commits by previewId, each 202 with Location and polled to its result', async () => {
    const importId = await upload(app, mcp);
    const key = crypto.randomUUID();
    const accepted = await post({ phase: 'preview', importId }, key);
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get('location')).toBe(`/v1/operations/${accepted.body.id}`);
    expect(accepted.body).toMatchObject({ kind: 'import_preview', action: 'create_import', status: 'queued' });
    // The same key again is the same act: the same operation, not a second preview.
    const replay = await post({ phase: 'preview', importId }, key);
    expect(replay.body.id).toBe(accepted.body.id);

    const previewed = await follow(accepted.headers.get('location')!);
    expect(previewed.status).toBe('succeeded');
    const preview = previewed.result;
    expect(preview.previewId).toBe(`${importId}.${preview.import.version}`);
    expect(preview.counts).toMatchObject({ lines: 2, errors: 0 });
    expect(preview.lines[0].tradePrice.price.amount4).toBe('12500000');

    const lines = (await owner.schedule.listScheduleLines.query({ projectId: app.projectId, limit: 200 })).items.length;
    const commit = await post({ phase: 'commit', previewId: preview.previewId });
    expect(commit.status).toBe(202);
    expect((await owner.imports.getScheduleImport.query({ projectId: app.projectId, importId })).status).toMatch(
      /committing|committed/,
    );
    const committed = await follow(commit.headers.get('location')!);
    expect(committed).toMatchObject({
      status: 'succeeded',
      kind: 'import_commit',
      result: { importId, lines: 2, skippedRows: 0 },
      progress: { completed: 2, total: 2 },
    });
    const after = await owner.schedule.listScheduleLines.query({ projectId: app.projectId, limit: 200 });
    expect(after.items.length).toBe(lines + 2);
    expect(after.items.find((l) => l.heading === 'Pendant')?.tradePrice?.state).toBe('tbc');

    // That preview is spent: the import moved on, and says so with the way forward.
    const stale = await post({ phase: 'commit', previewId: preview.previewId });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'VERSION_CONFLICT' });
  });

  it("refuses a phase's fields in the other phase, a missing id, a made-up previewId and another project's import", async () => {
    const importId = await upload(app, mcp);
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [{ phase: 'preview' }, 400, 'VALIDATION_FAILED', 'importId'],
      [{ phase: 'commit' }, 400, 'VALIDATION_FAILED', 'previewId'],
      [{ phase: 'commit', importId, previewId: `${importId}.2` }, 400, 'VALIDATION_FAILED', 'importId'],
      [{ phase: 'preview', importId, skipRowsWithErrors: true }, 400, 'VALIDATION_FAILED', 'skipRowsWithErrors'],
      [{ phase: 'commit', previewId: 'not a preview' }, 400, 'VALIDATION_FAILED', 'previewId'],
      [{ phase: 'later', importId }, 400, 'VALIDATION_FAILED', 'phase'],
      [{ phase: 'commit', previewId: `${importId}.1` }, 409, 'IMPORT_WRONG_STATE', 'preview'],
    ];
    for (const [body, status, code, mentions] of cases) {
      const res = await post(body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([status, code]);
      expect(JSON.stringify(res.body)).toContain(mentions);
    }
    expect((await post({ phase: 'preview', importId }, undefined as never)).status).toBe(202);
    const keyless = await http(app.url, 'POST', `/v1/projects/${app.projectId}/imports`, {
      token: app.token,
      body: { phase: 'preview', importId },
    });
    expect([keyless.status, keyless.body.code]).toEqual([400, 'IDEMPOTENCY_KEY_REQUIRED']);
    const elsewhere = await owner.projects.createStudioProject.mutate({
      name: 'Elsewhere',
      commandKey: crypto.randomUUID(),
    });
    const foreign = await post({ phase: 'preview', importId }, crypto.randomUUID(), elsewhere.id);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('create_import over MCP', () => {
  it('answers each phase when its operation ends, reporting progress to a client that asked', async () => {
    const importId = await upload(app, mcp, 'Item,Qty\nSide table,2\nStool,4\nBench,1\n');
    const run = async (args: Record<string, unknown>) => {
      const heard: number[] = [];
      const res = await mcp.callTool(
        {
          name: 'call_action',
          arguments: {
            name: 'create_import',
            arguments: { projectId: app.projectId, idempotencyKey: crypto.randomUUID(), ...args },
          },
        },
        undefined,
        { onprogress: (p) => heard.push(p.progress) },
      );
      return { op: (res.structuredContent as { result: any }).result, heard };
    };
    const preview = await run({ phase: 'preview', importId });
    expect(preview.op).toMatchObject({ status: 'succeeded', result: { counts: { lines: 3 } } });
    expect(preview.heard.length).toBeGreaterThanOrEqual(1);
    const commit = await run({ phase: 'commit', previewId: preview.op.result.previewId });
    expect(commit.op).toMatchObject({ status: 'succeeded', result: { importId, lines: 3 } });
  });
});

describe('a commit that does not succeed', () => {
  let idle: TestApp;
  let asOwner: Trpc;
  let idleMcp: Client;
  beforeAll(async () => {
    // No workers: operations wait until a runner is started by hand, so the test decides what happens first.
    idle = await createTestApp({ STUDIO_WORKERS: '0' });
    asOwner = trpc(idle.url, idle.token);
    idleMcp = await idle.mcp();
  });
  afterAll(async () => idle?.close());

  const previewed = async () => {
    const importId = await upload(idle, idleMcp);
    const p = await asOwner.imports.previewScheduleImport.mutate({ projectId: idle.projectId, importId });
    return { importId, version: p.import.version };
  };
  const read = (importId: string) => asOwner.imports.getScheduleImport.query({ projectId: idle.projectId, importId });

  it('canceled while queued: the import is previewed again, nothing is applied, and it can be committed again', async () => {
    const { importId, version } = await previewed();
    const op = await asOwner.imports.commitScheduleImport.mutate({
      projectId: idle.projectId,
      importId,
      expectedVersion: version,
    });
    expect(await read(importId)).toMatchObject({ status: 'committing', operationId: op.id, version: version + 1 });
    const canceled = await asOwner.operations.cancelOperation.mutate({ operationId: op.id });
    expect(canceled.status).toBe('canceled');
    const back = await read(importId);
    expect(back).toMatchObject({ status: 'previewed', version: version + 2, result: null });
    const again = await asOwner.imports.commitScheduleImport.mutate({
      projectId: idle.projectId,
      importId,
      expectedVersion: back.version,
    });
    expect(again.status).toBe('queued');
    await asOwner.operations.cancelOperation.mutate({ operationId: again.id });
  });

  it('failed in the worker (the project was archived meanwhile): the import is failed, nothing applied', async () => {
    const { importId, version } = await previewed();
    const op = await asOwner.imports.commitScheduleImport.mutate({
      projectId: idle.projectId,
      importId,
      expectedVersion: version,
    });
    const project = await asOwner.projects.getStudioProject.query({ projectId: idle.projectId });
    await asOwner.projects.archiveStudioProject.mutate({
      projectId: idle.projectId,
      expectedVersion: project.version,
    } as never);
    const lines = await fromOutside(
      idle.database,
      async (db) =>
        (await db.selectFrom('lines').select('id').where('project_id', '=', idle.projectId).execute()).length,
    );
    const runner = new OperationRunner(idle.rt as never, { idleMs: 20 }).start();
    try {
      const done = await settledOperation(asOwner, op.id);
      expect(done).toMatchObject({ status: 'failed', problem: { code: 'ARCHIVED' } });
    } finally {
      await runner.stop();
    }
    expect(await read(importId)).toMatchObject({ status: 'failed', operationId: op.id, result: null });
    expect(
      await fromOutside(
        idle.database,
        async (db) =>
          (await db.selectFrom('lines').select('id').where('project_id', '=', idle.projectId).execute()).length,
      ),
    ).toBe(lines);
  });
});

describe('a workbook sent base64 over Streamable HTTP', () => {
  it('streams to a staged file as the body arrives and is read as its bytes, once per key', async () => {
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Lighting');
    sheet.addRow(['Item', 'Qty', 'Notes']);
    // Notes that do not compress, so the base64 is well past the 64 KiB at which it goes to disk.
    for (let i = 0; i < 3000; i++) sheet.addRow([`Light ${i}`, 1, randomBytes(48).toString('base64')]);
    const file = Buffer.from(await book.xlsx.writeBuffer());
    expect((file.length * 4) / 3).toBeGreaterThan(128 * 1024);
    const key = crypto.randomUUID();
    const call = async () => {
      const res = await fetch(`${app.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${app.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'call_action',
            arguments: {
              name: 'upload_import_file',
              arguments: {
                projectId: app.projectId,
                data: file.toString('base64'),
                filename: 'lighting.xlsx',
                mediaType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
                commandKey: key,
              },
            },
          },
        }),
      });
      return ((await res.json()) as any).result.structuredContent.result;
    };
    const made = await call();
    expect(made).toMatchObject({ format: 'xlsx', byteSize: file.length, sheets: [{ name: 'Lighting', rows: 3001 }] });
    expect((await call()).id).toBe(made.id);
  });
});

describe('the plain-HTTP upload route', () => {
  const send = (
    body: string | Buffer,
    opts: { type?: string; query?: string; key?: string | null; token?: string } = {},
  ) =>
    fetch(`${app.url}/files/projects/${app.projectId}/imports?${opts.query ?? 'filename=lights.csv'}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${opts.token ?? app.token}`,
        'content-type': opts.type ?? 'text/csv',
        ...(opts.key === null ? {} : { 'idempotency-key': opts.key ?? crypto.randomUUID() }),
      },
      body,
    });

  it('takes the file itself as the body, and the import it makes previews like an MCP upload', async () => {
    const key = crypto.randomUUID();
    const res = await send(CSV, { key });
    expect(res.status).toBe(201);
    const made = (await res.json()) as { id: string; filename: string; status: string; byteSize: number };
    expect(made).toMatchObject({ filename: 'lights.csv', status: 'uploaded', byteSize: Buffer.byteLength(CSV) });
    // The same key again answers the same import.
    expect(((await (await send(CSV, { key })).json()) as { id: string }).id).toBe(made.id);
    const p = await owner.imports.previewScheduleImport.mutate({ projectId: app.projectId, importId: made.id });
    expect(p.counts).toMatchObject({ lines: 2, errors: 0 });
  });

  it('refuses an empty body, a type that is no spreadsheet, a missing key or token, and more than 24 MiB', async () => {
    const problem = async (res: Response) => [res.status, ((await res.json()) as { code: string }).code];
    expect(await problem(await send(''))).toEqual([400, 'VALIDATION_FAILED']);
    expect(await problem(await send('x', { type: 'image/png' }))).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect(await problem(await send(CSV, { key: null }))).toEqual([400, 'IDEMPOTENCY_KEY_REQUIRED']);
    expect(await problem(await send(CSV, { token: 'studio_nope' }))).toEqual([401, 'UNAUTHENTICATED']);
    expect(await problem(await send(Buffer.alloc(25 * 1024 * 1024, 0x41)))).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });
});
