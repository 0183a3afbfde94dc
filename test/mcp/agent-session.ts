/**
 * Ten everyday tasks as an agent does them through the MCP tools alone, over one connection: the advertised tools
 * where they serve, search_actions then call_action where they do not (the search hit's `call` outline says what to
 * send, so no get_action is needed for a simple call). Five deliberate mistakes are made on the way, and each is
 * corrected only from what its error text says. Every tool call and the bytes of its text result (what a model reads)
 * are counted per task.
 *
 * Shared by the test (test/e2e/agent-session.test.ts, which holds the counts to the issue's targets) and the bench
 * (which reports them). Written from the tool contract only, never from the server's code.
 */
import { randomUUID } from 'node:crypto';
import { reassemble } from './reassemble.js';
import type { ResultPage } from '../../src/surfaces/result-pages/paging.js';

export interface ToolAnswer {
  isError: boolean;
  /** The text content the model reads (the JSON of the structured content). */
  text: string;
  body: any;
  /** The URIs of resource_link items beside the text (a document readable with resources/read). */
  resourceLinks?: string[];
}
export type CallTool = (name: string, args: Record<string, unknown>) => Promise<ToolAnswer>;

export interface TaskFigures {
  task: string;
  calls: number;
  bytes: number;
  /** Each call: the tool (and, for call_action and read_action_result, the action), its bytes, and whether refused. */
  log: string[];
}

export interface MistakeFigures {
  mistake: string;
  code: string;
  /** The error text the correction was made from. */
  text: string;
  /** Whether the call made as the text said then succeeded. */
  fixed: boolean;
}

export interface SessionFigures {
  tasks: TaskFigures[];
  mistakes: MistakeFigures[];
  totalCalls: number;
  totalBytes: number;
  /** The most calls any single-record edit took (reading the record included). */
  maxCallsPerEdit: number;
}

export interface SessionSetup {
  /** A project with lines in at least two sections (the demo studio's Harbour House). */
  projectName: string;
  /** A project with a long schedule, paged through in task 9. */
  largeProjectId: string;
  largeProjectLines: number;
}

class SessionError extends Error {}
export const must = (ok: unknown, what: string, answer?: ToolAnswer): void => {
  if (!ok) throw new SessionError(`${what}${answer ? `: ${answer.text.slice(0, 400)}` : ''}`);
};

/**
 * What a scripted session calls through, counted task by task: every tool call's bytes (the text a model reads) and a
 * line of its log go to the task now running. Both scripted days (this one and agent-third-day.ts) use it.
 */
export function sessionRecorder(callTool: CallTool) {
  const tasks: TaskFigures[] = [];
  let running: TaskFigures | undefined;
  const call = async (name: string, args: Record<string, unknown>) => {
    const answer = await callTool(name, args);
    running!.calls += 1;
    const bytes = Buffer.byteLength(answer.text, 'utf8');
    running!.bytes += bytes;
    const what = typeof args.name === 'string' ? `${name} ${args.name}` : name;
    running!.log.push(`${what} ${bytes}${answer.isError ? ` ${answer.body?.code}` : ''}`);
    return answer;
  };
  const ok = async (name: string, args: Record<string, unknown>) => {
    const a = await call(name, args);
    must(!a.isError, `${name} failed`, a);
    return a.body;
  };
  return {
    tasks,
    /** The task now running: its calls and bytes so far. */
    current: () => running!,
    task: async <T>(name: string, run: () => Promise<T>): Promise<T> => {
      running = { task: name, calls: 0, bytes: 0, log: [] };
      tasks.push(running);
      return run();
    },
    call,
    ok,
    /** call_action's result. */
    action: async (name: string, args: Record<string, unknown>, fields?: string[]) =>
      (await ok('call_action', { name, arguments: args, ...(fields ? { fields } : {}) })).result,
  };
}

export async function runAgentSession(callTool: CallTool, setup: SessionSetup): Promise<SessionFigures> {
  const { tasks, current, task, call, ok, action } = sessionRecorder(callTool);
  const mistakes: MistakeFigures[] = [];
  const edits: number[] = [];
  /** The search hit an agent would pick: the first whose name is one of those it recognises for the task. */
  const find = async (query: string, ...names: string[]) => {
    const { actions } = await ok('search_actions', { query });
    const hits = (actions as Array<{ name: string; call: string }>).filter((h) => names.includes(h.name));
    must(hits.length, `search "${query}" found none of ${names.join(', ')}`);
    return new Map(hits.map((h) => [h.name, h.call]));
  };
  const mistake = (m: MistakeFigures) => mistakes.push(m);

  // 1. A room's lines, and which of its prices are still to be confirmed.
  const { projectId, rooms, firstLineId } = await task('read a room and its TBC prices', async () => {
    const projects = await ok('list_projects', { q: setup.projectName });
    const project = projects.items.find((p: { name: string }) => p.name === setup.projectName);
    must(project, `no project ${setup.projectName}`);
    const detail = await ok('get_project', { projectId: project.id });
    const rooms = detail.sections as Array<{ id: string; title: string }>;
    must(rooms.length >= 2, 'the project needs two rooms');
    const lines = await action('list_lines', { projectId: project.id, sectionId: rooms[0]!.id }, [
      'code',
      'heading',
      'status',
      'tradePrice',
      'clientPrice',
    ]);
    must(lines.items.length > 0, 'the first room has no lines');
    must(lines.columns[0] === 'id', 'rows do not start with the id');
    return { projectId: project.id as string, rooms, firstLineId: lines.items[0][0] as string };
  });

  // 2. Change a price and a lead time: read for the etag, write with it.
  const edited = await task('change a price and a lead time (ETag flow)', async () => {
    const line = await ok('get_line', { projectId, itemId: firstLineId });
    const updated = await ok('update_line', {
      projectId,
      itemId: line.id,
      ifMatch: line.etag,
      tradePrice: { state: 'set', amount4: '4250000' },
      leadTimeDays: 42,
    });
    must(updated.leadTimeDays === 42 && updated.tradePrice.price.amount4 === '4250000', 'the edit did not land');
    edits.push(current().calls);
    return updated as { id: string; etag: string };
  });

  // 3. Move the line to another room, and duplicate it there.
  const duplicate = await task('move and duplicate a line into another section', async () => {
    const calls = await find('move or duplicate a line to another room', 'move_line', 'duplicate_line');
    must(calls.has('move_line') && calls.has('duplicate_line'), 'search did not offer both move and duplicate');
    const moved = await action('move_line', {
      projectId,
      itemId: edited.id,
      sectionId: rooms[1]!.id,
      ifMatch: edited.etag,
    });
    must(moved.sectionId === rooms[1]!.id, 'the line did not move');
    const copy = await action('duplicate_line', { projectId, itemId: edited.id, idempotencyKey: randomUUID() });
    must(copy.sectionId === rooms[1]!.id && copy.id !== edited.id, 'the duplicate is not beside it');
    return copy as { id: string; version: number; etag: string };
  });

  // 4. Add a line.
  await task('add a line', async () => {
    const calls = await find('add a new line to a room', 'create_line');
    must(calls.get('create_line')!.includes('idempotencyKey'), 'the outline does not say a key is needed');
    await action('create_line', {
      projectId,
      sectionId: rooms[1]!.id,
      heading: 'Wool runner, hall stairs',
      quantity: { amount4: '120000' },
      idempotencyKey: randomUUID(),
    });
  });

  // 5. A new project with its rooms.
  await task('create a project with rooms', async () => {
    await find('create a new project with rooms', 'create_project');
    const created = await action('create_project', {
      name: `Garden flat ${randomUUID().slice(0, 6)}`,
      sections: ['Kitchen', 'Bedroom', 'Bathroom'],
      idempotencyKey: randomUUID(),
    });
    must(created.sections.length === 3, 'the rooms were not created');
  });

  // 6. Who changed the price (task 2's edit)?
  await task('find who changed a price', async () => {
    const calls = await find('who changed the price of a line', 'list_line_audit_events', 'get_schedule_line_history');
    const name = calls.has('get_schedule_line_history') ? 'get_schedule_line_history' : 'list_line_audit_events';
    const events = await action(name, { input: { projectId, lineId: edited.id, limit: 5 } });
    const change = events.items.find((e: { changes: Record<string, unknown> | null }) => e.changes?.tradePrice);
    must(change?.actor?.name && change.actor.via, 'the price change does not say who made it');
  });

  // 7. The client total.
  await task('the client total', async () => {
    await find('client total of the project', 'get_project_totals');
    const totals = await action('get_project_totals', { input: { projectId } });
    must(/^\d+$/.test(totals.clientTotal.amount4), 'no client total');
  });

  // 8. Archive the duplicate, then restore it.
  await task('archive and restore a line', async () => {
    const calls = await find('archive and restore a line', 'archive_line', 'restore_schedule_line');
    must(calls.has('restore_schedule_line'), 'search did not offer restore');
    const archived = await action('archive_line', { projectId, itemId: duplicate.id, ifMatch: duplicate.etag });
    must(archived.archived_at, 'not archived');
    const restored = await action('restore_schedule_line', {
      input: { projectId, lineId: duplicate.id, expectedVersion: archived.version },
    });
    must(restored.archived_at === null, 'not restored');
  });

  // 9. Read a long schedule, compactly, page by page.
  await task(`page a ${setup.largeProjectLines}-line schedule`, async () => {
    const args = { projectId: setup.largeProjectId };
    const fields = ['code', 'heading'];
    let snapshot: string | undefined;
    let whole: { items: unknown[] } | undefined;
    const first = await ok('read_action_result', { name: 'list_lines', arguments: args, fields });
    if (first.result) whole = first.result;
    else {
      snapshot = first.result_page.snapshot;
      let firstPage: ResultPage | undefined = first.result_page;
      whole = (await reassemble(async (path, offset) => {
        if (firstPage && !path && offset === 0) {
          const p = firstPage;
          firstPage = undefined;
          return p;
        }
        const next = await ok('read_action_result', {
          name: 'list_lines',
          arguments: args,
          fields,
          snapshot,
          ...(path ? { path } : {}),
          offset,
        });
        return next.result_page as ResultPage;
      })) as { items: unknown[] };
    }
    must(whole!.items.length === setup.largeProjectLines, `read ${whole!.items.length} lines`);
  });

  // 10. Five mistakes, each corrected from its error text alone.
  await task('five deliberate mistakes, corrected', async () => {
    // a. A stale etag.
    const stale = await call('update_line', { projectId, itemId: edited.id, ifMatch: edited.etag, leadTimeDays: 30 });
    must(stale.isError && stale.body.code === 'VERSION_CONFLICT', 'a stale etag was not refused', stale);
    // The text says to read the line again for its current etag.
    const reread = /get_line/.test(stale.text) ? await ok('get_line', { projectId, itemId: edited.id }) : undefined;
    const fixedA = reread
      ? await call('update_line', { projectId, itemId: edited.id, ifMatch: reread.etag, leadTimeDays: 30 })
      : undefined;
    mistake({ mistake: 'stale etag', code: stale.body.code, text: stale.text, fixed: !!fixedA && !fixedA.isError });
    if (fixedA && !fixedA.isError) edits.push(2);

    // b. A procedure's fields at the top level of arguments.
    const flat = await call('call_action', { name: 'get_project_totals', arguments: { projectId } });
    const told = /send arguments: (\{ input: \{ projectId \} \})/.exec(flat.text);
    const fixedB = told
      ? await call('call_action', { name: 'get_project_totals', arguments: { input: { projectId } } })
      : undefined;
    mistake({
      mistake: 'procedure fields not wrapped in input',
      code: flat.body.code,
      text: flat.text,
      fixed: !!fixedB && !fixedB.isError,
    });

    // c. A create without its idempotency key.
    const line = { projectId, sectionId: rooms[0]!.id, heading: 'Brass picture light' };
    const unkeyed = await call('call_action', { name: 'create_line', arguments: line });
    const namesKey = /idempotencyKey/.test(unkeyed.text) && /UUID/i.test(unkeyed.text);
    const fixedC = namesKey
      ? await call('call_action', { name: 'create_line', arguments: { ...line, idempotencyKey: randomUUID() } })
      : undefined;
    mistake({
      mistake: 'create without idempotencyKey',
      code: unkeyed.body.code,
      text: unkeyed.text,
      fixed: !!fixedC && !fixedC.isError,
    });

    // d. A price as a decimal instead of a scale-4 integer string.
    const current = await ok('get_line', { projectId, itemId: edited.id });
    const decimal = await call('update_line', {
      projectId,
      itemId: edited.id,
      ifMatch: current.etag,
      retailPrice: { state: 'set', amount4: '99.50' },
    });
    // The text says amounts are scale-4 integers as strings: 99.50 is "995000".
    const scale4 = /scale-4 integer/i.test(decimal.text) && /amount4/.test(decimal.text);
    const fixedD = scale4
      ? await call('update_line', {
          projectId,
          itemId: edited.id,
          ifMatch: current.etag,
          retailPrice: { state: 'set', amount4: '995000' },
        })
      : undefined;
    mistake({
      mistake: 'decimal amount',
      code: decimal.body.code,
      text: decimal.text,
      fixed: !!fixedD && !fixedD.isError,
    });

    // e. An action that does not exist: lines are archived, never deleted.
    const missing = await call('call_action', { name: 'delete_line', arguments: { projectId, itemId: duplicate.id } });
    const suggested = /Closest by meaning: ([a-z_]+)/.exec(missing.text)?.[1];
    const fixedE =
      suggested === 'archive_line'
        ? await call('call_action', {
            name: suggested,
            arguments: {
              projectId,
              itemId: duplicate.id,
              ifMatch: (await ok('get_line', { projectId, itemId: duplicate.id })).etag,
            },
          })
        : undefined;
    mistake({
      mistake: 'unknown action delete_line',
      code: missing.body.code,
      text: missing.text,
      fixed: !!fixedE && !fixedE.isError,
    });
  });

  return {
    tasks,
    mistakes,
    totalCalls: tasks.reduce((n, t) => n + t.calls, 0),
    totalBytes: tasks.reduce((n, t) => n + t.bytes, 0),
    maxCallsPerEdit: Math.max(...edits),
  };
}
