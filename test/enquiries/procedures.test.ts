/**
 * The enquiries domain (7 procedures) through the typed tRPC client and MCP call_action, against a real SMTP server in
 * this process: a draft made from schedule lines and free-text items, emailed to each supplier with the items as a
 * table (never a client price, markup or the client), answered per supplier and item, one answer written onto the
 * lines through the schedule's own versioned and audited write, and closed. Every refusal says what to do next.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayAmount, parseAmount4 } from '../../src/core/money.js';
import { leakForms } from '../helpers/leaks.js';
import { ACTIONS_BY_NAME } from '../../actions/index.js';
import { authenticate } from '../../src/core/auth.js';
import { invoke } from '../../src/core/invoke.js';
import { allPages, callAction, codeOf, errorOf, refusal, settledOperation } from '../helpers/calls.js';
import { type Trpc, trpc } from '../helpers/clients.js';
import { anotherStudio, memberWithToken } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';
import { createTestAppAsOwner, openTestAppWithMcp, type TestApp } from '../helpers/in-process.js';
import { openMailServer } from '../helpers/mail.js';
import { answer, draftEnquiry, enquirySetting, sendAndSettle } from './fixture.js';

const mailServer = openMailServer();
let app: TestApp;
let owner: Trpc;
let mcp: Client;
let s: Awaited<ReturnType<typeof enquirySetting>>;
let projectId: string;

openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened), mailServer.env);
beforeAll(async () => {
  projectId = app.projectId;
  s = await enquirySetting(owner, projectId, 'Proc');
});

const mailsTo = (address: string) => mailServer.received.filter((m) => m.to.includes(address));

describe('create_enquiry, get_enquiry and list_enquiries', () => {
  it('drafts an enquiry from lines and a free-text item, once per commandKey', async () => {
    const [a, b] = s.lines;
    const input = {
      projectId,
      title: 'Dining chairs',
      replyBy: '2026-12-11',
      supplierIds: [s.fabrics.id, s.frames.id, s.fabrics.id],
      items: [
        { lineId: a!.id },
        { lineId: b!.id, quantity: { amount4: '30000' } },
        { description: 'Seat pads', quantity: { amount4: '80000', unit: 'pair' } },
      ],
      commandKey: uuid(),
    };
    const made = await owner.enquiries.createEnquiry.mutate(input);
    expect(await owner.enquiries.createEnquiry.mutate(input)).toEqual(made);
    expect(made).toMatchObject({ state: 'draft', version: 1, responseCount: 0, message: '', sentAt: null, projectId });
    expect(made.items).toEqual([
      {
        number: 1,
        lineId: a!.id,
        code: a!.code,
        description: a!.heading,
        details: expect.anything(),
        quantity: { amount4: a!.quantity.amount4, unit: expect.any(String) },
      },
      {
        number: 2,
        lineId: b!.id,
        code: b!.code,
        description: b!.heading,
        details: expect.anything(),
        quantity: { amount4: '30000', unit: expect.any(String) },
      },
      {
        number: 3,
        lineId: null,
        code: null,
        description: 'Seat pads',
        details: null,
        quantity: { amount4: '80000', unit: 'pair' },
      },
    ]);
    // Each supplier once, in the order given, their addresses as they are now.
    expect(made.suppliers.map((x) => [x.name, x.email, x.mail.status])).toEqual([
      ['Proc Fabrics', 'fabrics@proc.example', 'unsent'],
      ['Proc Frames', 'frames@proc.example', 'unsent'],
    ]);
    const events = await owner.audit.listProjectAuditEvents.query({ projectId, targetId: made.id });
    expect(events.items.map((e) => [e.action, e.target.kind])).toEqual([['create_enquiry', 'enquiry']]);
  });

  it('refuses an archived line, a line twice, and an unknown line', async () => {
    const line = s.lines.at(-1)!;
    const twice = draftEnquiry(owner, projectId, [s.fabrics.id], [line.id, line.id]);
    expect(await refusal(twice)).toEqual({ code: 'VALIDATION_FAILED', status: 400 });
    expect(await codeOf(draftEnquiry(owner, projectId, [s.fabrics.id], ['0000000000000000000000000l']))).toBe(
      'NOT_FOUND',
    );
  });

  it('lists with state and supplier filters, sorts and pages, the same over MCP', async () => {
    const toFrames = await draftEnquiry(owner, projectId, [s.frames.id], [s.lines[2]!.id], { title: 'Frames only' });
    const viaFabrics = await owner.enquiries.listEnquiries.query({ projectId, supplierId: s.fabrics.id });
    expect(viaFabrics.items.map((e) => e.id)).not.toContain(toFrames.id);
    const viaFrames = await owner.enquiries.listEnquiries.query({ projectId, supplierId: s.frames.id });
    expect(viaFrames.items.map((e) => e.id)).toContain(toFrames.id);
    expect((await owner.enquiries.listEnquiries.query({ projectId, state: 'closed' })).items).toEqual([]);
    const drafts = await owner.enquiries.listEnquiries.query({ projectId, state: 'draft' });
    expect(drafts.items.map((e) => e.state)).toEqual(['draft', 'draft']);
    // The demo studio's own open enquiry is the one already sent.
    const sent = await owner.enquiries.listEnquiries.query({ projectId, state: 'sent' });
    expect(sent.items.map((e) => [e.title, e.suppliers.map((x) => x.mail.status)])).toEqual([
      ['Living room rug and curtains', ['sent', 'sent']],
    ]);
    const all = await owner.enquiries.listEnquiries.query({ projectId });
    expect(all.items).toHaveLength(3);
    // Newest first by default; pages of one in createdAt order give the same enquiries the other way round.
    expect(all.items.map((e) => e.createdAt)).toEqual(
      all.items
        .map((e) => e.createdAt)
        .sort()
        .reverse(),
    );
    const paged = await allPages((cursor) =>
      owner.enquiries.listEnquiries.query({ projectId, limit: 1, sort: 'createdAt', cursor }),
    );
    expect(paged.map((e) => e.id)).toEqual(all.items.map((e) => e.id).reverse());
    const viaMcp = await callAction(mcp, 'list_enquiries', { projectId, supplierId: s.frames.id });
    expect(viaMcp.result.items.map((e: { id: string }) => e.id)).toEqual(viaFrames.items.map((e) => e.id));
    const one = await callAction(mcp, 'get_enquiry', { projectId, enquiryId: toFrames.id });
    expect(one.result).toEqual(await owner.enquiries.getEnquiry.query({ projectId, enquiryId: toFrames.id }));
    expect(one.result.responses).toEqual([]);
  });
});

describe('send_enquiry', () => {
  it('emails each supplier the items as a table with the reply-by date, and no client price, markup or client', async () => {
    const lines = s.lines.slice(0, 2);
    const draft = await draftEnquiry(
      owner,
      projectId,
      [s.fabrics.id, s.frames.id],
      lines.map((l) => l.id),
    );
    const before = mailServer.received.length;
    const { op, enquiry } = await sendAndSettle(owner, projectId, draft.id);
    expect(op).toMatchObject({ status: 'succeeded', kind: 'enquiry_send', action: 'send_enquiry' });
    expect(enquiry.state).toBe('sent');
    expect(enquiry.sentAt).not.toBeNull();
    expect(enquiry.suppliers.map((x) => x.mail.status)).toEqual(['sent', 'sent']);
    expect(mailServer.received.length).toBe(before + 2);
    const client = await owner.clients.listClients.query({});
    for (const supplier of enquiry.suppliers) {
      const [got] = mailServer.received.slice(before).filter((m) => m.to.includes(supplier.email!));
      expect(got!.to).toEqual([supplier.email]);
      expect(got!.mail.messageId).toBe(supplier.mail.messageId);
      expect(got!.mail.subject).toBe('Price and lead time enquiry: Living room upholstery (reply by 4 December 2026)');
      const text = got!.mail.text!;
      expect(text).toContain(`Dear ${supplier.name},`);
      expect(text).toContain('We would be grateful for your best trade prices.');
      expect(text).toContain('by 4 December 2026');
      const rows = text.split('\n').filter((r) => / \| /.test(r));
      expect(rows[0]).toMatch(/^No\. +\| Code +\| Item +\| Details +\| Quantity$/);
      for (const [i, line] of lines.entries()) {
        const row = rows.find((r) => r.startsWith(`${i + 1} `))!;
        expect(row).toContain(`| ${line.code}`);
        expect(row).toContain(line.heading);
        expect(row).toMatch(
          new RegExp(`\\| ${displayAmount(parseAmount4(line.quantity.amount4), 4).replace(/\.?0+$/, '')} \\S+$`),
        );
      }
      expect(rows.find((r) => r.startsWith('3 '))).toMatch(/Linen cushion, 50 × 50 cm \| Natural +\| 4 each$/);
      // The margin direction: nothing the client pays, the margin or the markup, in any formatting, nor who the client is.
      const amounts = lines.flatMap((l) =>
        [l.clientPrice.price?.amount4, l.clientTotal?.amount4, l.margin?.amount4, l.tradePrice?.price?.amount4]
          .filter((a): a is string => !!a)
          .map(BigInt),
      );
      expect(amounts.length).toBeGreaterThan(0);
      for (const form of leakForms(amounts)) expect(text).not.toContain(form);
      expect(text.toLowerCase()).not.toMatch(/markup|margin|client/);
      for (const c of client.items) expect(text).not.toContain(c.name);
      expect(got!.mail.html).toBe(false);
    }
  });

  it('names a supplier without an email address and queues nothing', async () => {
    const draft = await draftEnquiry(owner, projectId, [s.fabrics.id, s.unaddressed.id], [s.lines[0]!.id]);
    const before = mailServer.received.length;
    const refused = await errorOf(
      owner.enquiries.sendEnquiry.mutate({ projectId, enquiryId: draft.id, expectedVersion: 1 }),
    );
    expect(refused.data.serviceCode).toBe('VALIDATION_FAILED');
    expect(refused.message).toContain('Proc Unaddressed has no usable email address');
    expect(refused.message).toContain('update_supplier');
    const after = await owner.enquiries.getEnquiry.query({ projectId, enquiryId: draft.id });
    expect(after).toMatchObject({ state: 'draft', version: 1 });
    expect(after.suppliers.map((x) => x.mail.status)).toEqual(['unsent', 'unsent']);
    expect(mailServer.received.length).toBe(before);
  });

  it('keeps line breaks typed in a title out of the mail headers', async () => {
    const draft = await draftEnquiry(owner, projectId, [s.fabrics.id], [s.lines[0]!.id], {
      title: 'Sofas\r\nBcc: spy@evil.example\r\nX-Injected: yes',
    });
    const before = mailServer.received.length;
    await sendAndSettle(owner, projectId, draft.id);
    const got = mailServer.received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]!.to).toEqual(['fabrics@proc.example']);
    expect(got[0]!.mail.subject).toBe(
      'Price and lead time enquiry: Sofas Bcc: spy@evil.example X-Injected: yes (reply by 4 December 2026)',
    );
    expect(got[0]!.mail.bcc).toBeUndefined();
    expect(got[0]!.mail.headers.has('x-injected')).toBe(false);
  });

  it('records a refusal per supplier, and sending again sends only the refused emails', async () => {
    const bounced = await owner.suppliers.createSupplier.mutate({
      name: 'Proc Bounce',
      email: 'orders@refused.example',
      commandKey: uuid(),
    });
    const draft = await draftEnquiry(owner, projectId, [s.fabrics.id, bounced.id], [s.lines[1]!.id]);
    const { op, enquiry } = await sendAndSettle(owner, projectId, draft.id);
    expect(op.status).toBe('failed');
    expect(op.problem).toMatchObject({ code: 'DELIVERY_FAILED' });
    expect(enquiry.state).toBe('sent');
    expect(enquiry.suppliers.map((x) => [x.name, x.mail.status])).toEqual([
      ['Proc Fabrics', 'sent'],
      ['Proc Bounce', 'failed'],
    ]);
    expect(enquiry.suppliers[1]!.mail.error).toContain('mailbox unavailable');
    await owner.suppliers.updateSupplier.mutate({
      supplierId: bounced.id,
      expectedVersion: bounced.version,
      email: 'orders@bounce.example',
    });
    const fabricsBefore = mailsTo('fabrics@proc.example').length;
    const again = await sendAndSettle(owner, projectId, draft.id);
    expect(again.op.status).toBe('succeeded');
    expect(again.enquiry.suppliers.map((x) => [x.email, x.mail.status])).toEqual([
      ['fabrics@proc.example', 'sent'],
      ['orders@bounce.example', 'sent'],
    ]);
    expect(mailsTo('orders@bounce.example')).toHaveLength(1);
    expect(mailsTo('fabrics@proc.example')).toHaveLength(fabricsBefore);
    // Nothing failed now: a third send is refused.
    const third = owner.enquiries.sendEnquiry.mutate({
      projectId,
      enquiryId: draft.id,
      expectedVersion: again.enquiry.version,
    });
    expect(await refusal(third)).toEqual({ code: 'ENQUIRY_WRONG_STATE', status: 409 });
  });
});

describe('record_enquiry_response and apply_enquiry_response', () => {
  it('records answers per supplier: partly_responded, then responded, appended never replaced', async () => {
    const draft = await draftEnquiry(owner, projectId, [s.fabrics.id, s.frames.id], [s.lines[3]!.id]);
    expect(await codeOf(answer(owner, projectId, draft.id, s.fabrics.id, ['1000000']))).toBe('ENQUIRY_WRONG_STATE');
    await sendAndSettle(owner, projectId, draft.id);
    const first = await answer(owner, projectId, draft.id, s.fabrics.id, ['1000000']);
    expect(first.enquiry.state).toBe('partly_responded');
    expect(first.response).toMatchObject({
      supplierId: s.fabrics.id,
      supplierName: 'Proc Fabrics',
      appliedAt: null,
      note: 'Carriage paid over £500.',
    });
    expect(first.response.lines).toEqual([
      {
        item: 1,
        lineId: s.lines[3]!.id,
        cannotSupply: false,
        tradePrice: { amount4: '1000000', currency: 'GBP' },
        leadTimeDays: 21,
        validUntil: '2027-01-31',
        note: '',
        lineVersion: s.lines[3]!.version,
      },
      {
        item: 2,
        lineId: null,
        cannotSupply: true,
        tradePrice: null,
        leadTimeDays: null,
        validUntil: null,
        note: 'Not a line we carry.',
        lineVersion: null,
      },
    ]);
    const revised = await answer(owner, projectId, draft.id, s.fabrics.id, ['950000']);
    expect(revised.enquiry.state).toBe('partly_responded');
    const last = await answer(owner, projectId, draft.id, s.frames.id, ['1100000']);
    expect(last.enquiry).toMatchObject({ state: 'responded', responseCount: 3 });
    const read = await owner.enquiries.getEnquiry.query({ projectId, enquiryId: draft.id });
    expect(read.responses.map((r) => r.id)).toEqual([first.response.id, revised.response.id, last.response.id]);
    expect(read.suppliers.map((x) => x.responseCount)).toEqual([2, 1]);
  });

  it('refuses an unknown item, an item twice, a price with cannot supply, and a supplier not asked', async () => {
    const draft = await draftEnquiry(owner, projectId, [s.fabrics.id], [s.lines[3]!.id]);
    await sendAndSettle(owner, projectId, draft.id);
    const base = { projectId, enquiryId: draft.id, supplierId: s.fabrics.id, commandKey: uuid() };
    const sendLines = (lines: Array<Record<string, unknown>>, extra = {}) =>
      errorOf(
        owner.enquiries.recordEnquiryResponse.mutate({ ...base, ...extra, commandKey: uuid(), lines: lines as never }),
      );
    expect((await sendLines([{ item: 9, cannotSupply: true }])).message).toContain('no item 9');
    expect(
      (
        await sendLines([
          { item: 1, cannotSupply: true },
          { item: 1, cannotSupply: true },
        ])
      ).message,
    ).toContain('twice');
    expect((await sendLines([{ item: 1, cannotSupply: true, tradePrice: { amount4: '1' } }])).message).toContain(
      'not both',
    );
    expect((await sendLines([{ item: 1, cannotSupply: true }], { supplierId: s.frames.id })).message).toContain(
      'not asked',
    );
    expect((await owner.enquiries.getEnquiry.query({ projectId, enquiryId: draft.id })).responses).toEqual([]);
  });

  it('writes the chosen response onto the lines, once, each change naming the enquiry and the response', async () => {
    const lines = [s.lines[4]!, s.lines[5]!];
    const draft = await draftEnquiry(
      owner,
      projectId,
      [s.fabrics.id, s.frames.id],
      lines.map((l) => l.id),
    );
    await sendAndSettle(owner, projectId, draft.id);
    await answer(owner, projectId, draft.id, s.fabrics.id, ['2000000', '3000000']);
    const chosen = (await answer(owner, projectId, draft.id, s.frames.id, ['1800000', '2900000'])).response;
    const { version } = await owner.enquiries.getEnquiry.query({ projectId, enquiryId: draft.id });
    const ask = { projectId, enquiryId: draft.id, responseId: chosen.id, expectedVersion: version };
    const unconfirmed = await errorOf(owner.enquiries.applyEnquiryResponse.mutate(ask));
    expect(unconfirmed.data.serviceCode).toBe('CONFIRMATION_REQUIRED');
    expect(unconfirmed.message).toContain("Proc Frames's trade prices and lead times onto 2 schedule lines");
    const applied = await owner.enquiries.applyEnquiryResponse.mutate({ ...ask, confirm: true });
    expect(applied.enquiry.state).toBe('applied');
    expect(applied.response.appliedAt).not.toBeNull();
    for (const [i, line] of lines.entries()) {
      const now = await owner.schedule.getScheduleLine.query({ projectId, lineId: line.id });
      expect(now.tradePrice).toEqual({ state: 'set', price: { amount4: ['1800000', '2900000'][i], currency: 'GBP' } });
      expect(now.leadTimeDays).toBe(21 + i);
      expect(now.version).toBe(line.version + 1);
      expect(applied.lines[i]).toEqual(now);
      const history = await owner.schedule.getScheduleLineHistory.query({ projectId, lineId: line.id, limit: 1 });
      const [event] = history.items;
      expect(event).toMatchObject({ action: 'apply_enquiry_response', target: { kind: 'line', id: line.id } });
      expect(event!.summary).toContain(`enquiry "Living room upholstery" (${draft.id})`);
      expect(event!.summary).toContain(`response ${chosen.id} by Proc Frames`);
      expect(event!.changes).toMatchObject({ tradePrice: expect.anything() });
    }
    const twice = owner.enquiries.applyEnquiryResponse.mutate({
      ...ask,
      expectedVersion: applied.enquiry.version,
      confirm: true,
    });
    expect(await refusal(twice)).toEqual({ code: 'ENQUIRY_WRONG_STATE', status: 409 });
  });

  it('refuses to apply over a line changed since the answer was recorded, naming it, and writes nothing', async () => {
    const [kept, moved] = [s.lines[6]!, s.lines[7]!];
    const draft = await draftEnquiry(owner, projectId, [s.fabrics.id], [kept.id, moved.id]);
    await sendAndSettle(owner, projectId, draft.id);
    const { response, enquiry } = await answer(owner, projectId, draft.id, s.fabrics.id, ['4000000', '5000000']);
    const current = await owner.schedule.getScheduleLine.query({ projectId, lineId: moved.id });
    await owner.schedule.updateScheduleLine.mutate({
      projectId,
      lineId: moved.id,
      expectedVersion: current.version,
      patch: { finish: 'Walnut' },
    });
    const refused = await errorOf(
      owner.enquiries.applyEnquiryResponse.mutate({
        projectId,
        enquiryId: draft.id,
        responseId: response.id,
        expectedVersion: enquiry.version,
        confirm: true,
      }),
    );
    expect(refused.data.serviceCode).toBe('VERSION_CONFLICT');
    expect(refused.data.httpStatus).toBe(409);
    expect(refused.message).toContain(`${moved.code} ${moved.heading}`);
    expect(refused.message).not.toContain(kept.heading);
    expect((await owner.schedule.getScheduleLine.query({ projectId, lineId: kept.id })).version).toBe(kept.version);
    const after = await owner.enquiries.getEnquiry.query({ projectId, enquiryId: draft.id });
    expect(after.state).toBe('responded');
    expect(after.responses[0]!.appliedAt).toBeNull();
  });
});

describe('close_enquiry', () => {
  it('closes from any state with a reason; nothing more is recorded or closed', async () => {
    const draft = await draftEnquiry(owner, projectId, [s.fabrics.id], [s.lines[0]!.id]);
    expect(
      await codeOf(owner.enquiries.closeEnquiry.mutate({ projectId, enquiryId: draft.id, expectedVersion: 9 })),
    ).toBe('VERSION_CONFLICT');
    const closed = await owner.enquiries.closeEnquiry.mutate({
      projectId,
      enquiryId: draft.id,
      expectedVersion: 1,
      reason: 'Chose another fabric.',
    });
    expect(closed).toMatchObject({ state: 'closed', closeReason: 'Chose another fabric.', version: 2 });
    expect(closed.closedAt).not.toBeNull();
    expect(
      await refusal(owner.enquiries.closeEnquiry.mutate({ projectId, enquiryId: draft.id, expectedVersion: 2 })),
    ).toEqual({
      code: 'ENQUIRY_WRONG_STATE',
      status: 409,
    });
    expect(
      await codeOf(owner.enquiries.sendEnquiry.mutate({ projectId, enquiryId: draft.id, expectedVersion: 2 })),
    ).toBe('ENQUIRY_WRONG_STATE');
  });
});

describe('who may', () => {
  it('a member without pricing:read reads enquiries and responses without any trade price', async () => {
    const draft = await draftEnquiry(owner, projectId, [s.fabrics.id], [s.lines[0]!.id]);
    await sendAndSettle(owner, projectId, draft.id);
    await answer(owner, projectId, draft.id, s.fabrics.id, ['7770000']);
    const assistant = await memberWithToken(app.database, 'assistant', [{ projectId, level: 'edit' }]);
    const them = trpc(app.url, assistant.token);
    const read = await them.enquiries.getEnquiry.query({ projectId, enquiryId: draft.id });
    expect(read.responses).toHaveLength(1);
    for (const line of read.responses[0]!.lines) expect(Object.keys(line)).not.toContain('tradePrice');
    expect(JSON.stringify(read)).not.toContain('7770000');
    const viaMcp = await callAction(await app.mcp(assistant.token), 'get_enquiry', { projectId, enquiryId: draft.id });
    expect(JSON.stringify(viaMcp.result)).not.toContain('7770000');
    expect((await them.enquiries.listEnquiries.query({ projectId })).items.length).toBeGreaterThan(0);
    // Writing enquiries is procurement:write, which an assistant does not hold.
    expect(await refusal(draftEnquiry(them, projectId, [s.fabrics.id], [s.lines[0]!.id]))).toEqual({
      code: 'FORBIDDEN',
      status: 403,
    });
    expect(
      await codeOf(them.enquiries.closeEnquiry.mutate({ projectId, enquiryId: draft.id, expectedVersion: 1 })),
    ).toBe('FORBIDDEN');
  });
});

describe('a connection without pricing:write', () => {
  it('records "cannot supply" but neither a trade price nor applying one onto lines', async () => {
    const draft = await draftEnquiry(owner, projectId, [s.fabrics.id], [s.lines[9]!.id]);
    await sendAndSettle(owner, projectId, draft.id);
    const priced = (await answer(owner, projectId, draft.id, s.fabrics.id, ['6660000'])).response;
    // The owner's own member, through a connection that was not allowed pricing:write (an OAuth consent can do that).
    const full = (await authenticate(app.rt.store, app.token))!;
    const caller = {
      ...full,
      via: 'oauth' as const,
      permissions: new Set([...full.permissions].filter((p) => p !== 'pricing:write')),
    };
    const call = (name: string, input: Record<string, unknown>) =>
      invoke(app.rt, ACTIONS_BY_NAME.get(name)!, input, { caller, surface: 'trpc' }).then(
        () => 'accepted',
        (e: { code: string; detail: string }) => `${e.code}: ${e.detail}`,
      );
    const record = (line: Record<string, unknown>) =>
      call('record_enquiry_response', {
        projectId,
        enquiryId: draft.id,
        supplierId: s.fabrics.id,
        lines: [line],
        commandKey: uuid(),
      });
    expect(await record({ item: 1, tradePrice: { amount4: '1' } })).toMatch(
      /^FORBIDDEN: Setting tradePrice needs the pricing:write permission/,
    );
    expect(await record({ item: 1, cannotSupply: true })).toBe('accepted');
    const { version } = await owner.enquiries.getEnquiry.query({ projectId, enquiryId: draft.id });
    const applied = await call('apply_enquiry_response', {
      projectId,
      enquiryId: draft.id,
      responseId: priced.id,
      expectedVersion: version,
      confirm: true,
    });
    expect(applied).toMatch(
      /^FORBIDDEN: Writing a response's trade prices onto lines needs the pricing:write permission/,
    );
    expect((await owner.schedule.getScheduleLine.query({ projectId, lineId: s.lines[9]!.id })).version).toBe(
      s.lines[9]!.version,
    );
  });
});

describe('over MCP call_action', () => {
  it('an agent drafts, sends, records, applies and closes an enquiry', async () => {
    const line = s.lines[8]!;
    const made = await callAction(mcp, 'create_enquiry', {
      projectId,
      title: 'Pendant lights',
      replyBy: '2026-12-18',
      supplierIds: [s.frames.id],
      items: [{ lineId: line.id }],
      commandKey: uuid(),
    });
    const enquiryId = made.result.id;
    const sent = await callAction(mcp, 'send_enquiry', { projectId, enquiryId, expectedVersion: made.result.version });
    expect(sent.result).toMatchObject({ kind: 'enquiry_send', action: 'send_enquiry' });
    expect((await settledOperation(owner, sent.result.id)).status).toBe('succeeded');
    const recorded = await callAction(mcp, 'record_enquiry_response', {
      projectId,
      enquiryId,
      supplierId: s.frames.id,
      lines: [{ item: 1, tradePrice: { amount4: '2500000' }, leadTimeDays: 35 }],
      commandKey: uuid(),
    });
    expect(recorded.result.enquiry.state).toBe('responded');
    const got = await callAction(mcp, 'get_enquiry', { projectId, enquiryId });
    const applied = await callAction(mcp, 'apply_enquiry_response', {
      projectId,
      enquiryId,
      responseId: recorded.result.response.id,
      expectedVersion: got.result.version,
      confirm: true,
    });
    expect(applied.result.lines[0]).toMatchObject({
      id: line.id,
      leadTimeDays: 35,
      tradePrice: { state: 'set', price: { amount4: '2500000' } },
    });
    const closed = await callAction(mcp, 'close_enquiry', {
      projectId,
      enquiryId,
      expectedVersion: applied.result.enquiry.version,
    });
    expect(closed.result.state).toBe('closed');
    const listed = await callAction(mcp, 'list_enquiries', { projectId, state: 'closed' });
    expect(listed.result.items.map((e: { id: string }) => e.id)).toContain(enquiryId);
    const refused = await callAction(mcp, 'close_enquiry', {
      projectId,
      enquiryId,
      expectedVersion: closed.result.version,
    });
    expect(refused.code).toBe('ENQUIRY_WRONG_STATE');
  });
});

describe('without email configured', () => {
  let plain: TestApp;
  afterAll(async () => plain?.close());

  it('send_enquiry answers 503 DELIVERY_NOT_CONFIGURED and the enquiry stays a draft', async () => {
    let o: Trpc;
    ({ app: plain, owner: o } = await createTestAppAsOwner());
    const setting = await enquirySetting(o, plain.projectId, 'Plain');
    const draft = await draftEnquiry(o, plain.projectId, [setting.fabrics.id], [setting.lines[0]!.id]);
    const refused = o.enquiries.sendEnquiry.mutate({
      projectId: plain.projectId,
      enquiryId: draft.id,
      expectedVersion: 1,
    });
    expect(await refusal(refused)).toEqual({ code: 'DELIVERY_NOT_CONFIGURED', status: 503 });
    const viaMcp = await callAction(await plain.mcp(), 'send_enquiry', {
      projectId: plain.projectId,
      enquiryId: draft.id,
      expectedVersion: 1,
    });
    expect(viaMcp.code).toBe('DELIVERY_NOT_CONFIGURED');
    const after = await o.enquiries.getEnquiry.query({ projectId: plain.projectId, enquiryId: draft.id });
    expect(after).toMatchObject({ state: 'draft', version: 1 });
    expect((await o.operations.listOperations.query({})).items.filter((op) => op.kind === 'enquiry_send')).toEqual([]);
  });
});

// Last: it adds a second studio to the database, which the suites above do not expect.
describe('another studio', () => {
  it('its enquiries, responses, projects and suppliers are NOT_FOUND wherever an input names them', async () => {
    const them = trpc(app.url, (await anotherStudio(app, 'enquiries')).token);
    const project = await them.projects.createStudioProject.mutate({ name: 'Their house', commandKey: uuid() });
    const section = await them.sections.createScheduleSection.mutate({
      projectId: project.id,
      title: 'Hall',
      commandKey: uuid(),
    });
    const line = await them.schedule.createScheduleLine.mutate({
      projectId: project.id,
      sectionId: section.id,
      heading: 'Their lamp',
      commandKey: uuid(),
    });
    const setting = await enquirySetting(them, project.id, 'Theirs');
    const theirs = await draftEnquiry(them, project.id, [setting.fabrics.id], [line.id]);
    await them.enquiries.closeEnquiry.mutate({ projectId: project.id, enquiryId: theirs.id, expectedVersion: 1 });

    const ours = await draftEnquiry(owner, projectId, [s.fabrics.id], [s.lines[0]!.id]);
    const refused = [
      () => owner.enquiries.getEnquiry.query({ projectId: project.id, enquiryId: theirs.id }),
      () => owner.enquiries.getEnquiry.query({ projectId, enquiryId: theirs.id }),
      () => owner.enquiries.listEnquiries.query({ projectId: project.id }),
      () => owner.enquiries.listEnquiries.query({ projectId, supplierId: setting.fabrics.id }),
      () => draftEnquiry(owner, projectId, [setting.fabrics.id], [s.lines[0]!.id]),
      () => draftEnquiry(owner, projectId, [s.fabrics.id], [line.id]),
      () => owner.enquiries.closeEnquiry.mutate({ projectId, enquiryId: theirs.id, expectedVersion: 2 }),
      () => owner.enquiries.sendEnquiry.mutate({ projectId, enquiryId: theirs.id, expectedVersion: 2 }),
      () => answer(owner, projectId, ours.id, setting.fabrics.id, ['1']),
    ];
    // Each made only when awaited: a refusal left waiting would be an unhandled rejection.
    for (const call of refused) expect(await codeOf(call())).toBe('NOT_FOUND');
    const viaMcp = await callAction(mcp, 'get_enquiry', { projectId: project.id, enquiryId: theirs.id });
    expect(viaMcp.code).toBe('NOT_FOUND');
  });
});
