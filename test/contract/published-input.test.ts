/**
 * Required means required where it is published: the control fields `invoke` insists on (a version wherever the
 * action is versioned, an idempotency key on keyed resources) are `required` in actions.json, OpenAPI, get_action and
 * the MCP tool schemas (a procedure's commandKey too). Parsing keeps them optional, so a missing one still
 * answers its own code rather than a generic validation failure.
 */
import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ACTIONS } from '../../actions/index.js';
import { type AnyAction, CONTROL_FIELDS } from '../../src/core/define-action.js';
import { buildActionsDocument } from '../../src/contract/actions-json.js';
import { buildOpenApiDocument } from '../../src/contract/openapi.js';
import { toJsonSchema } from '../../src/contract/json-schema.js';
import { describeActions } from '../../src/surfaces/mcp/describe.js';
import { openTestAppWithMcp, type TestApp } from '../helpers/in-process.js';
import { firstItem } from '../helpers/schedule.js';

type Schema = { properties?: Record<string, unknown>; required?: string[] };

/** The control fields `invoke` refuses to go without, and the optional ones, for one action. */
function controls(a: AnyAction): { required: string[]; optional: string[] } {
  const f = CONTROL_FIELDS[a.kind];
  const required: string[] = [];
  const optional: string[] = [];
  if (a.versioned) required.push(f.version);
  if (a.keyed) required.push(f.key);
  return { required, optional };
}

const withControls = ACTIONS.filter((a) => a.versioned || a.keyed).map((a) => [a.name, a] as const);

it('the catalog has versioned and keyed actions of every kind to check', () => {
  const kinds = (pick: (a: AnyAction) => unknown) => new Set(ACTIONS.filter(pick).map((a) => a.kind));
  expect([...kinds((a) => a.versioned)].sort()).toEqual(['procedure', 'resource']);
  // File tools (upload_import_file) take a commandKey as procedures do.
  expect([...kinds((a) => a.keyed)].sort()).toEqual(['file', 'procedure', 'resource']);
});

describe.each(withControls)('%s', (name, action) => {
  const { required, optional } = controls(action);
  const doc = buildActionsDocument([action]).actions[0]!;
  const described = describeActions([action]).actions[0]!;
  const args = described.arguments as Schema & { properties: Record<string, Schema> };
  const published = action.kind === 'procedure' ? args.properties.input! : args;

  it('actions.json and get_action mark the control fields invoke requires as required', () => {
    for (const schema of [doc.input as Schema, published]) {
      for (const f of [...required, ...optional]) expect(Object.keys(schema.properties ?? {}), f).toContain(f);
      for (const f of required) expect(schema.required ?? [], f).toContain(f);
      for (const f of optional) expect(schema.required ?? [], f).not.toContain(f);
    }
  });

  it('parsing keeps them optional, so invoke can answer a missing one with its own code', () => {
    const parsing = toJsonSchema(action.fullInput, 'input').schema as Schema;
    for (const f of [...required, ...optional]) expect(parsing.required ?? [], f).not.toContain(f);
    const example = { ...action.example };
    for (const f of required) delete example[f];
    expect(action.fullInput.safeParse(example).success, name).toBe(true);
    expect(action.publishedInput.safeParse(example).success, name).toBe(required.length === 0);
  });
});

describe.each(withControls.filter(([, a]) => a.kind === 'resource'))('%s over REST', (_name, action) => {
  it('OpenAPI requires the matching header', () => {
    const openapi = buildOpenApiDocument([action]);
    const op = (openapi.paths![`/v1${action.http!.path}`] as Record<string, { parameters: any[] }>)[
      action.http!.method.toLowerCase()
    ]!;
    const headers = op.parameters.filter((p) => p.in === 'header');
    expect(headers.map((p) => [p.name, p.required])).toEqual([
      ...(action.versioned ? [['If-Match', true]] : []),
      ...(action.keyed ? [['Idempotency-Key', true]] : []),
    ]);
  });
});

describe('MCP tool schemas and the answers to a missing control field', () => {
  let app: TestApp;
  let client: Client;
  openTestAppWithMcp((opened) => ({ app, mcp: client } = opened));

  it('every advertised tool requires what invoke requires', async () => {
    const { tools } = await client.listTools();
    for (const a of ACTIONS.filter((x) => x.mcp?.advertised)) {
      const schema = tools.find((t) => t.name === a.name)!.inputSchema as Schema;
      for (const f of controls(a).required) expect(schema.required, `${a.name} ${f}`).toContain(f);
    }
    expect(tools.find((t) => t.name === 'update_line')!.inputSchema.required).toContain('ifMatch');
  });

  it('a missing ifMatch still answers PRECONDITION_REQUIRED (not VALIDATION_FAILED) on every surface', async () => {
    const line = await firstItem(app);
    const res = await client.callTool({
      name: 'update_line',
      arguments: { projectId: app.projectId, itemId: line.id, finish: 'Oak' },
    });
    expect(res.structuredContent).toMatchObject({ code: 'PRECONDITION_REQUIRED' });
    const viaCall = await client.callTool({
      name: 'call_action',
      arguments: {
        name: 'create_line',
        arguments: { projectId: app.projectId, sectionId: line.sectionId, heading: 'X' },
      },
    });
    expect(viaCall.structuredContent).toMatchObject({ code: 'IDEMPOTENCY_KEY_REQUIRED' });
  });
});
