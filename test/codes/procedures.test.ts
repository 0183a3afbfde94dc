/**
 * The codes domain (6 procedures) through the typed tRPC client, the resource API and MCP call_action: the studio's
 * code schemes (FF default, LT for sections titled with "Lighting", UP for "Upholstery" in the demo), which the line
 * allocator follows, suggest_next_code agreeing with what the next create gets, one default per studio mirrored in the
 * studio settings' code prefix, and migration 009 giving an existing studio its default scheme.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { trpc, type Trpc } from '../helpers/clients.js';
import { allPages, callAction, codeOf, errorOf } from '../helpers/calls.js';
import { anotherStudio, memberWithToken } from '../helpers/fixtures.js';
import { migrate } from '../../db/sqlite.js';
import { loadMigrations } from '../../db/migration-files.js';
import { ID_PATTERN } from '../../src/core/ids.js';
import { uuid } from '../helpers/ids.js';
import { postProject } from '../helpers/projects.js';
import { postItem } from '../helpers/schedule.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));

type Scheme = Awaited<ReturnType<Trpc['codes']['getCode']['query']>>;

async function schemes(): Promise<Record<string, Scheme>> {
  const list = await owner.codes.listCodes.query({});
  return Object.fromEntries(list.items.map((s) => [s.prefix, s]));
}

/** A project made through the resource API, with sections of the given titles (in order). */
async function newProject(...titles: string[]) {
  const body = await postProject(app, { name: `Codes ${uuid().slice(0, 8)}`, sections: titles });
  const section = Object.fromEntries(body.sections.map((s) => [s.title, s.id]));
  return { id: body.id, section };
}

/** A line created through POST /v1/projects/{projectId}/items, as a client of the resource API would. */
const postLine = (projectId: string, sectionId: string, heading = `Line ${uuid().slice(0, 6)}`) =>
  postItem(app, projectId, { sectionId, heading });

describe('the demo studio', () => {
  it('has FF (default), LT (Lighting) and UP (Upholstery), by prefix, the same over MCP', async () => {
    const list = await owner.codes.listCodes.query({});
    expect(list.items.map((s) => [s.prefix, s.name, s.keywords, s.isDefault])).toEqual([
      ['FF', 'Furniture & fittings', [], true],
      ['LT', 'Lighting', ['Lighting'], false],
      ['UP', 'Upholstery', ['Upholstery'], false],
    ]);
    expect(list.items[1]).toMatchObject({ example: 'LT-001', version: 1, archived_at: null });
    const viaMcp = await callAction(mcp, 'list_codes', {});
    expect(viaMcp.result.items.map((s: Scheme) => s.id)).toEqual(list.items.map((s) => s.id));
    const settings = await owner.studio.getStudioSettings.query({});
    expect(settings.codeFormat).toEqual({ prefix: 'FF', example: 'FF-001' });
  });

  it('keeps every seeded line on its FF code: no demo section names a scheme keyword', async () => {
    const lines = await allPages((cursor) =>
      owner.schedule.listScheduleLines.query({ projectId: app.projectId, limit: 10, cursor }),
    );
    expect(lines.map((l) => l.code).sort()).toEqual(
      Array.from({ length: lines.length }, (_, i) => `FF-${String(i + 1).padStart(3, '0')}`),
    );
    const project = await owner.projects.getStudioProject.query({ projectId: app.projectId });
    for (const s of project.sections) {
      const next = await owner.codes.suggestNextCode.query({ projectId: app.projectId, sectionId: s.id });
      expect(next, s.title).toMatchObject({ prefix: 'FF', matchedKeyword: null });
    }
  });
});

describe('line codes follow the schemes', () => {
  it('a line created in a section titled "Lighting" gets LT-001 through /v1; other sections keep FF', async () => {
    const lighting = await owner.sections.createScheduleSection.mutate({
      projectId: app.projectId,
      title: 'Lighting',
      commandKey: uuid(),
    });
    const lamp = await postLine(app.projectId, lighting.id, 'Brass wall light');
    expect(lamp.code).toBe('LT-001');
    expect((await postLine(app.projectId, lighting.id, 'Picture light')).code).toBe('LT-002');
    const project = await owner.projects.getStudioProject.query({ projectId: app.projectId });
    const living = project.sections.find((s) => s.title === 'Living Room')!;
    const seeded = project.sections.reduce((n, s) => n + s.lineCount, 0) - 2; // the two lights
    expect((await postLine(app.projectId, living.id, 'Footstool')).code).toBe(
      `FF-${String(seeded + 1).padStart(3, '0')}`,
    );
  });

  it('matches keywords anywhere in the title, ignoring case; the longest matching keyword wins', async () => {
    const p = await newProject('Garden LIGHTING', 'Upholstery & lighting', 'Hall', 'Lighting');
    expect((await postLine(p.id, p.section['Garden LIGHTING']!)).code).toBe('LT-001');
    // Both keywords are in the title: "Upholstery" is longer than "Lighting", so UP.
    expect((await postLine(p.id, p.section['Upholstery & lighting']!)).code).toBe('UP-001');
    expect((await postLine(p.id, p.section.Hall!)).code).toBe('FF-001');
    // Numbers count per prefix and per project.
    expect((await postLine(p.id, p.section.Lighting!)).code).toBe('LT-002');
    const suggested = await owner.codes.suggestNextCode.query({
      projectId: p.id,
      sectionId: p.section['Upholstery & lighting']!,
    });
    expect(suggested).toMatchObject({ code: 'UP-002', prefix: 'UP', matchedKeyword: 'Upholstery' });
    expect(suggested.reason).toMatch(/"Upholstery"/);
  });

  it('duplicates and copies take the scheme of the section they land in', async () => {
    const p = await newProject('Lighting', 'Hall');
    const lamp = await postLine(p.id, p.section.Lighting!);
    const dup = await owner.schedule.duplicateScheduleLine.mutate({
      projectId: p.id,
      lineId: lamp.id,
      commandKey: uuid(),
    });
    expect(dup.code).toBe('LT-002');
    const copied = await owner.schedule.copyScheduleLinesToProject.mutate({
      projectId: p.id,
      lineIds: [lamp.id],
      targetProjectId: p.id,
      targetSectionId: p.section.Hall!,
      commandKey: uuid(),
    });
    expect(copied.lines.map((l) => l.code)).toEqual(['FF-001']);
  });

  it('renumbering gives each line the prefix of its section, each prefix counting on its own', async () => {
    const p = await newProject('Hall', 'Lighting');
    const hall1 = await owner.schedule.createScheduleLine.mutate({
      commandKey: uuid(),
      projectId: p.id,
      sectionId: p.section.Hall!,
      heading: 'Hand-numbered lamp',
      code: 'FF-007',
    });
    const light = await postLine(p.id, p.section.Lighting!); // LT-001
    const moved = await owner.schedule.moveScheduleLine.mutate({
      projectId: p.id,
      lineId: hall1.id,
      sectionId: p.section.Lighting!,
      expectedVersion: 1,
    });
    expect(moved.code).toBe('FF-007'); // a move keeps the code
    const res = await owner.schedule.renumberScheduleLines.mutate({ projectId: p.id });
    expect(res.changes).toEqual([{ lineId: hall1.id, from: 'FF-007', to: 'LT-002' }]);
    expect(light.code).toBe('LT-001');
  });
});

describe('suggest_next_code', () => {
  it('answers what the next create then gets, without taking it', async () => {
    const p = await newProject('Lighting', 'Kitchen');
    await postLine(p.id, p.section.Lighting!);
    const at = { projectId: p.id, sectionId: p.section.Lighting! };
    const first = await owner.codes.suggestNextCode.query(at);
    expect(first).toMatchObject({ code: 'LT-002', prefix: 'LT', schemeName: 'Lighting', matchedKeyword: 'Lighting' });
    expect(await owner.codes.suggestNextCode.query(at)).toEqual(first); // nothing was reserved
    expect((await postLine(p.id, p.section.Lighting!)).code).toBe(first.code);

    const kitchen = await callAction(mcp, 'suggest_next_code', { projectId: p.id, sectionId: p.section.Kitchen! });
    expect(kitchen.result).toMatchObject({ code: 'FF-001', prefix: 'FF', matchedKeyword: null });
    expect((await postLine(p.id, p.section.Kitchen!)).code).toBe(kitchen.result.code);
  });

  it('with a codeId, gives that scheme’s next code, which create_line accepts as code', async () => {
    const p = await newProject('Living Room');
    const { UP } = await schemes();
    const next = await owner.codes.suggestNextCode.query({ projectId: p.id, codeId: UP!.id });
    expect(next).toMatchObject({ code: 'UP-001', codeId: UP!.id, matchedKeyword: null });
    const sofa = await owner.schedule.createScheduleLine.mutate({
      projectId: p.id,
      sectionId: p.section['Living Room']!,
      heading: 'Sofa',
      code: next.code,
      commandKey: uuid(),
    });
    expect(sofa.code).toBe('UP-001');
    expect((await owner.codes.suggestNextCode.query({ projectId: p.id, codeId: UP!.id })).code).toBe('UP-002');
  });

  it('needs exactly one of sectionId and codeId; refuses archived sections and foreign ids', async () => {
    const p = await newProject('Lighting', 'Spare');
    const { LT } = await schemes();
    const neither = await errorOf(owner.codes.suggestNextCode.query({ projectId: p.id }));
    expect(neither.data.serviceCode).toBe('VALIDATION_FAILED');
    expect(neither.message).toMatch(/exactly one of sectionId/);
    expect(
      await codeOf(
        owner.codes.suggestNextCode.query({ projectId: p.id, sectionId: p.section.Lighting!, codeId: LT!.id }),
      ),
    ).toBe('VALIDATION_FAILED');
    await owner.sections.archiveScheduleSection.mutate({
      projectId: p.id,
      sectionId: p.section.Spare!,
      expectedVersion: 1,
    });
    expect(await codeOf(owner.codes.suggestNextCode.query({ projectId: p.id, sectionId: p.section.Spare! }))).toBe(
      'ARCHIVED',
    );
    // A section of another project is not this project's.
    const other = await newProject('Lighting');
    expect(
      await codeOf(owner.codes.suggestNextCode.query({ projectId: p.id, sectionId: other.section.Lighting! })),
    ).toBe('NOT_FOUND');
  });
});

describe('create_code, get_code and list_codes', () => {
  it('creates once per commandKey, audits it, and new lines in matching sections take it', async () => {
    const commandKey = uuid();
    const input = { prefix: 'JN', name: 'Joinery', keywords: ['Joinery', 'Built-in'], commandKey };
    const first = await owner.codes.createCode.mutate(input);
    const again = await owner.codes.createCode.mutate(input);
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({ prefix: 'JN', keywords: ['Joinery', 'Built-in'], isDefault: false, version: 1 });
    expect(await owner.codes.getCode.query({ codeId: first.id })).toEqual(first);
    const events = await owner.audit.listStudioAuditEvents.query({ targetKind: 'code_scheme' });
    expect(events.items.filter((e) => e.target.id === first.id).map((e) => e.action)).toEqual(['create_code']);
    const p = await newProject('Built-in joinery');
    expect((await postLine(p.id, p.section['Built-in joinery']!)).code).toBe('JN-001');
  });

  it('refuses a prefix another active scheme holds, and a keyword given twice', async () => {
    const taken = await errorOf(owner.codes.createCode.mutate({ prefix: 'LT', name: 'Lamps', commandKey: uuid() }));
    expect(taken.data.serviceCode).toBe('VALIDATION_FAILED');
    expect(taken.message).toMatch(/LT is already used by the code scheme Lighting/);
    expect(
      await codeOf(
        owner.codes.createCode.mutate({
          prefix: 'KT',
          name: 'Kitchen',
          keywords: ['Kitchen', 'kitchen'],
          commandKey: uuid(),
        }),
      ),
    ).toBe('VALIDATION_FAILED');
    expect(await codeOf(owner.codes.createCode.mutate({ prefix: 'lt', name: 'Lower', commandKey: uuid() }))).toBe(
      'VALIDATION_FAILED',
    );
  });

  it('finds schemes by name, prefix or keyword, and pages in every sort', async () => {
    expect((await owner.codes.listCodes.query({ q: 'upholst' })).items.map((s) => s.prefix)).toEqual(['UP']);
    expect((await owner.codes.listCodes.query({ q: 'lt' })).items.map((s) => s.prefix)).toContain('LT');
    const all = await allPages((cursor) => owner.codes.listCodes.query({ limit: 1, sort: '-prefix', cursor }));
    const prefixes = all.map((s) => s.prefix);
    expect(prefixes).toEqual([...prefixes].sort().reverse());
    const byName = await allPages((cursor) => owner.codes.listCodes.query({ limit: 2, sort: 'name', cursor }));
    expect(byName.map((s) => s.name)).toEqual([...byName.map((s) => s.name)].sort());
  });

  it('needs reference:write: a viewer lists schemes and previews codes but cannot add one', async () => {
    const viewer = await memberWithToken(app.database, 'viewer', [{ projectId: app.projectId, level: 'view' }]);
    const asViewer = await app.mcp(viewer.token);
    expect((await callAction(asViewer, 'list_codes', {})).result.items.length).toBeGreaterThan(0);
    const project = await owner.projects.getStudioProject.query({ projectId: app.projectId });
    const preview = await callAction(asViewer, 'suggest_next_code', {
      projectId: app.projectId,
      sectionId: project.sections[0]!.id,
    });
    expect(preview.result.code).toMatch(/^FF-\d{3}$/);
    const refused = await callAction(asViewer, 'create_code', { prefix: 'NO', name: 'Nope', commandKey: uuid() });
    expect(refused.code).toBe('FORBIDDEN');
    const { LT } = await schemes();
    const api = trpc(app.url, viewer.token);
    expect(await codeOf(api.codes.updateCode.mutate({ codeId: LT!.id, expectedVersion: LT!.version, name: 'X' }))).toBe(
      'FORBIDDEN',
    );
  });
});

describe('update_code', () => {
  it('patches only what is sent, checks the version, and a patch that changes nothing leaves the version', async () => {
    const s = await owner.codes.createCode.mutate({ prefix: 'AC', name: 'Accessories', commandKey: uuid() });
    const updated = await owner.codes.updateCode.mutate({
      codeId: s.id,
      expectedVersion: 1,
      keywords: ['Accessories', 'Styling'],
    });
    expect(updated).toMatchObject({
      prefix: 'AC',
      name: 'Accessories',
      keywords: ['Accessories', 'Styling'],
      version: 2,
    });
    expect(await codeOf(owner.codes.updateCode.mutate({ codeId: s.id, expectedVersion: 1, name: 'Late' }))).toBe(
      'VERSION_CONFLICT',
    );
    expect(await codeOf(owner.codes.updateCode.mutate({ codeId: s.id, name: 'No version' }))).toBe(
      'PRECONDITION_REQUIRED',
    );
    const same = await owner.codes.updateCode.mutate({ codeId: s.id, expectedVersion: 2, name: 'Accessories' });
    expect(same.version).toBe(2);
    const history = await owner.audit.listStudioAuditEvents.query({ targetKind: 'code_scheme' });
    const mine = history.items.filter((e) => e.target.id === s.id);
    expect(mine.map((e) => e.action).sort()).toEqual(['create_code', 'update_code']);
    expect(mine.find((e) => e.action === 'update_code')!.changes).toMatchObject({
      keywords: { from: [], to: ['Accessories', 'Styling'] },
    });
  });

  it('a new prefix applies to new lines; existing lines keep their codes', async () => {
    const s = await owner.codes.createCode.mutate({
      prefix: 'CU',
      name: 'Curtains',
      keywords: ['Curtains'],
      commandKey: uuid(),
    });
    const p = await newProject('Curtains');
    const before = await postLine(p.id, p.section.Curtains!);
    expect(before.code).toBe('CU-001');
    await owner.codes.updateCode.mutate({ codeId: s.id, expectedVersion: 1, prefix: 'WT' });
    expect((await postLine(p.id, p.section.Curtains!)).code).toBe('WT-001');
    const kept = await owner.schedule.getScheduleLine.query({ projectId: p.id, lineId: before.id });
    expect(kept).toMatchObject({ code: 'CU-001', version: 1 });
    expect(await codeOf(owner.codes.updateCode.mutate({ codeId: s.id, expectedVersion: 2, prefix: 'UP' }))).toBe(
      'VALIDATION_FAILED',
    );
  });

  it('moves the default: the old one stops being it, the studio settings follow, and new lines take it', async () => {
    const { FF, UP } = await schemes();
    const studioBefore = await owner.studio.getStudioSettings.query({});
    const refused = await errorOf(
      owner.codes.updateCode.mutate({ codeId: FF!.id, expectedVersion: FF!.version, isDefault: false }),
    );
    expect(refused.data.serviceCode).toBe('VALIDATION_FAILED');
    expect(refused.message).toMatch(/make another scheme the default/);

    const up = await owner.codes.updateCode.mutate({ codeId: UP!.id, expectedVersion: UP!.version, isDefault: true });
    expect(up.isDefault).toBe(true);
    const after = await schemes();
    expect(after.FF).toMatchObject({ isDefault: false, version: FF!.version + 1 });
    const settings = await owner.studio.getStudioSettings.query({});
    expect(settings.codeFormat).toEqual({ prefix: 'UP', example: 'UP-001' });
    expect(settings.version).toBe(studioBefore.version + 1);
    const p = await newProject('Hall');
    expect((await postLine(p.id, p.section.Hall!)).code).toBe('UP-001');

    // And back, through update_studio_settings' side this time: FF becomes the default again with update_code, then
    // the settings' prefix renames whichever scheme is the default.
    await owner.codes.updateCode.mutate({ codeId: FF!.id, expectedVersion: FF!.version + 1, isDefault: true });
    expect((await owner.studio.getStudioSettings.query({})).codeFormat.prefix).toBe('FF');
    expect((await schemes()).UP!.isDefault).toBe(false);
  });

  it('update_studio_settings codeFormat renames the default scheme, and refuses a prefix another scheme holds', async () => {
    const settings = await owner.studio.getStudioSettings.query({});
    expect(
      await codeOf(
        owner.studio.updateStudioSettings.mutate({ codeFormat: { prefix: 'LT' }, expectedVersion: settings.version }),
      ),
    ).toBe('VALIDATION_FAILED');
    const { FF } = await schemes();
    const renamed = await owner.studio.updateStudioSettings.mutate({
      codeFormat: { prefix: 'HR' },
      expectedVersion: settings.version,
    });
    expect(renamed.codeFormat.prefix).toBe('HR');
    const hr = await owner.codes.getCode.query({ codeId: FF!.id });
    expect(hr).toMatchObject({ prefix: 'HR', isDefault: true, version: FF!.version + 1 });
    const back = await owner.codes.updateCode.mutate({ codeId: hr.id, expectedVersion: hr.version, prefix: 'FF' });
    expect(back.prefix).toBe('FF');
    expect((await owner.studio.getStudioSettings.query({})).codeFormat).toEqual({ prefix: 'FF', example: 'FF-001' });
  });
});

describe('archive_code', () => {
  it('refuses the default with a sentence that says what to do', async () => {
    const { FF } = await schemes();
    const refused = await errorOf(owner.codes.archiveCode.mutate({ codeId: FF!.id, expectedVersion: FF!.version }));
    expect(refused.data.serviceCode).toBe('VALIDATION_FAILED');
    expect(refused.message).toMatch(/default code scheme.*make another scheme the default first/);
    expect((await owner.codes.getCode.query({ codeId: FF!.id })).archived_at).toBeNull();
  });

  it('archives a scheme: lines keep its codes, its sections fall back to the default, its prefix is free again', async () => {
    const s = await owner.codes.createCode.mutate({
      prefix: 'OD',
      name: 'Outdoor',
      keywords: ['Terrace'],
      commandKey: uuid(),
    });
    const p = await newProject('Terrace');
    const chair = await postLine(p.id, p.section.Terrace!);
    expect(chair.code).toBe('OD-001');
    const archived = await owner.codes.archiveCode.mutate({ codeId: s.id, expectedVersion: 1 });
    expect(archived.archived_at).not.toBeNull();
    expect(archived.version).toBe(2);
    expect(await codeOf(owner.codes.archiveCode.mutate({ codeId: s.id, expectedVersion: 2 }))).toBe('ALREADY_ARCHIVED');
    expect(await codeOf(owner.codes.updateCode.mutate({ codeId: s.id, expectedVersion: 2, name: 'X' }))).toBe(
      'ARCHIVED',
    );
    expect(await codeOf(owner.codes.suggestNextCode.query({ projectId: p.id, codeId: s.id }))).toBe('ARCHIVED');
    expect((await postLine(p.id, p.section.Terrace!)).code).toBe('FF-001');
    expect((await owner.schedule.getScheduleLine.query({ projectId: p.id, lineId: chair.id })).code).toBe('OD-001');
    expect((await owner.codes.listCodes.query({ archived: 'only', q: 'Outdoor' })).items.map((x) => x.id)).toEqual([
      s.id,
    ]);
    expect((await owner.codes.listCodes.query({})).items.map((x) => x.prefix)).not.toContain('OD');
    // The prefix is free again; a new scheme with it continues the project's numbers.
    await owner.codes.createCode.mutate({ prefix: 'OD', name: 'Garden', keywords: ['Terrace'], commandKey: uuid() });
    expect((await postLine(p.id, p.section.Terrace!)).code).toBe('OD-002');
  });
});

// Last: it adds a second studio to the database, which the tests above do not expect.
describe('another studio', () => {
  it('its code schemes are NOT_FOUND here, and it got its own default scheme', async () => {
    const { studioId } = await anotherStudio(app, 'codes');
    const theirs = await app.rt.store.db
      .selectFrom('code_schemes')
      .selectAll()
      .where('studio_id', '=', studioId)
      .execute();
    expect(theirs.map((s) => [s.prefix, s.name, s.is_default])).toEqual([['EL', 'Default', 1]]);
    const id = theirs[0]!.id;
    expect(await codeOf(owner.codes.getCode.query({ codeId: id }))).toBe('NOT_FOUND');
    expect(await codeOf(owner.codes.updateCode.mutate({ codeId: id, expectedVersion: 1, name: 'Mine' }))).toBe(
      'NOT_FOUND',
    );
    expect(await codeOf(owner.codes.archiveCode.mutate({ codeId: id, expectedVersion: 1 }))).toBe('NOT_FOUND');
    expect(await codeOf(owner.codes.suggestNextCode.query({ projectId: app.projectId, codeId: id }))).toBe('NOT_FOUND');
    expect((await owner.codes.listCodes.query({ q: 'EL' })).items.map((s) => s.prefix)).not.toContain('EL');
  });
});

describe('migration 009', () => {
  it('gives each existing studio a default scheme from its code_prefix, and leaves line codes alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'codes-migration-'));
    const db = new Sqlite(join(dir, 'old.sqlite'));
    try {
      db.exec(
        'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
      );
      for (const m of await loadMigrations(8)) {
        for (const s of m.statements) db.exec(s);
        db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, 'then');
      }
      const studio = db.prepare(
        `INSERT INTO studios (id, name, currency, default_markup4, default_unit_id, code_prefix, created_at, updated_at, version)
         VALUES (?, ?, 'GBP', '3500', NULL, ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 1)`,
      );
      studio.run('a'.repeat(26), 'Old One', 'FF');
      studio.run('b'.repeat(26), 'Old Two', 'HC');
      expect(await migrate(db)).toContain(9);
      const rows = db.prepare('SELECT * FROM code_schemes ORDER BY studio_id').all() as Array<
        Record<string, string | number | null>
      >;
      expect(rows.map((r) => [r.studio_id, r.prefix, r.name, r.keywords, r.is_default, r.version])).toEqual([
        ['a'.repeat(26), 'FF', 'Furniture & fittings', '[]', 1, 1],
        ['b'.repeat(26), 'HC', 'Default', '[]', 1, 1],
      ]);
      for (const r of rows) expect(r.id).toMatch(ID_PATTERN);
      expect(rows[0]!.id).not.toBe(rows[1]!.id);
      expect(rows[0]!.created_at).toBe('2026-01-01T00:00:00.000Z');
      // One default per studio and unique active prefixes hold in the database too.
      expect(() =>
        db
          .prepare(
            `INSERT INTO code_schemes (id, studio_id, prefix, name, is_default, created_at, updated_at) VALUES (?, ?, 'LT', 'x', 1, 'now', 'now')`,
          )
          .run('c'.repeat(26), 'a'.repeat(26)),
      ).toThrow(/UNIQUE/);
      expect(() =>
        db
          .prepare(
            `INSERT INTO code_schemes (id, studio_id, prefix, name, created_at, updated_at) VALUES (?, ?, 'FF', 'x', 'now', 'now')`,
          )
          .run('d'.repeat(26), 'a'.repeat(26)),
      ).toThrow(/UNIQUE/);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
