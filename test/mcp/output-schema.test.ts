/**
 * Advertised tools declare an outputSchema, and every structuredContent they answer validates against it: the whole
 * output (with the etag MCP adds to a versioned record), a result_page, a write's result_summary and an error result.
 * The MCP SDK client checks this itself once it has listed the tools (a mismatch is thrown as a protocol error); the
 * tests also check each answer with the same validator explicitly, and that the schemas refuse what they should.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { ACTIONS } from '../../actions/index.js';
import { discoveryOutputSchema, toolOutputSchema } from '../../src/surfaces/mcp/output-schema.js';
import { boundedResult } from '../../src/surfaces/result-pages/paging.js';
import { writeSummary } from '../../src/surfaces/mcp/write-summary.js';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { firstItem } from '../helpers/schedule.js';

const ajv = new AjvJsonSchemaValidator();
const advertised = ACTIONS.filter((a) => a.mcp?.advertised);

let app: TestApp;
let tools: Tool[];
let line: { id: string; version: number };
openTestApp((opened) => ({ app } = opened));
beforeAll(async () => {
  line = await firstItem(app);
});

/** A client that has listed the tools, so the SDK validates every structuredContent against its outputSchema. */
async function listedClient(token?: string): Promise<Client> {
  const client = await app.mcp(token);
  tools = (await client.listTools()).tools;
  return client;
}

/** Calls a tool (the SDK validates the answer) and validates its structuredContent explicitly as well. */
async function call(client: Client, name: string, args: Record<string, unknown>) {
  const res = await client.callTool({ name, arguments: args });
  const schema = tools.find((t) => t.name === name)!.outputSchema!;
  const verdict = ajv.getValidator(schema as never)(res.structuredContent);
  expect(verdict.valid, `${name}: ${verdict.errorMessage}`).toBe(true);
  return res as typeof res & { structuredContent: Record<string, any> };
}

describe('advertised tools declare an outputSchema', () => {
  it('every advertised tool has one, an object schema built from its catalog output; so do the discovery reads', async () => {
    await listedClient();
    for (const a of advertised) {
      const tool = tools.find((t) => t.name === a.name)!;
      expect(tool.outputSchema, a.name).toEqual(JSON.parse(JSON.stringify(toolOutputSchema(a))));
      expect(tool.outputSchema!.type, a.name).toBe('object');
    }
    for (const name of ['search_actions', 'get_action'])
      expect(tools.find((t) => t.name === name)!.outputSchema, name).toEqual(discoveryOutputSchema());
    // call_action and read_action_result answer any action's output: no one schema says more than "an object".
    for (const name of ['call_action', 'read_action_result'])
      expect(tools.find((t) => t.name === name)!.outputSchema, name).toBeUndefined();
  });

  it('the discovery reads: found actions, a description, a paged description and an error all validate', async () => {
    const client = await listedClient();
    const found = await call(client, 'search_actions', { query: 'attach a picture to an item' });
    expect(found.structuredContent.actions.length).toBeGreaterThan(0);
    const described = await call(client, 'get_action', { names: ['list_projects'] });
    expect(described.structuredContent.actions[0].name).toBe('list_projects');
    const paged = await call(client, 'get_action', { names: ACTIONS.slice(0, 10).map((a) => a.name) });
    expect(paged.structuredContent.result_page).toBeDefined();
    const unknown = await call(client, 'get_action', { names: ['delete_line'] });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent.code).toBe('NOT_FOUND');
    const refused = ajv.getValidator(discoveryOutputSchema() as never);
    expect(refused({ items: [] }).valid).toBe(false);
  });

  it('names a record by its id and a list by its items, and refuses other shapes', () => {
    const getLine = ajv.getValidator(toolOutputSchema(ACTIONS.find((a) => a.name === 'get_line')!) as never);
    const listLines = ajv.getValidator(toolOutputSchema(ACTIONS.find((a) => a.name === 'list_lines')!) as never);
    const updateLine = ajv.getValidator(toolOutputSchema(ACTIONS.find((a) => a.name === 'update_line')!) as never);
    expect(getLine({ ...line, etag: `"${line.version}-00000000"` }).valid).toBe(true);
    // Only what tells the shape apart is required (tools/list's budget): the etag is in the tool's description.
    expect(getLine(line).valid).toBe(true);
    expect(getLine({}).valid).toBe(false);
    expect(getLine({ items: [], nextCursor: null }).valid).toBe(false);
    expect(listLines({ items: [], nextCursor: null }).valid).toBe(true);
    expect(listLines({ result_summary: {} }).valid).toBe(false); // reads page, they do not summarise
    expect(updateLine({ result_summary: writeSummary({ id: 'x', version: 2 }) }).valid).toBe(true);
    expect(updateLine({ result_page: {} }).valid).toBe(false);
    const page = boundedResult('list_lines', {}, { items: Array(400).fill(line), nextCursor: null });
    expect('result_page' in page && listLines(page).valid).toBe(true);
    expect(getLine({ code: 'NOT_FOUND', message: 'No such line.', requestId: 'r' }).valid).toBe(true);
  });
});

describe('every answer validates against it, through the SDK client', () => {
  it('reads: whole, paged and versioned; a write; and errors, including a refused write', async () => {
    const client = await listedClient();
    const projects = await call(client, 'list_projects', {});
    expect(projects.structuredContent.items.length).toBeGreaterThan(0);
    const project = await call(client, 'get_project', { projectId: app.projectId });
    expect(project.structuredContent.sections.length).toBeGreaterThan(0);
    const paged = await call(client, 'list_lines', { projectId: app.projectId });
    expect(paged.structuredContent.result_page).toBeDefined();
    const small = await call(client, 'list_lines', { projectId: app.projectId, limit: 2 });
    expect(small.structuredContent.items).toHaveLength(2);
    const read = await call(client, 'get_line', { projectId: app.projectId, itemId: line.id });
    expect(read.structuredContent.etag).toMatch(/^"\d+-[0-9a-f]{8}-[0-9a-f]{8}"$/);
    const updated = await call(client, 'update_line', {
      projectId: app.projectId,
      itemId: line.id,
      ifMatch: read.structuredContent.etag,
      finish: 'Limed oak',
    });
    expect(updated.isError, JSON.stringify(updated.structuredContent)).toBeFalsy();
    expect(updated.structuredContent).toMatchObject({ finish: 'Limed oak', etag: expect.any(String) });
    const stale = await call(client, 'update_line', {
      projectId: app.projectId,
      itemId: line.id,
      ifMatch: read.structuredContent.etag,
      finish: 'Stale',
    });
    expect(stale.isError).toBe(true);
    expect(stale.structuredContent.code).toBe('VERSION_CONFLICT');
    const missing = await call(client, 'get_line', { projectId: app.projectId, itemId: '0'.repeat(26) });
    expect(missing.structuredContent.code).toBe('NOT_FOUND');
    const invalid = await call(client, 'list_lines', { projectId: app.projectId, limit: 0 });
    expect(invalid.structuredContent.code).toBe('VALIDATION_FAILED');
  });

  it('for a member without pricing:read too, whose lines come without trade price, markup and margin', async () => {
    const { token } = await memberWithToken(app.database, 'assistant', [{ projectId: app.projectId, level: 'edit' }]);
    const client = await listedClient(token);
    const read = await call(client, 'get_line', { projectId: app.projectId, itemId: line.id });
    expect(read.isError, JSON.stringify(read.structuredContent)).toBeFalsy();
    expect(read.structuredContent).not.toHaveProperty('tradePrice');
    const small = await call(client, 'list_lines', { projectId: app.projectId, limit: 3 });
    expect(small.structuredContent.items).toHaveLength(3);
  });
});
