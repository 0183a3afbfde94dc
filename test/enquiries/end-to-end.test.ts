/**
 * An enquiry end to end, as an agent runs it over MCP: drafted from two schedule lines, sent (the call held open with a
 * progress token until the emails are at the studio's real SMTP server in this process), answered by both suppliers,
 * the better answer applied, and each line's history naming the enquiry and the response it came from.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAction } from '../helpers/calls.js';
import type { Trpc } from '../helpers/clients.js';
import { openTestAppWithMcp, type TestApp } from '../helpers/in-process.js';
import { openMailServer } from '../helpers/mail.js';
import { enquirySetting } from './fixture.js';

const mailServer = openMailServer();
let app: TestApp;
let owner: Trpc;
let mcp: Client;
let s: Awaited<ReturnType<typeof enquirySetting>>;
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened), mailServer.env);
beforeAll(async () => {
  s = await enquirySetting(owner, app.projectId, 'Whole');
});

/** A procedure called with a progress token: an operation it starts is answered once it has ended. */
async function held(name: string, input: Record<string, unknown>) {
  const res = await mcp.callTool({ name: 'call_action', arguments: { name, arguments: { input } } }, undefined, {
    onprogress: () => {},
    timeout: 60_000,
  });
  const out = res.structuredContent as { result?: any };
  if (!out.result) throw new Error(`${name}: ${JSON.stringify(out)}`);
  return out.result;
}

describe('an enquiry sent, answered and applied', () => {
  it("writes the chosen supplier's prices onto the lines, whose history names the enquiry", async () => {
    const projectId = app.projectId;
    const [sofa, chair] = [s.lines[0]!, s.lines[1]!];
    const made = await callAction(mcp, 'create_enquiry', {
      projectId,
      title: 'Sitting room seating',
      message: 'Please quote for the pieces below.',
      replyBy: '2026-12-09',
      supplierIds: [s.fabrics.id, s.frames.id],
      items: [{ lineId: sofa.id }, { lineId: chair.id }],
      commandKey: crypto.randomUUID(),
    });
    const enquiryId = made.result.id;

    const op = await held('send_enquiry', { projectId, enquiryId, expectedVersion: made.result.version });
    expect(op).toMatchObject({ status: 'succeeded', kind: 'enquiry_send' });
    const delivered = mailServer.received.filter((m) => m.mail.subject?.includes('Sitting room seating'));
    expect(delivered.map((m) => m.to[0]).sort()).toEqual(['fabrics@whole.example', 'frames@whole.example']);
    for (const m of delivered) {
      expect(m.mail.text).toContain(`| ${sofa.code}`);
      expect(m.mail.text).toContain(`| ${chair.code}`);
    }

    const quote = (supplierId: string, sofa4: string, chair4: string) =>
      callAction(mcp, 'record_enquiry_response', {
        projectId,
        enquiryId,
        supplierId,
        lines: [
          { item: 1, tradePrice: { amount4: sofa4 }, leadTimeDays: 56, validUntil: '2027-02-28' },
          { item: 2, tradePrice: { amount4: chair4 }, leadTimeDays: 28 },
        ],
        commandKey: crypto.randomUUID(),
      });
    expect((await quote(s.fabrics.id, '15000000', '4500000')).result.enquiry.state).toBe('partly_responded');
    const better = await quote(s.frames.id, '14200000', '4300000');
    expect(better.result.enquiry.state).toBe('responded');

    const current = await callAction(mcp, 'get_enquiry', { projectId, enquiryId });
    const applied = await callAction(mcp, 'apply_enquiry_response', {
      projectId,
      enquiryId,
      responseId: better.result.response.id,
      expectedVersion: current.result.version,
      confirm: true,
    });
    expect(applied.result.enquiry.state).toBe('applied');

    for (const [line, amount4, days] of [
      [sofa, '14200000', 56],
      [chair, '4300000', 28],
    ] as const) {
      const read = await callAction(mcp, 'get_schedule_line', { projectId, lineId: line.id });
      expect(read.result).toMatchObject({ tradePrice: { state: 'set', price: { amount4 } }, leadTimeDays: days });
      // The client price follows the new trade price through the line's markup, as any trade price change does.
      expect(
        read.result.clientPrice.source === 'manual' ||
          read.result.clientPrice.price.amount4 !== line.clientPrice.price?.amount4,
      ).toBe(true);
      const history = await callAction(mcp, 'get_schedule_line_history', { projectId, lineId: line.id, limit: 1 });
      const [event] = history.result.items;
      expect(event.action).toBe('apply_enquiry_response');
      expect(event.summary).toContain(enquiryId);
      expect(event.summary).toContain(better.result.response.id);
      expect(event.changes.tradePrice.to).toMatchObject({ state: 'set', price: { amount4 } });
    }

    const closed = await callAction(mcp, 'close_enquiry', {
      projectId,
      enquiryId,
      expectedVersion: applied.result.enquiry.version,
      reason: 'Ordered.',
    });
    expect(closed.result.state).toBe('closed');
  });
});
