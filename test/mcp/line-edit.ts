import { expect } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/**
 * The typical line edit an agent makes, as the seed describes it: get_line, keep the exact quoted etag, update_line
 * with it, get_line to confirm; a stale etag answers VERSION_CONFLICT and changes nothing. The same over every transport.
 */
export async function typicalLineEdit(client: Client, projectId: string) {
  const list = await client.callTool({ name: 'list_lines', arguments: { projectId, limit: 1 } });
  expect(list.isError, JSON.stringify(list.structuredContent)).toBeFalsy();
  const itemId = (list.structuredContent as { items: Array<{ id: string }> }).items[0]!.id;

  const read = await client.callTool({ name: 'get_line', arguments: { projectId, itemId } });
  const before = read.structuredContent as { etag: string; version: number; finish: string | null };
  expect(before.etag).toMatch(new RegExp(`^"${before.version}-[0-9a-f]{8}-[0-9a-f]{8}"$`));

  const finish = `Smoked oak ${Math.random().toString(36).slice(2, 8)}`;
  const updated = await client.callTool({
    name: 'update_line',
    arguments: { projectId, itemId, ifMatch: before.etag, finish },
  });
  expect(updated.isError, JSON.stringify(updated.structuredContent)).toBeFalsy();
  const after = updated.structuredContent as { etag: string; version: number; finish: string };
  expect(after).toMatchObject({ finish, version: before.version + 1 });
  expect(after.etag).toMatch(new RegExp(`^"${before.version + 1}-[0-9a-f]{8}-[0-9a-f]{8}"$`));

  const confirm = await client.callTool({ name: 'get_line', arguments: { projectId, itemId } });
  expect(confirm.structuredContent).toMatchObject({ finish, etag: after.etag });

  // The etag from the first read is stale now: refused, and the line keeps the confirmed finish.
  const stale = await client.callTool({
    name: 'update_line',
    arguments: { projectId, itemId, ifMatch: before.etag, finish: 'Should not land' },
  });
  expect(stale.isError).toBe(true);
  expect(stale.structuredContent).toMatchObject({
    code: 'VERSION_CONFLICT',
    currentVersion: after.version,
    nextStep: expect.stringContaining('get_line'),
  });
  const missing = await client.callTool({
    name: 'update_line',
    arguments: { projectId, itemId, finish: 'Should not land' },
  });
  expect(missing.structuredContent).toMatchObject({ code: 'PRECONDITION_REQUIRED' });
  const unchanged = await client.callTool({ name: 'get_line', arguments: { projectId, itemId } });
  expect(unchanged.structuredContent).toMatchObject({ finish, version: after.version });
}
