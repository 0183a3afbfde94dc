/**
 * What a domain declares for the whole server besides its actions, its audit target kinds and its jobs, is declared by
 * loading the catalog alone, as `studio serve` and `studio mcp` do: a declaration in a module no action reaches would be
 * missing from the published enumeration of audit kinds, or leave a worker unable to run an operation another process
 * started (it would fail it). And no operation is started for a job nothing defines.
 *
 * Every module is imported inside the tests, the catalog first and alone: a test file has a module graph of its own.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ActionContext } from '../../src/core/context.js';
import { ROOT } from '../helpers/server.js';

const modulesUnder = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name))
    .sort();

const declared = async () => {
  const { declaredAuditKinds } = await import('../../src/core/audit-kinds.js');
  const { definedJobKinds } = await import('../../src/jobs/job.js');
  return { auditKinds: declaredAuditKinds(), jobs: definedJobKinds() };
};

describe('what the domains declare', () => {
  it('is all declared once the catalog is loaded: no module outside its reach adds an audit kind or a job', async () => {
    await import('../../actions/index.js');
    const fromCatalog = await declared();
    expect(fromCatalog.auditKinds).toContain('line');
    expect(fromCatalog.jobs).toContain('import_commit');
    for (const file of [...modulesUnder('src/domain'), ...modulesUnder('src/jobs')]) {
      await import(pathToFileURL(file).href);
    }
    expect(await declared()).toEqual(fromCatalog);
  });

  it('publishes every declared audit kind, sorted, as the filter and the event read', async () => {
    const { ACTIONS_BY_NAME } = await import('../../actions/index.js');
    const { toJsonSchema } = await import('../../src/contract/json-schema.js');
    const { auditKinds } = await declared();
    const list = ACTIONS_BY_NAME.get('list_studio_audit_events')!;
    const input = toJsonSchema(list.publishedInput, 'input').schema as {
      properties: { targetKind: { enum: string[] } };
    };
    expect(input.properties.targetKind.enum).toEqual(auditKinds);
    expect(auditKinds).toEqual([...auditKinds].sort());
    const event = { id: 'e', seq: 1, projectId: null, action: 'a', at: '2026-01-01T00:00:00.000Z', summary: '' };
    const { AuditEvent } = await import('../../actions/audit/records.js');
    const read = (kind: string | null) =>
      AuditEvent.safeParse({
        ...event,
        actor: { kind: 'system', id: null, name: null, via: null },
        target: { kind, id: null },
        changes: null,
      }).success;
    expect(auditKinds.map(read)).toEqual(auditKinds.map(() => true));
    expect(read('not_a_kind')).toBe(false);
  });

  it('refuses to start an operation of a kind no job defines', async () => {
    const { startOperation } = await import('../../src/jobs/operations.js');
    const ctx = { caller: { memberId: 'm' }, studioId: 's' } as unknown as ActionContext;
    await expect(
      startOperation(ctx, { kind: 'no_such_job', action: 'a', scope: 'projects:write', input: {} }),
    ).rejects.toThrow('No job is defined for operation kind no_such_job');
  });
});
