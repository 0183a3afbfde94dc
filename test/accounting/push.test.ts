/**
 * push_invoice_to_accounting and list_accounting_sync_events against Xero's own contract (xero-world.ts): a deposit
 * from a decided estimate revision and two charges pushed as one ACCREC DRAFT invoice, Xero's business rules checked
 * on what was sent (Contact, AccountCode, TaxType, amounts per line), the same push never sent twice, and the failures:
 * a 429 waited out, a validation error surfaced, totals that differ, a revoked refresh token.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestApp } from '../helpers/in-process.js';
import { type Trpc, trpc } from '../helpers/clients.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { leakForms } from '../helpers/leaks.js';
import { startServer } from '../helpers/server.js';
import { callAction, codeOf, settledOperation } from '../helpers/calls.js';
import { uuid } from '../helpers/ids.js';
import { createCharge } from '../charges/fixture.js';
import { issuedEstimate, pricedProject, recordDecision } from '../estimates/fixture.js';
import {
  agreeInBrowser,
  agreeInChromium,
  answerLog,
  CANARY,
  cents,
  openXeroTestApp,
  type Sent,
  type XeroWorld,
} from './xero-world.js';
import { invoiceViolations } from './invoice-contract.js';

let xero: XeroWorld;
let app: TestApp;
let owner: Trpc;
let mcp: Client;
openXeroTestApp((opened) => ({ app, owner, mcp, xero } = opened));

const { answers, seen } = answerLog();

/** The one client every billed project is for: Xero is asked to make its contact once. */
let studioClient: { id: string } | undefined;
const clientId = () => studioClient!.id;

/** A project with a decided revision (accepted) and two charges; connected and every kind mapped. */
async function billable() {
  const p = await pricedProject(owner, `Billing ${uuid().slice(0, 6)}`);
  const project = await owner.projects.getStudioProject.query({ projectId: p.projectId });
  await owner.projects.updateProjectDetails.mutate({
    projectId: p.projectId,
    expectedVersion: project.version,
    clientId: clientId(),
  } as never);
  const { revision } = await issuedEstimate(owner, p);
  await recordDecision(owner, p.projectId, revision);
  const fee = await createCharge(owner, {
    projectId: p.projectId,
    type: 'design_fee',
    description: 'Design concept',
    fixedAmount: { amount4: '12345000' },
    taxRate: { ratio4: '2000' },
  } as never);
  const visits = await createCharge(owner, {
    projectId: p.projectId,
    type: 'time',
    description: 'Site visits',
    hours: { amount4: '75000' },
    hourlyRate: { amount4: '950000' },
    taxRate: { ratio4: '2000' },
  });
  return { projectId: p.projectId, revisionId: revision.id, chargeIds: [fee.id, visits.id] };
}

const push = (input: Record<string, unknown>, commandKey = uuid()) =>
  owner.accounting.pushInvoiceToAccounting.mutate({ ...input, commandKey } as never);

const invoicesSent = () => xero.sent.filter((s) => s.method === 'PUT' && s.path.startsWith('/api.xro/2.0/Invoices'));

/** Xero's business rules the contract's schema leaves optional, checked on every invoice the server sent. */
function obeysXeroRules(s: Sent) {
  // The schema first (Prism passes any invoice body), then the rules it leaves optional.
  expect(invoiceViolations(s.body)).toEqual([]);
  const [inv] = s.body.Invoices;
  expect(inv.Type).toBe('ACCREC');
  expect(inv.Status).toBe('DRAFT');
  expect(inv.Contact.ContactID).toMatch(/^[0-9a-f-]{36}$/);
  expect(s.headers['idempotency-key']).toMatch(/^[0-9a-f]{64}$/);
  for (const line of inv.LineItems) {
    expect(line.AccountCode).toBeTruthy();
    expect(line.TaxType).toBeTruthy();
    expect(cents(line.LineAmount)).toBe(Math.round(Number(line.Quantity) * Number(line.UnitAmount) * 100));
    expect(typeof line.TaxAmount).toBe('number');
  }
}

beforeAll(async () => {
  studioClient = await owner.clients.createClient.mutate({
    name: 'Clara Penhaligon',
    email: 'clara@example.test',
    commandKey: uuid(),
  } as never);
  const started = await owner.accounting.connectAccounting.mutate({ commandKey: uuid(), confirm: true } as never);
  // The person's leg in Chromium: Xero's page (the OAuth server agrees at once) sends the browser to the callback.
  const page = await agreeInChromium(started.authorizationUrl);
  expect(page.status).toBe(200);
  expect(page.text).toContain('Connected to Xero');
  const chart = await owner.accounting.listAccountingAccounts.query({});
  const revenue = chart.accounts.find((a) => a.type === 'REVENUE' && a.status === 'ACTIVE')!;
  const tax = chart.taxRates.find((t) => t.status === 'ACTIVE')!;
  await owner.accounting.mapAccountingAccounts.mutate({
    mappings: chart.mappings.map((m) => ({ kind: m.kind, accountCode: revenue.code, taxType: tax.taxType })),
  });
}, 120_000);

describe('push_invoice_to_accounting', () => {
  it('pushes a deposit and two charges as one draft invoice; the same push is never sent twice', async () => {
    const b = await billable();
    const key = uuid();
    const input = {
      projectId: b.projectId,
      revision: { revisionId: b.revisionId, part: 'deposit' },
      chargeIds: b.chargeIds,
    };
    const op = seen(await push(input, key));
    const done = seen(await settledOperation(owner, op.id));
    expect(done.status).toBe('succeeded');
    const sent = invoicesSent();
    expect(sent).toHaveLength(1);
    obeysXeroRules(sent[0]!);
    const [inv] = sent[0]!.body.Invoices;
    // The deposit split by tax rate (20 % and 5 % pieces), then the fee and the visits (7.5 h × 95.00 = 712.50).
    expect(inv.LineItems).toHaveLength(4);
    expect(inv.LineItems.slice(2).map((l: any) => [l.LineAmount, l.TaxAmount])).toEqual([
      [1234.5, 246.9],
      [712.5, 142.5],
    ]);
    const revision = await owner.estimates.getEstimateRevision.query({
      projectId: b.projectId,
      revisionId: b.revisionId,
    });
    const depositCents = inv.LineItems.slice(0, 2).reduce(
      (t: number, l: any) => t + cents(l.LineAmount) + cents(l.TaxAmount),
      0,
    );
    expect(depositCents).toBe(Number(revision.decision!.deposit.amount4) / 100);
    const result = done.result as { providerInvoiceNumber: string };
    expect(result.providerInvoiceNumber).toMatch(/^INV-/);

    // The same command again answers the same operation; a new push of the same things is refused; Xero saw one.
    expect((await push(input, key)).id).toBe(op.id);
    expect(await codeOf(push(input))).toBe('ALREADY_INVOICED');
    expect(await codeOf(push({ projectId: b.projectId, chargeIds: [b.chargeIds[0]] }))).toBe('CHARGE_INVOICED');
    expect(invoicesSent()).toHaveLength(1);
    const fee = await owner.charges.getProjectCharge.query({ projectId: b.projectId, chargeId: b.chargeIds[0]! });
    expect(fee.invoiceReference).toBe(result.providerInvoiceNumber);
    expect(
      await codeOf(
        owner.charges.archiveProjectCharge.mutate({
          projectId: b.projectId,
          chargeId: fee.id,
          expectedVersion: fee.version,
        }),
      ),
    ).toBe('CHARGE_INVOICED');

    const events = seen(await callAction(mcp, 'list_accounting_sync_events', { projectId: b.projectId }));
    expect(events.result.items).toMatchObject([
      { outcome: 'pushed', providerInvoiceNumber: result.providerInvoiceNumber },
    ]);
    expect(xero.refused()).toEqual([]);
  });

  it('waits out a 429 within the operation (pushed over MCP with progress); the sync events tell it, newest first', async () => {
    const b = await billable();
    xero.faults.push(429);
    const progress: number[] = [];
    const input = { projectId: b.projectId, chargeIds: b.chargeIds, commandKey: uuid() };
    const out = await mcp.callTool(
      { name: 'call_action', arguments: { name: 'push_invoice_to_accounting', arguments: { input } } },
      undefined,
      { onprogress: (p) => void progress.push(p.progress), timeout: 120_000 },
    );
    const answered = JSON.stringify(seen(out.structuredContent));
    expect(answered).toContain('succeeded');
    expect(progress.length).toBeGreaterThan(0);
    const events = seen(await owner.accounting.listAccountingSyncEvents.query({ projectId: b.projectId }));
    expect(events.items.map((e) => e.outcome)).toEqual(['pushed', 'retried']);
    expect(events.items[1]!.reason).toContain('429');
    const oldest = await owner.accounting.listAccountingSyncEvents.query({
      projectId: b.projectId,
      sort: 'createdAt',
      limit: 1,
    });
    expect(oldest.items[0]!.outcome).toBe('retried');
    expect(oldest.nextCursor).toBeTruthy();
  });

  it("surfaces Xero's validation errors, records the failure and gives the charges back", async () => {
    const b = await billable();
    xero.faults.push({
      status: 400,
      body: {
        ErrorNumber: 10,
        Type: 'ValidationException',
        Message: 'A validation exception occurred',
        Elements: [{ ValidationErrors: [{ Message: 'Account code 200 has been archived, or does not exist.' }] }],
      },
    });
    const op = await push({ projectId: b.projectId, chargeIds: b.chargeIds });
    const failed = seen(await settledOperation(owner, op.id));
    expect(failed.status).toBe('failed');
    expect(failed.problem!.code).toBe('ACCOUNTING_PROVIDER_FAILED');
    expect(failed.problem!.detail).toContain('Account code 200 has been archived');
    const events = await owner.accounting.listAccountingSyncEvents.query({ projectId: b.projectId });
    expect(events.items[0]).toMatchObject({ outcome: 'failed' });
    expect(events.items[0]!.reason).toContain('Account code 200');
    const again = await push({ projectId: b.projectId, chargeIds: b.chargeIds });
    expect((await settledOperation(owner, again.id)).status).toBe('succeeded');
  });

  it('fails with both figures when Xero totals the invoice differently', async () => {
    const b = await billable();
    xero.skewTotal.by = 0.01;
    const op = await push({ projectId: b.projectId, chargeIds: [b.chargeIds[0]] });
    const failed = await settledOperation(owner, op.id);
    expect(failed.status).toBe('failed');
    expect(failed.problem!.detail).toContain("total: ours 1,481.40, Xero's 1,481.41");
  });

  it('needs accounting:manage to push or read sync events, workspace:manage to connect; foreign ids are NOT_FOUND', async () => {
    const b = await billable();
    const designer = await memberWithToken(app.database, 'designer', [{ projectId: b.projectId, level: 'edit' }]);
    const theirs = trpc(app.url, designer.token);
    const input = { projectId: b.projectId, chargeIds: b.chargeIds, commandKey: uuid() } as never;
    expect(await codeOf(theirs.accounting.pushInvoiceToAccounting.mutate(input))).toBe('FORBIDDEN');
    expect(await codeOf(theirs.accounting.listAccountingSyncEvents.query({}))).toBe('FORBIDDEN');
    expect(
      await codeOf(theirs.accounting.connectAccounting.mutate({ commandKey: uuid(), confirm: true } as never)),
    ).toBe('FORBIDDEN');
    // A charge of another project, a revision of another project: not this project's, so not found; nothing claimed.
    const other = await billable();
    const before = invoicesSent().length;
    expect(await codeOf(push({ projectId: b.projectId, chargeIds: [other.chargeIds[0]] }))).toBe('NOT_FOUND');
    expect(
      await codeOf(push({ projectId: b.projectId, revision: { revisionId: other.revisionId, part: 'deposit' } })),
    ).toBe('NOT_FOUND');
    // A project that names no client has no one to invoice.
    const bare = await owner.projects.createStudioProject.mutate({ name: 'No client', commandKey: uuid() });
    const fee = await createCharge(owner, {
      projectId: bare.id,
      type: 'design_fee',
      description: 'Concept',
      fixedAmount: { amount4: '1000000' },
    });
    expect(await codeOf(push({ projectId: bare.id, chargeIds: [fee.id] }))).toBe('VALIDATION_FAILED');
    const charge = await owner.charges.getProjectCharge.query({
      projectId: other.projectId,
      chargeId: other.chargeIds[0]!,
    });
    expect(charge.invoicedAt).toBeNull();
    expect(invoicesSent().length).toBe(before);
  });

  it('sends Xero the client prices only: no trade price or markup in any request (the margin-leak walk)', async () => {
    // The fixture's trade prices (20.0000, 12.3450, 98,765.4321) and markups (35 %, 271.83 %), as text and as the JSON
    // numbers Xero's requests carry.
    const secrets = [200000n, 123450n, 987654321n, 3500n, 27183n];
    const forms = [
      ...leakForms(secrets),
      ...secrets.map((n) => String(Number(n) / 10_000)).filter((f) => f.replace(/\D/g, '').length >= 5),
    ];
    const bodies = xero.sent.filter((s) => s.body !== undefined).map((s) => JSON.stringify(s.body));
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) for (const form of forms) expect(body).not.toContain(form);
  });

  it('a revoked refresh token fails the push and turns the connection to needs_reconnect', async () => {
    const b = await billable();
    xero.oauth.service.once('beforeResponse', (res: { statusCode: number; body: unknown }) => {
      res.statusCode = 400;
      res.body = { error: 'invalid_grant' };
    });
    xero.faults.push(401);
    const op = await push({ projectId: b.projectId, chargeIds: b.chargeIds });
    const failed = await settledOperation(owner, op.id);
    expect(failed.problem!.code).toBe('ACCOUNTING_NOT_CONNECTED');
    expect((await owner.accounting.getAccountingConnection.query({})).status).toBe('needs_reconnect');
    expect(await codeOf(push({ projectId: b.projectId, chargeIds: b.chargeIds }))).toBe('ACCOUNTING_NOT_CONNECTED');
  });

  it('no token in any answer, operation, sync event, audit event or stored row', async () => {
    const events = seen(await owner.audit.listStudioAuditEvents.query({ limit: 200 }));
    expect(JSON.stringify(answers)).not.toContain(CANARY);
    expect(JSON.stringify(events)).not.toContain(CANARY);
    // Every push was for one client: Xero was asked to make its contact once, with its name and email.
    const contacts = xero.sent.filter((s) => s.method === 'PUT' && s.path.startsWith('/api.xro/2.0/Contacts'));
    expect(contacts.map((c) => c.body.Contacts[0])).toEqual([
      { Name: 'Clara Penhaligon', EmailAddress: 'clara@example.test' },
    ]);
    const db = app.rt.store.readDb;
    for (const table of [
      'accounting_pushes',
      'accounting_sync_events',
      'operations',
      'audit_events',
      'accounting_connections',
    ] as const) {
      expect(JSON.stringify(await db.selectFrom(table).selectAll().execute())).not.toContain(CANARY);
    }
    expect(xero.refused()).toEqual([]);
  });
});

describe('log lines', () => {
  it('a server process logging at debug prints no token while connecting, refreshing and pushing', async () => {
    const server = await startServer({ ...xero.env, STUDIO_LOG_LEVEL: 'debug' });
    try {
      const client = trpc(server.url, server.token);
      const started = await client.accounting.connectAccounting.mutate({ commandKey: uuid(), confirm: true } as never);
      expect((await agreeInBrowser(started.authorizationUrl)).status).toBe(200);
      const chart = await client.accounting.listAccountingAccounts.query({});
      const revenue = chart.accounts.find((a) => a.type === 'REVENUE' && a.status === 'ACTIVE')!;
      const tax = chart.taxRates.find((t) => t.status === 'ACTIVE')!;
      await client.accounting.mapAccountingAccounts.mutate({
        mappings: [{ kind: 'design_fee', accountCode: revenue.code, taxType: tax.taxType }],
      });
      const project = await client.projects.createStudioProject.mutate({
        name: 'Logged',
        clientName: 'A plain label',
        commandKey: uuid(),
      } as never);
      const fee = await createCharge(client, {
        projectId: project.id,
        type: 'design_fee',
        description: 'Design concept',
        fixedAmount: { amount4: '5000000' },
      });
      xero.faults.push(401);
      const op = await client.accounting.pushInvoiceToAccounting.mutate({
        projectId: project.id,
        chargeIds: [fee.id],
        commandKey: uuid(),
      } as never);
      expect((await settledOperation(client, op.id)).status).toBe('succeeded');
      expect(server.stdout()).toContain('accounting.pushInvoiceToAccounting');
      expect(server.stdout()).toContain('/accounting/xero/callback');
      expect(server.stdout() + server.stderr()).not.toContain(CANARY);
    } finally {
      await server.stop();
    }
  });
});
