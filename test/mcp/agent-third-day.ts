/**
 * An agent's third day (issue 26): ten fresh tasks as an agent does them through the MCP tools alone, over one
 * connection. It finds what it has not used before with search_actions (in the studio's words of the task), sends what
 * the hit's `call` outline says, and follows every hint an answer gives exactly as written (an operation's poll, a
 * refusal's nextCall), counting each such call and whether it failed. A document is read through the connection
 * (resources/read of the resource_link download_document answers), not over HTTP.
 *
 * Every tool call and the bytes of its text content (what a model reads) are counted per task. A resource read is
 * counted as a call; its blob is a file handed to the client, not text a model reads, so its bytes are reported apart.
 *
 * Shared by the test (test/e2e/agent-third-day.test.ts: the tasks are done, checked on their results) and the bench
 * (which reports calls and bytes against the targets). Written from the tool contract only.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallTool, must, sessionRecorder, type TaskFigures, type ToolAnswer } from './agent-session.js';

/** resources/read of one URI: its media type and bytes (a blob decoded, or text). */
export type ReadResource = (uri: string) => Promise<{ mimeType?: string; bytes: Buffer }>;

export interface HintFigures {
  /** The call the hint named, as sent. */
  call: string;
  ok: boolean;
}

export interface ThirdDayFigures {
  tasks: TaskFigures[];
  totalCalls: number;
  totalBytes: number;
  /** Bytes of documents read as resources (files handed to the client, not text a model reads). */
  resourceBytes: number;
  /** Every call written from a hint in an answer, and whether it worked. */
  hints: HintFigures[];
  /** What the tasks found, for the test to check against the studio. */
  found: {
    photographId: string;
    propertyLines: string[];
    importedSection: { id: string; lines: number };
    shareUrl: string;
    pdf: { mimeType?: string; firstBytes: string; byteSize: number; readBytes: number };
    priceChangedBy: string;
    newProject: { id: string; clientId: string | null; sections: number };
    clientTotal: string;
    leftOut: string[];
  };
}

export interface ThirdDaySetup {
  /** A project with lines in at least two rooms (the demo studio's Harbour House). */
  projectName: string;
  /** The project root, for the sample photograph. */
  root: string;
}

/** What the model reads of each answer (its text), and the resource links beside it. */
export const thirdDayCaller =
  (client: Client): CallTool =>
  async (name, args) => {
    const res = await client.callTool({ name, arguments: args });
    const content = res.content as Array<{ type: string; text?: string; uri?: string }>;
    const text = content.map((c) => c.text ?? '').join('\n');
    const resourceLinks = content.filter((c) => c.type === 'resource_link').map((c) => c.uri!);
    return { isError: !!res.isError, text, body: res.structuredContent, resourceLinks };
  };
export const resourceReader =
  (client: Client): ReadResource =>
  async (uri) => {
    const res = await client.readResource({ uri });
    const item = res.contents[0] as { mimeType?: string; blob?: string; text?: string };
    return {
      mimeType: item.mimeType,
      bytes: item.blob !== undefined ? Buffer.from(item.blob, 'base64') : Buffer.from(item.text ?? ''),
    };
  };

/** The call an operation's answer says to send until it ends: `…: {"tool":…,"arguments":…}` at the end of a text. */
const POLL_HINT = /send this call[^:]*: (\{.*\})\s*$/m;

export async function runThirdDay(
  callTool: CallTool,
  readResource: ReadResource,
  setup: ThirdDaySetup,
): Promise<ThirdDayFigures> {
  const { tasks, current, task, call, ok, action } = sessionRecorder(callTool);
  const hints: HintFigures[] = [];
  let resourceBytes = 0;
  /**
   * The hits an agent recognises for the task among the first five, by name, with the outline of what to send; each of
   * `needed` must be there (one search serves a task that takes two acts when both come up).
   */
  const search = async (query: string, needed: string[], alternatives: string[] = []) => {
    const { actions } = await ok('search_actions', { query });
    const hits = new Map(
      (actions as Array<{ name: string; call: string }>)
        .filter((h) => needed.includes(h.name) || alternatives.includes(h.name))
        .map((h) => [h.name, h.call]),
    );
    for (const name of needed) must(hits.has(name), `search "${query}" did not find ${name} in its first five`);
    if (alternatives.length)
      must(
        alternatives.some((n) => hits.has(n)),
        `search "${query}" found none of ${alternatives.join(', ')}`,
      );
    return hits;
  };
  /** Follows an operation's poll hint as written, about every second, until the operation ends. */
  const untilDone = async (answer: ToolAnswer) => {
    must(!answer.isError, 'the operation was not accepted', answer);
    let op = answer.body.result;
    const hint = POLL_HINT.exec(answer.text)?.[1];
    while (!['succeeded', 'failed', 'canceled'].includes(op.status)) {
      must(hint, `operation ${op.status} without a poll hint`, answer);
      const next = JSON.parse(hint!) as { tool: string; arguments: Record<string, unknown> };
      await new Promise((r) => setTimeout(r, 1000));
      const polled = await call(next.tool, next.arguments);
      hints.push({ call: `${next.tool} ${JSON.stringify(next.arguments)}`, ok: !polled.isError });
      must(!polled.isError, 'the poll hint failed as written', polled);
      op = polled.body.result;
      must(op, 'the poll answered no operation', polled);
    }
    must(op.status === 'succeeded', `operation ${op.status}`);
    return op;
  };

  // 1. Find the project and the line to work on, reading only what is needed.
  const { projectId, sofa, lines } = await task('find the project and its lines', async () => {
    const projects = await ok('list_projects', { q: setup.projectName });
    const project = projects.items.find((p: { name: string }) => p.name === setup.projectName);
    must(project, `no project ${setup.projectName}`);
    const list = await action('list_lines', { projectId: project.id }, ['heading']);
    const rows = list.items as Array<[string, string]>;
    must(rows.length >= 3, 'the project needs three lines');
    const sofa = rows.find((r) => /sofa/i.test(r[1])) ?? rows[0]!;
    return { projectId: project.id as string, sofa: sofa[0], lines: rows.map((r) => r[0]) };
  });

  // 2. Attach a photograph to the sofa (add_photograph is one of the listed tools).
  const photograph = await task('attach a photograph to a line', async () => {
    const jpeg = readFileSync(join(setup.root, 'samples', 'three-seat-sofa.jpg'));
    const added = await ok('add_photograph', {
      projectId,
      itemId: sofa,
      data: jpeg.toString('base64'),
      mediaType: 'image/jpeg',
      filename: 'three-seat-sofa.jpg',
      idempotencyKey: randomUUID(),
    });
    must(added.id, 'no photograph id', undefined);
    return added as { id: string };
  });

  // 3. Look at it: get_photograph answers the picture itself as image content beside the record.
  await task("look at a line's photograph", async () => {
    const seen = await call('get_photograph', { projectId, itemId: sofa, photographId: photograph.id });
    must(!seen.isError && seen.body.id === photograph.id, 'the photograph did not come back', seen);
  });

  // 4. One custom property, set on three lines: make it, read the lines' versions, set it on the three in one call
  // (bulk_update_schedule_lines, whose patches carry property values).
  const propertyLines = await task('a custom property on three lines', async () => {
    // One search: making the property and setting it on several lines both come up, each with what to send.
    const found = await search('add a custom field to the schedule and fill it in on three lines', [
      'create_custom_property',
      'bulk_update_schedule_lines',
    ]);
    must(found.get('create_custom_property')!.includes('commandKey'), 'the outline does not say a key is needed');
    must(found.get('bulk_update_schedule_lines')!.includes('lines'), 'the outline hides the lines');
    const property = await action('create_custom_property', {
      input: { projectId, name: `Fire rating ${randomUUID().slice(0, 4)}`, kind: 'text', commandKey: randomUUID() },
    });
    const three = lines.slice(0, 3);
    const read = await action('list_lines', { projectId }, ['version']);
    const versions = new Map((read.items as Array<[string, number]>).map(([id, v]) => [id, v]));
    const set = await action('bulk_update_schedule_lines', {
      input: {
        projectId,
        lines: three.map((lineId) => ({
          lineId,
          expectedVersion: versions.get(lineId),
          patch: { properties: { [property.id]: 'BS 5852 crib 5' } },
        })),
      },
    });
    for (const line of set.lines as Array<{ properties: Array<{ propertyId: string }> }>)
      must(
        line.properties.some((p) => p.propertyId === property.id),
        'the value did not land',
      );
    return three;
  });

  // 5. Lines from a spreadsheet into a room the project does not have yet.
  const importedSection = await task('import lines into a new room', async () => {
    // Two searches: "… into a new room" finds the room but not the upload, so the agent asks for each.
    await search('add a room to the project', ['create_schedule_section']);
    const room = await action('create_schedule_section', {
      input: { projectId, title: 'Garden room', commandKey: randomUUID() },
    });
    const upload = await search('import a spreadsheet of lines', ['upload_import_file']);
    must(upload.get('upload_import_file')!.includes('data'), 'the outline does not say the file goes in data');
    const csv = [
      'Item,Qty,Supplier,Net,Lead time (weeks)',
      'Teak bench,2,Garden Works,"£420.00",6',
      'Outdoor lantern,4,Lumen House,"£85.00",3',
      'Jute rug 200x300,1,Loom & Co,"£310.00",4',
    ].join('\n');
    const imp = await action('upload_import_file', {
      projectId,
      data: Buffer.from(csv).toString('base64'),
      filename: 'garden-room.csv',
      mediaType: 'text/csv',
      commandKey: randomUUID(),
    });
    const preview = await action('preview_schedule_import', {
      input: { projectId, importId: imp.id, defaultSectionId: room.id, lines: 0 },
    });
    const committed = await call('call_action', {
      name: 'commit_schedule_import',
      arguments: { input: { projectId, importId: imp.id, expectedVersion: preview.import.version } },
    });
    const op = await untilDone(committed);
    return { id: room.id as string, lines: Number(op.result?.lines ?? op.result?.linesCreated ?? 0) };
  });

  // 6. Share the project with the client: the link names the address the studio is served at.
  const shareUrl = await task('share the project with the client', async () => {
    const found = await search('send the client a link to the schedule', ['issue_project_share']);
    must(found.get('issue_project_share')!.includes('confirm'), 'the outline does not say the act is confirmed');
    const share = await action('issue_project_share', {
      input: { projectId, commandKey: randomUUID(), confirm: true },
    });
    must(share.url && share.served === true, 'the share link is not served', undefined);
    return share.url as string;
  });

  // 7. A PDF of the client schedule, read through the MCP connection itself.
  const pdf = await task('make a PDF of the client schedule and read it through MCP', async () => {
    await search('make a PDF of the client schedule', ['generate_document']);
    const started = await call('call_action', {
      name: 'generate_document',
      arguments: { projectId, kind: 'client_schedule', commandKey: randomUUID() },
    });
    const op = await untilDone(started);
    const answer = await call('call_action', {
      name: 'download_document',
      arguments: { projectId, documentId: op.result.id },
    });
    must(!answer.isError, 'download_document failed', answer);
    const link = answer.body.result;
    const uri = answer.resourceLinks?.[0];
    must(uri, 'no resource_link beside the download link', answer);
    current().calls += 1;
    const read = await readResource(uri!);
    resourceBytes += read.bytes.length;
    current().log.push(`resources/read ${uri} (${read.bytes.length} bytes of file)`);
    return {
      mimeType: read.mimeType,
      firstBytes: read.bytes.subarray(0, 5).toString('latin1'),
      byteSize: link.byteSize as number,
      readBytes: read.bytes.length,
    };
  });

  // 8. Who changed a price: change one (read for the etag, write), then ask the line's history.
  const priceChangedBy = await task('find who changed a price', async () => {
    const line = await ok('get_line', { projectId, itemId: sofa });
    await ok('update_line', {
      projectId,
      itemId: sofa,
      ifMatch: line.etag,
      tradePrice: { state: 'set', amount4: '18500000' },
    });
    const found = await search(
      'who changed the price of a line',
      [],
      ['get_schedule_line_history', 'list_line_audit_events'],
    );
    const history = found.has('get_schedule_line_history') ? 'get_schedule_line_history' : 'list_line_audit_events';
    const events = await action(history, { input: { projectId, lineId: sofa, limit: 3 } });
    const change = events.items.find((e: { changes: Record<string, unknown> | null }) => e.changes?.tradePrice);
    must(change?.actor?.name, 'the price change does not say who made it');
    return change.actor.name as string;
  });

  // 9. A project from the studio's template, for a client the studio has not worked with before.
  const newProject = await task('a project from a template for a new client', async () => {
    const found = await search('start a project from a template', ['create_project']);
    const outline = found.get('create_project')!;
    must(outline.includes('templateId') && outline.includes('clientId'), 'the outline hides templateId or clientId');
    const templates = await action('list_project_templates', { input: { limit: 5 } }, ['name']);
    must(templates.items.length, 'the studio has no template');
    // create_project's description says to make a new client with create_client: its outline is one search away.
    await search('add a new client', ['create_client']);
    const client = await action('create_client', {
      input: { name: `The Okafor family ${randomUUID().slice(0, 4)}`, commandKey: randomUUID() },
    });
    const project = await action('create_project', {
      name: 'Okafor house',
      templateId: templates.items[0][0],
      clientId: client.id,
      idempotencyKey: randomUUID(),
    });
    must(project.clientId === client.id && !project.note, 'the project is not linked to the client record');
    return { id: project.id as string, clientId: project.clientId as string | null, sections: project.sections.length };
  });

  // 10. The client total, and which lines it does not yet cover.
  const totals = await task('the client total and what is left out', async () => {
    await search('client total of the project', ['get_project_totals']);
    const t = await action('get_project_totals', { input: { projectId } });
    must(/^-?\d+$/.test(t.clientTotal.amount4), 'no client total');
    return {
      clientTotal: t.clientTotal.amount4 as string,
      leftOut: (t.linesLeftOut as Array<{ heading: string }>).map((l) => l.heading),
    };
  });

  return {
    tasks,
    totalCalls: tasks.reduce((n, t) => n + t.calls, 0),
    totalBytes: tasks.reduce((n, t) => n + t.bytes, 0),
    resourceBytes,
    hints,
    found: {
      photographId: photograph.id,
      propertyLines,
      importedSection,
      shareUrl,
      pdf,
      priceChangedBy,
      newProject,
      clientTotal: totals.clientTotal,
      leftOut: totals.leftOut,
    },
  };
}
