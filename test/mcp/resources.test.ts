import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { typicalLineEdit } from './line-edit.js';
import { firstItem } from '../helpers/schedule.js';

let app: TestApp;
let client: Client;
openTestAppWithMcp((opened) => ({ app, mcp: client } = opened));

describe('the catalog as MCP resources', () => {
  it('lists service://actions and the service://actions/{name} template', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['service://actions']);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'service://actions/{name}',
      'studio://projects/{projectId}/documents/{documentId}',
    ]);
  });

  it('serves service://actions byte for byte as /docs/api/actions.json', async () => {
    const res = await client.readResource({ uri: 'service://actions' });
    const text = (res.contents[0] as { text: string }).text;
    const docs = await fetch(`${app.url}/docs/api/actions.json`);
    expect(text).toBe(await docs.text());
    expect(res.contents[0]!.mimeType).toBe('application/json');
  });

  it('serves one action as its catalog entry with the definitions it refers to', async () => {
    const all = JSON.parse(
      ((await client.readResource({ uri: 'service://actions' })).contents[0] as { text: string }).text,
    );
    const one = JSON.parse(
      ((await client.readResource({ uri: 'service://actions/update_line' })).contents[0] as { text: string }).text,
    );
    const { $defs, ...entry } = one;
    expect(entry).toEqual(all.actions.find((a: { name: string }) => a.name === 'update_line'));
    expect(Object.keys($defs)).toEqual(expect.arrayContaining(['Id', 'Line']));
    for (const [name, def] of Object.entries($defs)) expect(def).toEqual(all.$defs[name]);
    for (const ref of JSON.stringify(one).match(/#\/\$defs\/\w+/g) ?? [])
      expect($defs).toHaveProperty(ref.slice('#/$defs/'.length));
  });

  it('completes action names for service://actions/{name}, and nothing else', async () => {
    const res = await client.complete({
      ref: { type: 'ref/resource', uri: 'service://actions/{name}' },
      argument: { name: 'name', value: 'get_l' },
    });
    expect(res.completion.values).toContain('get_line');
    expect(res.completion.values.every((v) => v.startsWith('get_l'))).toBe(true);
    await expect(
      client.complete({ ref: { type: 'ref/prompt', name: 'anything' }, argument: { name: 'x', value: '' } }),
    ).rejects.toThrow(/no prompts/);
  });

  it('accepts a logging level', async () => {
    await expect(client.setLoggingLevel('warning')).resolves.toEqual({});
  });

  it('answers an unknown resource with a protocol error', async () => {
    await expect(client.readResource({ uri: 'service://actions/fly_to_moon' })).rejects.toThrow(/No resource/);
  });
});

describe('MCP in memory', () => {
  it('does the typical line edit end to end', async () => {
    await typicalLineEdit(client, app.projectId);
  });

  it('call_action wraps procedure input and answers { result }; errors carry code and next step', async () => {
    const line = await firstItem(app);
    const got = await client.callTool({
      name: 'call_action',
      arguments: { name: 'get_line', arguments: { projectId: app.projectId, itemId: line.id } },
    });
    expect((got.structuredContent as { result: { id: string } }).result.id).toBe(line.id);
    const unwrapped = await client.callTool({
      name: 'call_action',
      arguments: { name: 'nothing_here', arguments: {} },
    });
    expect(unwrapped.structuredContent).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('search_actions'),
    });
  });
});
