import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ACTIONS } from '../../actions/index.js';
import { annotationsOf } from '../../src/surfaces/mcp/server.js';
import { compactSchema } from '../../src/surfaces/mcp/compact-schema.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';

let app: TestApp;
let client: Client;
openTestAppWithMcp((opened) => ({ app, mcp: client } = opened));

const DISCOVERY = ['search_actions', 'get_action', 'call_action', 'read_action_result'];
/** The budget for the whole tools/list response, in bytes of JSON: 13 tools (issue 23) within 10,240. */
const TOOLS_LIST_BUDGET = 10_240;

describe('tools/list', () => {
  it('lists exactly the 4 discovery tools and the actions declared mcp.advertised', async () => {
    const { tools } = await client.listTools();
    const advertised = ACTIONS.filter((a) => a.mcp?.advertised).map((a) => a.name);
    expect(tools.map((t) => t.name).sort()).toEqual([...DISCOVERY, ...advertised].sort());
    expect(advertised).toEqual(
      expect.arrayContaining(['list_projects', 'get_project', 'list_lines', 'get_line', 'update_line']),
    );
    expect(tools.some((t) => t.name.startsWith('test_'))).toBe(false);
  });

  it(`stays within ${TOOLS_LIST_BUDGET} bytes`, async () => {
    const size = Buffer.byteLength(JSON.stringify(await client.listTools()), 'utf8');
    console.log(`tools/list: ${size} bytes (~${Math.round(size / 4)} tokens)`);
    expect(size).toBeLessThanOrEqual(TOOLS_LIST_BUDGET);
  });

  it('says how lists page once, in the instructions, rather than on every list tool', async () => {
    const { tools } = await client.listTools();
    for (const name of ['list_projects', 'list_lines', 'list_photographs']) {
      const props = tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, object>;
      expect(Object.keys(props), name).toEqual(expect.arrayContaining(['cursor', 'limit', 'sort']));
      expect(props.cursor, name).toEqual({ type: 'string' });
    }
    expect(client.getInstructions()).toContain('nextCursor they answer back as cursor');
  });

  it('derives every advertised tool annotation from its declaration', async () => {
    const { tools } = await client.listTools();
    for (const a of ACTIONS.filter((x) => x.mcp?.advertised)) {
      const tool = tools.find((t) => t.name === a.name)!;
      expect(tool.annotations, a.name).toEqual(JSON.parse(JSON.stringify(annotationsOf(a))));
      expect(tool.annotations!.readOnlyHint, a.name).toBe(a.effect === 'query');
      expect(tool.annotations!.openWorldHint, a.name).toBe(false);
      expect(tool.description, a.name).toBe(a.summary);
    }
    const update = tools.find((t) => t.name === 'update_line')!;
    expect(update.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    for (const name of ['search_actions', 'get_action', 'read_action_result']) {
      expect(tools.find((t) => t.name === name)!.annotations).toMatchObject({
        readOnlyHint: true,
        openWorldHint: false,
      });
    }
    expect(tools.find((t) => t.name === 'call_action')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: false,
    });
  });

  it('keeps descriptions short, and input schemas objects that refuse unknown fields', async () => {
    const { tools } = await client.listTools();
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeLessThanOrEqual(160);
      expect(t.inputSchema.type, t.name).toBe('object');
      expect((t.inputSchema as { additionalProperties?: unknown }).additionalProperties, t.name).toBe(false);
      // Shared shapes appear once per tool, and never as zod's safe-integer noise.
      expect(JSON.stringify(t.inputSchema), t.name).not.toContain('9007199254740991');
    }
  });

  it('answers an unknown tool (or one only call_action reaches) with an isError NOT_FOUND result', async () => {
    for (const name of ['create_line', 'constructor', 'toString', '__proto__']) {
      const res = await client.callTool({ name, arguments: {} });
      expect(res.isError, name).toBe(true);
      expect(res.structuredContent, name).toMatchObject({ code: 'NOT_FOUND' });
    }
    const viaRead = await client.callTool({ name: 'read_action_result', arguments: { name: 'toString' } });
    expect(viaRead.structuredContent).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('compactSchema', () => {
  it('drops only redundancy: safe-integer bounds, any-key records, single-use $defs; field names are kept', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
        small: { type: 'integer', minimum: 0, maximum: 10 },
        bag: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
        propertyNames: { type: 'string' },
        additionalProperties: {},
        once: { $ref: '#/$defs/Once' },
        a: { $ref: '#/$defs/Twice' },
        b: { anyOf: [{ $ref: '#/$defs/Twice' }, { type: 'null' }] },
      },
      additionalProperties: false,
      $defs: { Once: { type: 'string', description: 'used once' }, Twice: { type: 'string', pattern: '^x$' } },
    };
    expect(compactSchema(schema)).toEqual({
      type: 'object',
      properties: {
        n: { type: 'integer' },
        small: { type: 'integer', minimum: 0, maximum: 10 },
        bag: { type: 'object' },
        propertyNames: { type: 'string' },
        additionalProperties: {},
        once: { type: 'string', description: 'used once' },
        a: { $ref: '#/$defs/Twice' },
        b: { anyOf: [{ $ref: '#/$defs/Twice' }, { type: 'null' }] },
      },
      additionalProperties: false,
      $defs: { Twice: { type: 'string', pattern: '^x$' } },
    });
  });
});
