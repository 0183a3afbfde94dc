/**
 * create_project with clientName but no clientId records a plain label and says so in a `note` an agent reads (over
 * tRPC, MCP and /v1); with clientId there is no note; the note does not change the project's ETag.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { etagOf } from '../../src/core/etag.js';
import { callTool } from '../helpers/calls.js';
import type { Trpc } from '../helpers/clients.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));

describe('create_project with a clientName alone', () => {
  it('tRPC: a plain label, no client record, and a note saying how to link one', async () => {
    const before = (await owner.clients.listClients.query({})).items.length;
    const created = await owner.projects.createStudioProject.mutate({
      name: 'Label House',
      clientName: 'Ana Ruiz',
      commandKey: crypto.randomUUID(),
    });
    expect(created.clientName).toBe('Ana Ruiz');
    expect(created.clientId ?? null).toBeNull();
    expect(created.note).toContain('plain label');
    expect(created.note).toContain('clientId');
    expect((await owner.clients.listClients.query({})).items.length).toBe(before);
    const client = await owner.clients.createClient.mutate({ name: 'Ben Ode', commandKey: crypto.randomUUID() });
    const linked = await owner.projects.createStudioProject.mutate({
      name: 'Linked House',
      clientId: client.id,
      commandKey: crypto.randomUUID(),
    });
    expect(linked).not.toHaveProperty('note');
  });

  it('MCP and /v1: the note is in the answer, and the etag is the one get_project’s version check takes', async () => {
    const viaMcp = await callTool(mcp, 'call_action', {
      name: 'create_project',
      arguments: { name: 'Mcp House', clientName: 'Cleo Park', idempotencyKey: crypto.randomUUID() },
    });
    const project = viaMcp.result.result;
    expect(project.note).toContain('no client record');
    // The tag is the project's as a version check computes it from a read, the note left out.
    const read = await owner.projects.getStudioProject.query({ projectId: project.id });
    expect(project.etag).toBe(etagOf(read));

    const res = await fetch(`${app.url}/v1/projects`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${app.token}`,
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      body: JSON.stringify({ name: 'Rest House', clientName: 'Dee Ho' }),
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { note?: string }).note).toContain('plain label');
  });
});
