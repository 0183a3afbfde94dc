/**
 * The charges domain (6 procedures) through the typed tRPC client and through MCP call_action as an agent reaches it:
 * what the studio bills besides goods, in exact money (net, tax and gross each rounded once to the currency's minor
 * unit), versioned, archived never deleted, audited, and frozen once invoiced.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createStudioWithOwner } from '../../src/domain/studio/onboarding.js';
import { newId } from '../../src/core/ids.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { trpc, type Trpc } from '../helpers/clients.js';
import { allPages, callAction, codeOf, refusal } from '../helpers/calls.js';
import { demoMembers, type Member } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';
import { createProject } from '../helpers/projects.js';
import { createCharge, fee, markInvoiced } from './fixture.js';
import { gbp } from '../helpers/money.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let projectId: string;
openTestAppWithMcp((opened) => {
  ({ app, owner, mcp } = opened);
  projectId = app.projectId;
});

/** The studio's tax rate, set once for the file so charges made without one take 20 %. */
beforeAll(async () => {
  const settings = await owner.studio.getStudioSettings.query({});
  await owner.studio.updateStudioSettings.mutate({ taxRate: { ratio4: '2000' }, expectedVersion: settings.version });
});

/** Every field of a charge withheld without pricing:read. */
const PRICED = ['fixedAmount', 'hourlyRate', 'cost', 'handlingMarkup', 'net', 'tax', 'gross'];

describe('list_charge_types', () => {
  it('names the five types with the figures each takes, the same over MCP', async () => {
    const types = await owner.charges.listChargeTypes.query({});
    expect(types.items.map((t) => [t.type, t.basis, t.takes])).toEqual([
      ['design_fee', 'fixed', ['fixedAmount']],
      ['time', 'hourly', ['hours', 'hourlyRate']],
      ['reimbursable', 'cost', ['cost', 'handlingMarkup']],
      ['disbursement', 'cost', ['cost', 'handlingMarkup']],
      ['freight', 'cost', ['cost', 'handlingMarkup']],
    ]);
    for (const t of types.items) expect(t.description).toMatch(new RegExp(t.takes[0]!));
    expect((await callAction(mcp, 'list_charge_types', {})).result).toEqual(types);
  });
});

describe('create_project_charge: exact money', () => {
  it('bills 7.5 hours at 95.0000 with the studio’s 20 % tax: 712.50 + 142.50 = 855.00', async () => {
    const c = await createCharge(owner, {
      projectId,
      type: 'time',
      description: 'Site visits, November',
      date: '2026-11-12',
      hours: { amount4: '75000' },
      hourlyRate: { amount4: '950000' },
    });
    expect(c).toMatchObject({
      projectId,
      type: 'time',
      date: '2026-11-12',
      hours: { amount4: '75000' },
      hourlyRate: gbp('950000'),
      fixedAmount: null,
      cost: null,
      handlingMarkup: null,
      taxRate: { ratio4: '2000' },
      currency: 'GBP',
      net: gbp('7125000'),
      tax: gbp('1425000'),
      gross: gbp('8550000'),
      invoicedAt: null,
      invoiceReference: null,
      version: 1,
      archived_at: null,
    });
  });

  it('marks up a reimbursable by 12.5 % and rounds net and tax once each: 33.33 → 37.50 + 7.50', async () => {
    const c = await createCharge(owner, {
      projectId,
      type: 'reimbursable',
      description: 'Fabric samples',
      cost: { amount4: '333300' },
      handlingMarkup: { ratio4: '1250' },
    });
    // 33.33 × 1.125 = 37.49625 → 37.50; 20 % of 37.50 = 7.50.
    expect([c.net, c.tax, c.gross]).toEqual([gbp('375000'), gbp('75000'), gbp('450000')]);
    const plain = await createCharge(owner, {
      projectId,
      type: 'disbursement',
      description: 'Planning application fee',
      cost: { amount4: '199900' },
      taxRate: { ratio4: '0' },
    });
    expect([plain.net, plain.tax, plain.gross]).toEqual([gbp('199900'), gbp('0'), gbp('199900')]);
  });

  it('rounds a fee with digits below the penny, and a tax that lands on half a penny, half away from zero', async () => {
    // 1,234.5678 → 1,234.57; 20 % = 246.914 → 246.91.
    const a = await createCharge(owner, fee(projectId, '12345678'));
    expect([a.net, a.tax, a.gross]).toEqual([gbp('12345700'), gbp('2469100'), gbp('14814800')]);
    // 0.25 at 10 % = 0.025 → 0.03.
    const b = await createCharge(owner, fee(projectId, '2500', { taxRate: { ratio4: '1000' } }));
    expect([b.net, b.tax, b.gross]).toEqual([gbp('2500'), gbp('300'), gbp('2800')]);
  });

  it('takes its project’s currency and rounds to its minor unit: yen have none', async () => {
    const yen = await createProject(owner, { name: 'Tokyo flat', currency: 'JPY' });
    // 1.5 h × ¥3,333 = ¥4,999.5 → ¥5,000; 10 % tax = ¥500.
    const c = await createCharge(owner, {
      projectId: yen.id,
      type: 'time',
      description: 'Remote consultation',
      hours: { amount4: '15000' },
      hourlyRate: { amount4: '33330000' },
      taxRate: { ratio4: '1000' },
    });
    expect(c.currency).toBe('JPY');
    expect([c.net, c.tax, c.gross]).toEqual([
      { amount4: '50000000', currency: 'JPY' },
      { amount4: '5000000', currency: 'JPY' },
      { amount4: '55000000', currency: 'JPY' },
    ]);
    // The project's currency may still change while no line has a price; its charge keeps its yen, summed apart.
    const project = await owner.projects.getStudioProject.query({ projectId: yen.id });
    await owner.projects.updateProjectDetails.mutate({
      projectId: yen.id,
      expectedVersion: project.version,
      currency: 'GBP',
    });
    expect((await owner.charges.getProjectCharge.query({ projectId: yen.id, chargeId: c.id })).currency).toBe('JPY');
    const totals = await owner.projects.getProjectTotals.query({ projectId: yen.id });
    expect(totals.charges).toMatchObject({ count: 0, net: gbp('0'), otherCurrencyCount: 1 });
  });

  it('is made over MCP as an agent makes it, with the same exact money', async () => {
    // 48.00 freight with 10 % handling = 52.80; 20 % tax = 10.56.
    const made = await callAction(mcp, 'create_project_charge', {
      projectId,
      type: 'freight',
      description: 'Courier for the dining chairs',
      date: '2026-11-03',
      cost: { amount4: '480000' },
      handlingMarkup: { ratio4: '1000' },
      commandKey: uuid(),
    });
    expect(made.result).toMatchObject({
      type: 'freight',
      cost: gbp('480000'),
      handlingMarkup: { ratio4: '1000' },
      net: gbp('528000'),
      tax: gbp('105600'),
      gross: gbp('633600'),
    });
    const read = await owner.charges.getProjectCharge.query({ projectId, chargeId: made.result.id });
    expect(read).toEqual(made.result);
  });

  it('dates a charge today and takes the studio’s tax rate when none is sent', async () => {
    const c = await createCharge(owner, fee(projectId, '10000000'));
    expect(c.date).toBe(new Date().toISOString().slice(0, 10));
    expect(c.taxRate).toEqual({ ratio4: '2000' });
  });

  it('creates once per commandKey and audits it against its project', async () => {
    const commandKey = uuid();
    const input = { ...fee(projectId, '5000000', { description: 'Keyed fee' }), commandKey };
    const first = await owner.charges.createProjectCharge.mutate(input);
    const again = await owner.charges.createProjectCharge.mutate(input);
    expect(again.id).toBe(first.id);
    const events = await owner.audit.listStudioAuditEvents.query({ targetKind: 'project_charge' });
    expect(events.items.filter((e) => e.target.id === first.id).map((e) => e.action)).toEqual([
      'create_project_charge',
    ]);
  });

  it('refuses figures that do not fit the type, naming each field, and makes nothing', async () => {
    const before = await owner.charges.listProjectCharges.query({ projectId, archived: 'include' });
    const r = await refusal(
      createCharge(owner, {
        projectId,
        type: 'time',
        description: 'Hours without a rate',
        hours: { amount4: '10000' },
        fixedAmount: { amount4: '10000' },
      }),
    );
    expect(r).toEqual({ code: 'VALIDATION_FAILED', status: 400 });
    const viaMcp = await callAction(mcp, 'create_project_charge', {
      projectId,
      type: 'design_fee',
      description: 'A fee with hours',
      hours: { amount4: '10000' },
      commandKey: uuid(),
    });
    expect(viaMcp.code).toBe('VALIDATION_FAILED');
    expect(viaMcp.error!.errors.map((e: { path: string }) => e.path).sort()).toEqual(['fixedAmount', 'hours']);
    expect(viaMcp.error!.message).toMatch(/^A design_fee charge takes fixedAmount: send fixedAmount; clear hours/);
    const after = await owner.charges.listProjectCharges.query({ projectId, archived: 'include' });
    expect(after.items.length).toBe(before.items.length);
  });

  it('refuses an impossible date and a tax rate over 100 %', async () => {
    expect(await codeOf(createCharge(owner, fee(projectId, '10000', { date: '2026-02-30' })))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await codeOf(createCharge(owner, fee(projectId, '10000', { taxRate: { ratio4: '10001' } })))).toBe(
      'VALIDATION_FAILED',
    );
  });
});

describe('list_project_charges and get_project_charge', () => {
  let listed: string;
  beforeAll(async () => {
    listed = (await createProject(owner, { name: 'Charges to list' })).id;
    const make = (type: 'design_fee' | 'time' | 'freight', date: string) =>
      createCharge(owner, {
        projectId: listed,
        type,
        description: `${type} on ${date}`,
        date,
        ...(type === 'design_fee' ? { fixedAmount: { amount4: '1000000' } } : {}),
        ...(type === 'time' ? { hours: { amount4: '10000' }, hourlyRate: { amount4: '800000' } } : {}),
        ...(type === 'freight' ? { cost: { amount4: '450000' } } : {}),
      });
    await make('design_fee', '2026-10-01');
    await make('time', '2026-10-15');
    await make('time', '2026-11-02');
    await make('freight', '2026-11-20');
    const invoiced = await make('design_fee', '2026-09-30');
    await markInvoiced(app.database, invoiced.id);
    const withdrawn = await make('freight', '2026-10-20');
    await owner.charges.archiveProjectCharge.mutate({ projectId: listed, chargeId: withdrawn.id, expectedVersion: 1 });
  });
  const dates = (r: { items: Array<{ date: string }> }) => r.items.map((c) => c.date);

  it('lists by date, leaving archived charges out unless asked', async () => {
    const all = await owner.charges.listProjectCharges.query({ projectId: listed });
    expect(dates(all)).toEqual(['2026-09-30', '2026-10-01', '2026-10-15', '2026-11-02', '2026-11-20']);
    const only = await owner.charges.listProjectCharges.query({ projectId: listed, archived: 'only' });
    expect(dates(only)).toEqual(['2026-10-20']);
  });

  it('filters by type, by invoiced and by a date range, and pages in either direction', async () => {
    const q = (input: Record<string, unknown>) =>
      owner.charges.listProjectCharges.query({ projectId: listed, ...input });
    expect(dates(await q({ type: 'time' }))).toEqual(['2026-10-15', '2026-11-02']);
    expect(dates(await q({ invoiced: true }))).toEqual(['2026-09-30']);
    expect((await q({ invoiced: true })).items[0]).toMatchObject({ invoiceReference: 'INV-0042' });
    expect(dates(await q({ invoiced: false })).length).toBe(4);
    expect(dates(await q({ dateFrom: '2026-10-01', dateTo: '2026-11-02' }))).toEqual([
      '2026-10-01',
      '2026-10-15',
      '2026-11-02',
    ]);
    const paged = await allPages((cursor) =>
      owner.charges.listProjectCharges.query({ projectId: listed, sort: '-date', limit: 2, cursor }),
    );
    expect(paged.map((c) => c.date)).toEqual(['2026-11-20', '2026-11-02', '2026-10-15', '2026-10-01', '2026-09-30']);
    const viaMcp = await callAction(mcp, 'list_project_charges', { projectId: listed, type: 'freight' });
    expect(viaMcp.result.items.map((c: { date: string }) => c.date)).toEqual(['2026-11-20']);
  });

  it('shows in the project totals: the active charges, invoiced or not, summed as an invoice sums its lines', async () => {
    const totals = await owner.projects.getProjectTotals.query({ projectId: listed });
    // 100 + 80 + 80 + 45 + 100 (invoiced); the archived freight is not billed.
    expect(totals.charges).toEqual({
      count: 5,
      net: gbp('4050000'),
      tax: gbp('810000'),
      gross: gbp('4860000'),
      otherCurrencyCount: 0,
    });
  });

  it('reads one charge, over MCP too; one of another project is NOT_FOUND', async () => {
    const [first] = (await owner.charges.listProjectCharges.query({ projectId: listed })).items;
    const read = await owner.charges.getProjectCharge.query({ projectId: listed, chargeId: first!.id });
    expect(read).toEqual(first);
    expect((await callAction(mcp, 'get_project_charge', { projectId: listed, chargeId: first!.id })).result).toEqual(
      first,
    );
    expect(await codeOf(owner.charges.getProjectCharge.query({ projectId, chargeId: first!.id }))).toBe('NOT_FOUND');
  });
});

describe('update_project_charge', () => {
  it('patches only what is sent, works the money out again, checks the version and audits the change', async () => {
    const c = await createCharge(owner, {
      projectId,
      type: 'time',
      description: 'Design development',
      hours: { amount4: '40000' },
      hourlyRate: { amount4: '850000' },
    });
    const updated = await owner.charges.updateProjectCharge.mutate({
      projectId,
      chargeId: c.id,
      expectedVersion: 1,
      hours: { amount4: '55000' },
    });
    // 5.5 × 85 = 467.50; 20 % = 93.50.
    expect(updated).toMatchObject({ version: 2, description: 'Design development', net: gbp('4675000') });
    expect(updated.tax).toEqual(gbp('935000'));
    expect(
      await codeOf(
        owner.charges.updateProjectCharge.mutate({ projectId, chargeId: c.id, expectedVersion: 1, description: 'x' }),
      ),
    ).toBe('VERSION_CONFLICT');
    expect(
      await codeOf(owner.charges.updateProjectCharge.mutate({ projectId, chargeId: c.id, description: 'x' })),
    ).toBe('PRECONDITION_REQUIRED');
    const history = await owner.audit.listStudioAuditEvents.query({ targetKind: 'project_charge' });
    const change = history.items.find((e) => e.target.id === c.id && e.action === 'update_project_charge');
    expect(change!.changes).toMatchObject({ hours: { from: { amount4: '40000' }, to: { amount4: '55000' } } });
  });

  it('changes type when the figures change with it, over MCP', async () => {
    const c = await createCharge(owner, {
      projectId,
      type: 'time',
      description: 'Styling day',
      hours: { amount4: '80000' },
      hourlyRate: { amount4: '600000' },
    });
    const half = await callAction(mcp, 'update_project_charge', {
      projectId,
      chargeId: c.id,
      expectedVersion: 1,
      type: 'design_fee',
    });
    expect(half.code).toBe('VALIDATION_FAILED');
    expect(half.error!.message).toMatch(/send fixedAmount; clear hours and hourlyRate with null/);
    const whole = await callAction(mcp, 'update_project_charge', {
      projectId,
      chargeId: c.id,
      expectedVersion: 1,
      type: 'design_fee',
      fixedAmount: { amount4: '4500000' },
      hours: null,
      hourlyRate: null,
    });
    expect(whole.result).toMatchObject({ type: 'design_fee', hours: null, hourlyRate: null, net: gbp('4500000') });
  });
});

describe('archive_project_charge', () => {
  it('withdraws a charge, which then neither changes nor archives again', async () => {
    const c = await createCharge(owner, fee(projectId, '2500000', { description: 'Withdrawn fee' }));
    const archived = await callAction(mcp, 'archive_project_charge', { projectId, chargeId: c.id, expectedVersion: 1 });
    expect(archived.result).toMatchObject({ version: 2, net: gbp('2500000') });
    expect(archived.result.archived_at).not.toBeNull();
    expect(
      await codeOf(
        owner.charges.updateProjectCharge.mutate({ projectId, chargeId: c.id, expectedVersion: 2, description: 'x' }),
      ),
    ).toBe('ARCHIVED');
    expect(
      await codeOf(owner.charges.archiveProjectCharge.mutate({ projectId, chargeId: c.id, expectedVersion: 2 })),
    ).toBe('ALREADY_ARCHIVED');
  });
});

describe('an invoiced charge', () => {
  it('can no longer change or be archived: 409 CHARGE_INVOICED saying what to do, nothing written', async () => {
    const c = await createCharge(owner, fee(projectId, '9000000', { description: 'Stage 1 fee' }));
    await markInvoiced(app.database, c.id, 'INV-0107');
    const before = await owner.charges.getProjectCharge.query({ projectId, chargeId: c.id });
    expect(before).toMatchObject({ invoiceReference: 'INV-0107', invoicedAt: '2026-11-20T09:00:00.000Z' });
    const update = await refusal(
      owner.charges.updateProjectCharge.mutate({
        projectId,
        chargeId: c.id,
        expectedVersion: 1,
        fixedAmount: { amount4: '1' },
      }),
    );
    expect(update).toEqual({ code: 'CHARGE_INVOICED', status: 409 });
    const archive = await callAction(mcp, 'archive_project_charge', { projectId, chargeId: c.id, expectedVersion: 1 });
    expect(archive.code).toBe('CHARGE_INVOICED');
    expect(archive.error!.message).toMatch(/invoiced \(invoice INV-0107\).*raise a new charge.*credit note/);
    expect(await owner.charges.getProjectCharge.query({ projectId, chargeId: c.id })).toEqual(before);
  });
});

describe('who may do what', () => {
  let members: Record<'assistant' | 'viewer', Member>;
  beforeAll(async () => {
    members = await demoMembers(app, ['assistant', 'viewer']);
  });

  it('a caller without pricing:read sees charges without any amount', async () => {
    const c = await createCharge(owner, {
      projectId,
      type: 'reimbursable',
      description: 'Courier',
      cost: { amount4: '150000' },
      handlingMarkup: { ratio4: '1000' },
    });
    const assistant = trpc(app.url, members.assistant.token);
    const seen = await assistant.charges.getProjectCharge.query({ projectId, chargeId: c.id });
    for (const key of PRICED) expect(seen).not.toHaveProperty(key);
    expect(seen).toMatchObject({ type: 'reimbursable', description: 'Courier', taxRate: { ratio4: '2000' } });
    const listed = await callAction(await app.mcp(members.viewer.token), 'list_project_charges', { projectId });
    expect(listed.result.items.length).toBeGreaterThan(0);
    const mineListed = listed.result.items.find((x: { id: string }) => x.id === c.id);
    expect(Object.keys(mineListed).sort()).toEqual(Object.keys(seen).sort());
    for (const item of listed.result.items) expect(Object.keys(item).filter((k) => PRICED.includes(k))).toEqual([]);
  });

  it('writing needs procurement:write (and amounts pricing:write): an assistant and a viewer are refused', async () => {
    const assistant = trpc(app.url, members.assistant.token);
    expect(await refusal(createCharge(assistant, fee(projectId, '10000')))).toEqual({ code: 'FORBIDDEN', status: 403 });
    const asViewer = await app.mcp(members.viewer.token);
    const refused = await callAction(asViewer, 'create_project_charge', {
      ...fee(projectId, '10000'),
      commandKey: uuid(),
    });
    expect(refused.code).toBe('FORBIDDEN');
  });

  it('an archived project’s charges are frozen', async () => {
    const p = await createProject(owner, { name: 'Finished job' });
    const c = await createCharge(owner, fee(p.id, '10000'));
    const project = await owner.projects.getStudioProject.query({ projectId: p.id });
    await owner.projects.archiveStudioProject.mutate({ projectId: p.id, expectedVersion: project.version });
    expect(await codeOf(createCharge(owner, fee(p.id, '10000')))).toBe('ARCHIVED');
    expect(
      await codeOf(owner.charges.archiveProjectCharge.mutate({ projectId: p.id, chargeId: c.id, expectedVersion: 1 })),
    ).toBe('ARCHIVED');
    expect((await owner.charges.listProjectCharges.query({ projectId: p.id })).items.map((x) => x.id)).toEqual([c.id]);
  });
});

// Last: it adds a second studio to the database, which the fixtures above do not expect.
describe('another studio', () => {
  it('its charges and projects are NOT_FOUND wherever an input names them', async () => {
    const now = new Date().toISOString();
    const { studioId, memberId } = await createStudioWithOwner(
      app.rt.store.db,
      { name: 'Elsewhere Studio', currency: 'GBP', codePrefix: 'EL' },
      { email: 'charges-elsewhere@example.test', name: 'El' },
      now,
    );
    const theirProject = newId();
    await app.rt.store.db
      .insertInto('projects')
      .values({
        id: theirProject,
        studio_id: studioId,
        name: 'Their project',
        reference: null,
        client_id: null,
        client_name: null,
        currency: 'GBP',
        default_markup4: null,
        status: 'active',
        archived_at: null,
        created_by: memberId,
        created_at: now,
        updated_at: now,
        version: 1,
      })
      .execute();
    const theirCharge = newId();
    await app.rt.store.db
      .insertInto('project_charges')
      .values({
        id: theirCharge,
        project_id: theirProject,
        type: 'design_fee',
        description: 'Their fee',
        charge_date: '2026-11-01',
        currency: 'GBP',
        amount4: '10000',
        hours4: null,
        hourly_rate4: null,
        cost4: null,
        handling_markup4: null,
        tax_rate4: '2000',
        invoiced_at: null,
        invoice_reference: null,
        archived_at: null,
        created_at: now,
        updated_at: now,
        version: 1,
      })
      .execute();
    const mine = { projectId, chargeId: theirCharge };
    expect(await codeOf(owner.charges.getProjectCharge.query(mine))).toBe('NOT_FOUND');
    expect(
      await codeOf(owner.charges.updateProjectCharge.mutate({ ...mine, expectedVersion: 1, description: 'x' })),
    ).toBe('NOT_FOUND');
    expect(await codeOf(owner.charges.archiveProjectCharge.mutate({ ...mine, expectedVersion: 1 }))).toBe('NOT_FOUND');
    const theirs = { projectId: theirProject, chargeId: theirCharge };
    expect(await codeOf(owner.charges.getProjectCharge.query(theirs))).toBe('NOT_FOUND');
    expect(await codeOf(owner.charges.listProjectCharges.query({ projectId: theirProject }))).toBe('NOT_FOUND');
    expect((await callAction(mcp, 'archive_project_charge', { ...theirs, expectedVersion: 1 })).code).toBe('NOT_FOUND');
    expect(await codeOf(createCharge(owner, fee(theirProject, '10000')))).toBe('NOT_FOUND');
  });
});
