/**
 * set_custom_property_on_lines (issue 26, item 6): one custom property set to one value on several lines in one call,
 * all or nothing, through tRPC and MCP call_action: every version checked before anything is written, each changed
 * line a version further with its own audit event, unchanged lines left as they were.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import type { Trpc } from '../helpers/clients.js';
import { callAction, codeOf } from '../helpers/calls.js';
import { uuid } from '../helpers/ids.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let projectId: string;
let lines: Array<{ id: string; version: number }>;
let propertyId: string;

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  projectId = app.projectId;
  const sectionId = (await owner.projects.getStudioProject.query({ projectId })).sections[0]!.id;
  lines = [];
  for (const heading of ['Rated sofa', 'Rated chair', 'Rated ottoman', 'Rated stool'])
    lines.push(await owner.schedule.createScheduleLine.mutate({ commandKey: uuid(), projectId, sectionId, heading }));
  const property = await owner.properties.createCustomProperty.mutate({
    projectId,
    commandKey: uuid(),
    name: 'Fire rating (many)',
    kind: 'text',
  });
  propertyId = property.id;
});

const now = (id: string) => owner.schedule.getScheduleLine.query({ projectId, lineId: id });
const valueOn = (line: { properties: Array<{ propertyId: string; value: unknown }> }) =>
  line.properties.find((p) => p.propertyId === propertyId)?.value ?? null;
const sent = (ls: Array<{ id: string; version: number }>) =>
  ls.map((l) => ({ lineId: l.id, expectedVersion: l.version }));

describe('set_custom_property_on_lines', () => {
  it('sets the value on three lines at once, each a version further with an audit event of its own', async () => {
    const three = lines.slice(0, 3);
    const res = await owner.properties.setCustomPropertyOnLines.mutate({
      projectId,
      propertyId,
      value: 'Crib 5',
      lines: sent(three),
    });
    expect(res.lines.map((l) => l.id)).toEqual(three.map((l) => l.id));
    for (const [i, l] of res.lines.entries()) {
      expect(l.version).toBe(three[i]!.version + 1);
      expect(valueOn(l)).toBe('Crib 5');
      expect(valueOn(await now(l.id))).toBe('Crib 5');
      const events = await owner.audit.listLineAuditEvents.query({ projectId, lineId: l.id });
      expect(events.items[0]!.changes).toEqual({ 'property:Fire rating (many)': { from: null, to: 'Crib 5' } });
    }
    expect(valueOn(await now(lines[3]!.id))).toBeNull();
    lines.splice(0, 3, ...res.lines);
  });

  it('refuses a stale version on any line, naming it, and writes nothing on the others', async () => {
    const [a, b, , d] = lines as [(typeof lines)[0], (typeof lines)[0], (typeof lines)[0], (typeof lines)[0]];
    const stale = { ...a, version: a.version - 1 };
    const failure = owner.properties.setCustomPropertyOnLines.mutate({
      projectId,
      propertyId,
      value: 'Crib 7',
      lines: sent([d, stale, b]),
    });
    expect(await codeOf(failure)).toBe('VERSION_CONFLICT');
    for (const l of [a, b]) expect(valueOn(await now(l.id))).toBe('Crib 5');
    expect(valueOn(await now(d.id))).toBeNull();
    expect((await now(d.id)).version).toBe(d.version);
  });

  it('refuses a line named twice and an archived line, writing nothing', async () => {
    const [a, , , d] = lines;
    expect(
      await codeOf(
        owner.properties.setCustomPropertyOnLines.mutate({ projectId, propertyId, value: 'x', lines: sent([a!, a!]) }),
      ),
    ).toBe('VALIDATION_FAILED');
    const archived = await owner.schedule.archiveScheduleLine.mutate({
      projectId,
      lineId: d!.id,
      expectedVersion: d!.version,
    });
    expect(
      await codeOf(
        owner.properties.setCustomPropertyOnLines.mutate({
          projectId,
          propertyId,
          value: 'Crib 9',
          lines: sent([a!, archived]),
        }),
      ),
    ).toBe('ARCHIVED');
    expect(valueOn(await now(a!.id))).toBe('Crib 5');
  });

  it('clears through MCP call_action; a line that already holds the value stays at its version', async () => {
    const [a, b] = lines;
    const cleared = await callAction(mcp, 'set_custom_property_on_lines', {
      projectId,
      propertyId,
      value: null,
      lines: sent([a!]),
    });
    expect(cleared.error).toBeUndefined();
    expect(valueOn(cleared.result.lines[0])).toBeNull();
    const same = await owner.properties.setCustomPropertyOnLines.mutate({
      projectId,
      propertyId,
      value: 'Crib 5',
      lines: sent([b!]),
    });
    expect(same.lines[0]!.version).toBe(b!.version);
  });
});
