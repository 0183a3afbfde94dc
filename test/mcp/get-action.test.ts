import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { ACTIONS } from '../../actions/index.js';
import { allErrorsOf } from '../../src/core/action-errors.js';
import { argumentsSchemaOf, describeActions } from '../../src/surfaces/mcp/describe.js';
import type { ResultPage } from '../../src/surfaces/result-pages/paging.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';

let app: TestApp;
let client: Client;
openTestAppWithMcp((opened) => ({ app, mcp: client } = opened));

const ajv = new AjvJsonSchemaValidator();

describe('get_action', () => {
  it.each(ACTIONS.filter((a) => a.example).map((a) => [a.name, a] as const))(
    '%s: its example validates against the arguments schema call_action takes',
    (_name, action) => {
      const described = describeActions([action]).actions[0]!;
      const check = ajv.getValidator(argumentsSchemaOf(action) as never);
      const verdict = check(described.example);
      expect(verdict.valid, verdict.errorMessage).toBe(true);
      // …and what call_action would hand to invoke passes the action's own validation.
      const input = action.kind === 'procedure' ? (described.example as { input: unknown }).input : described.example;
      expect(action.fullInput.safeParse(input).success).toBe(true);
    },
  );

  it('rejects arguments the action would refuse (the schema is not just "any object")', () => {
    const updateLine = ACTIONS.find((a) => a.name === 'update_line')!;
    const check = ajv.getValidator(argumentsSchemaOf(updateLine) as never);
    expect(check({ projectId: 'x'.repeat(26), itemId: 'nope', heading: 'A' }).valid).toBe(false);
    expect(
      check({ projectId: '0000000000000000000000000a', itemId: '0000000000000000000000000b', colour: 'red' }).valid,
    ).toBe(false);
    const procedure = ACTIONS.find((a) => a.kind === 'procedure' && a.example);
    if (procedure) {
      // A procedure's input must be wrapped in `input`.
      expect(ajv.getValidator(argumentsSchemaOf(procedure) as never)(procedure.example).valid).toBe(false);
    }
  });

  it('describes one action with schemas, errors, scope, concurrency and an example', async () => {
    const res = await client.callTool({ name: 'get_action', arguments: { names: ['archive_line'] } });
    expect(res.isError).toBeFalsy();
    const { actions } = res.structuredContent as { actions: Array<Record<string, unknown>> };
    // archive_line: a versioned write whose whole description fits one answer (update_line's, with the Line
    // schema on both sides, pages like any large read).
    const archiveLine = ACTIONS.find((a) => a.name === 'archive_line')!;
    expect(actions[0]).toMatchObject({
      name: 'archive_line',
      kind: 'resource',
      domain: 'schedule',
      scope: 'projects:write',
      writes: true,
      versioned: 'ifMatch',
      errors: [...allErrorsOf(archiveLine)].sort(),
      example: archiveLine.example,
    });
    expect(actions[0]!.output).toMatchObject({ type: 'object' });
  });

  it('describes several actions with their shared shapes once, and stays within 8,000 bytes or pages', async () => {
    const names = ['get_line', 'update_line', 'list_lines', 'create_line'];
    const res = await client.callTool({ name: 'get_action', arguments: { names } });
    expect(Buffer.byteLength(JSON.stringify(res.structuredContent))).toBeLessThanOrEqual(8000);
    // Whole or paged, the same description comes back through read_action_result.
    const direct = describeActions(names.map((n) => ACTIONS.find((a) => a.name === n)!));
    expect(Object.keys(direct.$defs ?? {})).toEqual(expect.arrayContaining(['Id']));
    const text = JSON.stringify(direct);
    // The shared Id shape is defined once however many fields use it.
    expect(text.match(/"description":"An opaque id\."/g)).toHaveLength(1);
  });

  it('pages how to call the actions first, and the shared definitions after them', async () => {
    // 14 KB described: the first page carries three of the four actions whole (arguments, example, errors) and
    // $defs only as a reference, where before it spent the page on $defs and left the actions for a second read.
    const names = ['get_line', 'update_line', 'list_lines', 'create_line'];
    const res = await client.callTool({ name: 'get_action', arguments: { names } });
    const page = (res.structuredContent as { result_page: ResultPage }).result_page;
    const [actions, defs] = page.entries!;
    expect(actions).toMatchObject({ key: 'actions', count: 4, nextOffset: 3, remaining: 1 });
    expect(actions!.entries!.map((e) => (e.value as { name: string }).name)).toEqual(names.slice(0, 3));
    expect(actions!.entries![1]!.value).toMatchObject({ arguments: expect.any(Object), errors: expect.any(Array) });
    expect(defs).toMatchObject({ key: '$defs', node: expect.stringMatching(/^n\d+$/), type: 'object' });
    expect(defs!.value).toBeUndefined();
  });

  it('answers NOT_FOUND naming the unknown action', async () => {
    const res = await client.callTool({ name: 'get_action', arguments: { names: ['get_line', 'fly_to_moon'] } });
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('fly_to_moon') });
  });
});
