/**
 * The enquiry's state machine, as a property: no sequence of acts reaches a state outside the closed enumeration, a
 * closed enquiry takes no act, nothing is applied before an answer was recorded; and, through the real server (tRPC,
 * a real SMTP server), any sequence of sends, answers, applies and closes keeps the enquiry where the model says, with
 * every response applied at most once.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENQUIRY_STATES, type EnquiryState } from '../../db/vocabulary.js';
import { type EnquiryAct, nextState } from '../../src/domain/enquiries/states.js';
import { codeOf } from '../helpers/calls.js';
import type { Trpc } from '../helpers/clients.js';
import { uuid } from '../helpers/ids.js';
import { openTestApp, type TestApp } from '../helpers/in-process.js';
import { openMailServer } from '../helpers/mail.js';
import { enquirySetting, sendAndSettle } from './fixture.js';

const act = fc.oneof(
  fc.constant<EnquiryAct>({ act: 'send' }),
  fc.nat(2).map<EnquiryAct>((failedMails) => ({ act: 'resend', failedMails })),
  fc.boolean().map<EnquiryAct>((allSuppliersAnswered) => ({ act: 'respond', allSuppliersAnswered })),
  fc.constant<EnquiryAct>({ act: 'apply' }),
  fc.constant<EnquiryAct>({ act: 'close' }),
);

describe('nextState', () => {
  it('never leaves the enumeration; closed is final; nothing is applied before an answer', () => {
    fc.assert(
      fc.property(fc.array(act, { maxLength: 30 }), (acts) => {
        let state: EnquiryState = 'draft';
        let answered = false;
        for (const a of acts) {
          const next = nextState(state, a);
          if (state === 'closed') expect(next).toBeNull();
          if (next === null) continue;
          expect(ENQUIRY_STATES).toContain(next);
          if (a.act === 'respond') answered = true;
          if (next === 'applied') expect(answered).toBe(true);
          if (state === 'draft') expect(['draft', 'sent', 'closed']).toContain(next);
          state = next;
        }
      }),
      { numRuns: 500 },
    );
  });
});

const mailServer = openMailServer();
let app: TestApp;
let owner: Trpc;
let s: Awaited<ReturnType<typeof enquirySetting>>;
openTestApp((opened) => ({ app, owner } = opened), mailServer.env);
beforeAll(async () => {
  s = await enquirySetting(owner, app.projectId, 'Machine');
});

type Command =
  | { kind: 'send' }
  | { kind: 'respond'; supplier: 0 | 1 }
  | { kind: 'apply'; pick: number }
  | { kind: 'close' };
const command = fc.oneof(
  fc.constant<Command>({ kind: 'send' }),
  fc.constantFrom<Command>({ kind: 'respond', supplier: 0 }, { kind: 'respond', supplier: 1 }),
  fc.nat(5).map<Command>((pick) => ({ kind: 'apply', pick })),
  fc.constant<Command>({ kind: 'close' }),
);

/** What the model expects of the enquiry: its state, who answered, each response with the line's version it saw. */
interface Model {
  state: EnquiryState;
  answered: Set<number>;
  responses: Array<{ id: string; sawLine: number; applied: boolean }>;
  lineVersion: number;
}

describe('an enquiry through the server', () => {
  it('follows the model under any sequence of acts, each response applied at most once', async () => {
    const projectId = app.projectId;
    const sectionId = s.lines[0]!.sectionId;
    const suppliers = [s.fabrics.id, s.frames.id];
    let price = 1_000_000;
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 7 }), async (commands) => {
        const line = await owner.schedule.createScheduleLine.mutate({
          projectId,
          sectionId,
          heading: 'Machine chair',
          commandKey: uuid(),
        });
        const made = await owner.enquiries.createEnquiry.mutate({
          projectId,
          title: 'Machine',
          replyBy: '2026-12-31',
          supplierIds: suppliers,
          items: [{ lineId: line.id }],
          commandKey: uuid(),
        });
        const enquiryId = made.id;
        const m: Model = { state: 'draft', answered: new Set(), responses: [], lineVersion: line.version };
        const version = async () => (await owner.enquiries.getEnquiry.query({ projectId, enquiryId })).version;
        for (const c of commands) {
          if (c.kind === 'send') {
            const next = nextState(m.state, m.state === 'draft' ? { act: 'send' } : { act: 'resend', failedMails: 0 });
            if (next === null) {
              expect(
                await codeOf(
                  owner.enquiries.sendEnquiry.mutate({ projectId, enquiryId, expectedVersion: await version() }),
                ),
              ).toBe('ENQUIRY_WRONG_STATE');
            } else {
              expect((await sendAndSettle(owner, projectId, enquiryId)).op.status).toBe('succeeded');
              m.state = next;
            }
          } else if (c.kind === 'respond') {
            const all = new Set([...m.answered, c.supplier]).size === suppliers.length;
            const next = nextState(m.state, { act: 'respond', allSuppliersAnswered: all });
            price += 10_000;
            const call = owner.enquiries.recordEnquiryResponse.mutate({
              projectId,
              enquiryId,
              supplierId: suppliers[c.supplier]!,
              lines: [{ item: 1, tradePrice: { amount4: String(price) }, leadTimeDays: 10 }],
              commandKey: uuid(),
            });
            if (next === null) expect(await codeOf(call)).toBe('ENQUIRY_WRONG_STATE');
            else {
              const { response } = await call;
              m.responses.push({ id: response.id, sawLine: m.lineVersion, applied: false });
              m.answered.add(c.supplier);
              m.state = next;
            }
          } else if (c.kind === 'apply') {
            if (!m.responses.length) continue;
            const r = m.responses[c.pick % m.responses.length]!;
            const call = owner.enquiries.applyEnquiryResponse.mutate({
              projectId,
              enquiryId,
              responseId: r.id,
              expectedVersion: await version(),
              confirm: true,
            });
            const next = nextState(m.state, { act: 'apply' });
            if (r.applied || next === null) expect(await codeOf(call)).toBe('ENQUIRY_WRONG_STATE');
            else if (r.sawLine !== m.lineVersion) expect(await codeOf(call)).toBe('VERSION_CONFLICT');
            else {
              await call;
              r.applied = true;
              m.lineVersion += 1;
              m.state = next;
            }
          } else {
            const next = nextState(m.state, { act: 'close' });
            const call = owner.enquiries.closeEnquiry.mutate({
              projectId,
              enquiryId,
              expectedVersion: await version(),
            });
            if (next === null) expect(await codeOf(call)).toBe('ENQUIRY_WRONG_STATE');
            else {
              await call;
              m.state = next;
            }
          }
          const now = await owner.enquiries.getEnquiry.query({ projectId, enquiryId });
          expect(ENQUIRY_STATES).toContain(now.state);
          expect(now.state).toBe(m.state);
          expect(now.responses.map((x) => x.appliedAt !== null)).toEqual(m.responses.map((x) => x.applied));
          expect((await owner.schedule.getScheduleLine.query({ projectId, lineId: line.id })).version).toBe(
            m.lineVersion,
          );
        }
      }),
      { numRuns: 8 },
    );
  });
});
