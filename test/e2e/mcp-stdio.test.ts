/**
 * The MCP server as an MCP client starts it: the SDK's stdio transport spawning exactly what mcp.json says, over a
 * database the HTTP server seeded. The typical line edit of the specification, and its refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { http, seenBodies } from '../helpers/clients.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { expectSentence, mcpJsonServer, spawnStdioMcp, type StdioMcp } from '../helpers/e2e.js';

let server: RunningServer;
let owner: StdioMcp;

beforeAll(async () => {
  server = await startServer();
  owner = await spawnStdioMcp({ database: server.database });
});
afterAll(async () => {
  await owner?.close();
  await server?.stop();
});

const restLine = (projectId: string, itemId: string) =>
  http(server.url, 'GET', `/v1/projects/${projectId}/items/${itemId}`, { token: server.token });

/** The first line of Harbour House, found the way an agent would. */
async function firstLine(mcp: StdioMcp) {
  const projects = await mcp.call('list_projects', {});
  expect(projects.isError).toBeFalsy();
  const project = projects.structuredContent.items.find((p: { name: string }) => p.name === 'Harbour House');
  expect(project).toBeDefined();
  const lines = await mcp.call('list_lines', { projectId: project.id, limit: 5 });
  expect(lines.isError).toBeFalsy();
  expect(lines.structuredContent.items.length).toBeGreaterThan(0);
  return { projectId: project.id as string, itemId: lines.structuredContent.items[0].id as string };
}

describe('stdio MCP as mcp.json starts it', () => {
  it('mcp.json starts the built CLI in mcp mode', () => {
    const { command, args } = mcpJsonServer();
    expect(command).toBe('node');
    expect(args).toContain('mcp');
  });

  it('without STUDIO_TOKEN acts for the owner and says so on stderr', async () => {
    const err = await owner.stderrMatching(/acting for the owner/);
    expect(err).toMatch(/without STUDIO_TOKEN: acting for the owner of "Hartley & Rowe Interiors"/);
    expect(err).toContain(server.database);
  });

  it('does the typical line edit: get_line, update_line with the exact etag, get_line confirms', async () => {
    const { projectId, itemId } = await firstLine(owner);
    const read = await owner.call('get_line', { projectId, itemId });
    expect(read.isError).toBeFalsy();
    const etag = read.structuredContent.etag as string;
    expect(etag).toMatch(/^"\d+-[0-9a-f]{8}-[0-9a-f]{8}"$/);
    // The etag is the REST ETag, character for character.
    expect(etag).toBe((await restLine(projectId, itemId)).headers.get('etag'));

    const finish = `Limed oak ${Date.now().toString(36)}`;
    const updated = await owner.call('update_line', { projectId, itemId, ifMatch: etag, finish });
    expect(updated.isError, JSON.stringify(updated.structuredContent)).toBeFalsy();
    expect(updated.structuredContent.finish).toBe(finish);
    expect(updated.structuredContent.version).toBe(read.structuredContent.version + 1);
    expect(updated.structuredContent.etag).not.toBe(etag);

    const confirmed = await owner.call('get_line', { projectId, itemId });
    expect(confirmed.structuredContent.finish).toBe(finish);
    expect(confirmed.structuredContent.etag).toBe(updated.structuredContent.etag);
    // The HTTP server over the same database sees the same line.
    const { etag: _e, ...line } = confirmed.structuredContent;
    expect((await restLine(projectId, itemId)).body).toEqual(line);
    // The audit feed names the person and says the change came through the local owner, not a token.
    const history = await owner.call('call_action', {
      name: 'list_line_audit_events',
      arguments: { input: { projectId, lineId: itemId, limit: 1 } },
    });
    expect(history.structuredContent.result.items[0]).toMatchObject({
      action: 'update_line',
      actor: { kind: 'member', via: 'local_owner', name: expect.stringMatching(/\S/) },
    });
  });

  it('refuses a stale etag with VERSION_CONFLICT and leaves the line unchanged', async () => {
    const { projectId, itemId } = await firstLine(owner);
    const stale = (await owner.call('get_line', { projectId, itemId })).structuredContent.etag as string;
    const moved = await owner.call('update_line', {
      projectId,
      itemId,
      ifMatch: stale,
      dimensions: 'W 2200 × D 950 mm',
    });
    expect(moved.isError).toBeFalsy();
    const before = await owner.call('get_line', { projectId, itemId });

    const refused = await owner.call('update_line', { projectId, itemId, ifMatch: stale, dimensions: 'W 1 × D 1 mm' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.code).toBe('VERSION_CONFLICT');
    expectSentence(refused.structuredContent.message);
    expect(refused.structuredContent.nextStep).toMatch(/get_line/);
    expect((await owner.call('get_line', { projectId, itemId })).structuredContent).toEqual(before.structuredContent);
  });

  it('refuses an update without ifMatch with PRECONDITION_REQUIRED', async () => {
    const { projectId, itemId } = await firstLine(owner);
    const before = await owner.call('get_line', { projectId, itemId });
    const refused = await owner.call('update_line', { projectId, itemId, finish: 'Unguarded' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.code).toBe('PRECONDITION_REQUIRED');
    expect((await owner.call('get_line', { projectId, itemId })).structuredContent).toEqual(before.structuredContent);
  });

  it('reports bad arguments as a tool error with VALIDATION_FAILED, not a protocol error', async () => {
    const { projectId, itemId } = await firstLine(owner);
    const res = await owner.call('update_line', {
      projectId,
      itemId,
      ifMatch: '"1"',
      tradePrice: { state: 'set', amount4: 12.5 },
    });
    expect(res.isError).toBe(true);
    expect(res.structuredContent.code).toBe('VALIDATION_FAILED');
  });

  it('reaches a catalogued action through call_action', async () => {
    const { projectId } = await firstLine(owner);
    const res = await owner.call('call_action', { name: 'get_project', arguments: { projectId } });
    expect(res.isError, JSON.stringify(res.structuredContent)).toBeFalsy();
    expect(res.structuredContent.result.name).toBe('Harbour House');
    const unknown = await owner.call('call_action', { name: 'no_such_action', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent.code).toBe('NOT_FOUND');
  });
});

describe('an agent that lists the tools first, as every MCP client does', () => {
  let agent: StdioMcp;
  beforeAll(async () => {
    agent = await spawnStdioMcp({ database: server.database });
  });
  afterAll(async () => agent?.close());

  it('tools/list has the everyday tools and the discovery tools', async () => {
    const { tools } = await agent.client.listTools();
    const names = tools.map((t) => t.name);
    for (const n of [
      'list_projects',
      'get_project',
      'list_lines',
      'get_line',
      'update_line',
      'call_action',
      'get_action',
    ])
      expect(names).toContain(n);
    const update = tools.find((t) => t.name === 'update_line')!;
    expect(update.annotations?.readOnlyHint).toBe(false);
    expect(Object.keys(update.inputSchema.properties ?? {})).toContain('ifMatch');
    expect(tools.find((t) => t.name === 'get_line')!.annotations?.readOnlyHint).toBe(true);
    for (const t of tools) expect(t.description?.length, t.name).toBeGreaterThan(10);
  });

  it('after tools/list, a successful get_line validates against its advertised output schema', async () => {
    const { projectId, itemId } = await firstLine(agent);
    const read = await agent.call('get_line', { projectId, itemId });
    expect(read.isError).toBeFalsy();
    expect(read.structuredContent.etag).toMatch(/^"\d+-[0-9a-f]{8}-[0-9a-f]{8}"$/);
  });

  it('after tools/list, a refused update_line still reaches the agent as an isError result with its code', async () => {
    // Regression guard: the SDK client (1.32.2) validates structuredContent against the listed outputSchema even on
    // isError results (typescript-sdk issue #1943). If a tool lists an output schema its error body does not fit (e.g.
    // the full Line shape), the refusal surfaces as protocol error -32602 and the agent never sees VERSION_CONFLICT.
    const { projectId, itemId } = await firstLine(agent);
    const res = await agent
      .call('update_line', { projectId, itemId, ifMatch: '"999999"', finish: 'Stale' })
      .catch((err: unknown) => ({ thrown: String(err) }));
    expect(res, 'the client threw instead of returning the tool error').not.toHaveProperty('thrown');
    expect((res as { isError?: boolean }).isError).toBe(true);
    expect((res as { structuredContent: { code: string } }).structuredContent.code).toBe('VERSION_CONFLICT');
  });
});

describe('stdio MCP with a viewer STUDIO_TOKEN', () => {
  let viewer: StdioMcp;
  beforeAll(async () => {
    const projectId = (await http(server.url, 'GET', '/v1/projects', { token: server.token })).body.items[0].id;
    const { token } = await memberWithToken(server.database, 'viewer', [{ projectId, level: 'view' }]);
    viewer = await spawnStdioMcp({ database: server.database, token });
  });
  afterAll(async () => viewer?.close());

  it('says on stderr whom it acts for', async () => {
    expect(await viewer.stderrMatching(/acting for/)).toMatch(/acting for the member of STUDIO_TOKEN \(role viewer\)/);
  });

  it('reads, but update_line is refused with FORBIDDEN and nothing changes', async () => {
    const { projectId, itemId } = await firstLine(viewer);
    const read = await viewer.call('get_line', { projectId, itemId });
    expect(read.isError).toBeFalsy();
    const refused = await viewer.call('update_line', {
      projectId,
      itemId,
      ifMatch: read.structuredContent.etag,
      finish: 'Viewer was here',
    });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.code).toBe('FORBIDDEN');
    expectSentence(refused.structuredContent.message);
    expect((await viewer.call('get_line', { projectId, itemId })).structuredContent).toEqual(read.structuredContent);
  });
});

it('saw only integer numbers in every JSON body it received', () => {
  expect(seenBodies.length).toBeGreaterThan(20);
});
