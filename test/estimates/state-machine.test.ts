/**
 * The estimate's state machine, as a property: random sequences of the acts (adding, removing and changing lines,
 * changing terms, issuing, deciding the current or an earlier revision, whole or by line, voiding, duplicating) run
 * against the real server and a small model of what each should do. After every act: the refusal or success is the
 * one the model predicts, the estimate's state is legal, only its latest revision may be current (earlier ones are
 * superseded), a decision exists exactly on a decided revision, and every issued revision's content, totals and
 * digest are what they were when issued (and the digest is the SHA-256 of the content).
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { codeOf } from '../helpers/calls.js';
import type { Trpc } from '../helpers/clients.js';
import { uuid } from '../helpers/ids.js';
import { openTestApp } from '../helpers/in-process.js';
import { type PricedProject, pricedProject } from './fixture.js';

let owner: Trpc;
let p: PricedProject;
openTestApp((opened) => ({ owner } = opened));
beforeAll(async () => {
  p = await pricedProject(owner, 'State machine');
});

type LineKey = 'third' | 'derived' | 'toConfirm';
type Act =
  | { kind: 'add' | 'remove' | 'exclude'; line: LineKey }
  | { kind: 'terms'; deposit4: string }
  | { kind: 'issue' | 'accept' | 'decideEarlier' | 'void' | 'duplicate' }
  | { kind: 'byLine'; answers: boolean[] };

const lineKey = fc.constantFrom<LineKey>('third', 'derived', 'toConfirm');
const act: fc.Arbitrary<Act> = fc.oneof(
  fc.record({ kind: fc.constantFrom('add' as const, 'remove' as const, 'exclude' as const), line: lineKey }),
  fc.record({ kind: fc.constant('terms' as const), deposit4: fc.constantFrom('0', '3333', '10000') }),
  fc.record({
    kind: fc.constantFrom(
      'issue' as const,
      'accept' as const,
      'decideEarlier' as const,
      'void' as const,
      'duplicate' as const,
    ),
  }),
  fc.record({ kind: fc.constant('byLine' as const), answers: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }) }),
);

interface Frozen {
  id: string;
  digest: string;
  content: unknown;
  totals: unknown;
}

/** What the model expects of the estimate. */
interface Model {
  state: 'draft' | 'issued' | 'accepted' | 'partly_accepted' | 'declined' | 'voided';
  /** Offered lines, each with whether it is excluded from the total. */
  offered: Map<LineKey, { excluded: boolean }>;
  revisions: Frozen[];
}

const open = (m: Model) => m.state === 'draft' || m.state === 'issued';
const DECIDED = ['accepted', 'partly_accepted', 'declined'];

/** Runs one act against the server; answers the code it was refused with, or 'ok'. */
async function run(estimateId: string, m: Model, a: Act): Promise<{ got: string; expected: string }> {
  const read = await owner.estimates.getEstimate.query({ projectId: p.projectId, estimateId });
  const base = { projectId: p.projectId, estimateId, expectedVersion: read.version };
  const closed = open(m) ? null : 'ESTIMATE_CLOSED';
  const attempt = async (call: () => Promise<unknown>) => {
    try {
      await call();
      return 'ok';
    } catch (err) {
      return codeOf(Promise.reject(err));
    }
  };
  const lineOf = (k: LineKey) => read.lines.find((l) => l.lineId === p[k].id);
  const latest = m.revisions.at(-1);
  switch (a.kind) {
    case 'add': {
      const got = await attempt(() =>
        owner.estimates.addEstimateLines.mutate({ ...base, lines: [{ lineId: p[a.line].id }] }),
      );
      const expected = closed ?? (m.offered.has(a.line) ? 'VALIDATION_FAILED' : 'ok');
      if (got === 'ok') m.offered.set(a.line, { excluded: false });
      return { got, expected };
    }
    case 'remove': {
      const line = lineOf(a.line);
      if (!line) return { got: 'skipped', expected: 'skipped' };
      const got = await attempt(() =>
        owner.estimates.removeEstimateLines.mutate({ ...base, estimateLineIds: [line.id] }),
      );
      if (got === 'ok') m.offered.delete(a.line);
      return { got, expected: closed ?? 'ok' };
    }
    case 'exclude': {
      const line = lineOf(a.line);
      if (!line) return { got: 'skipped', expected: 'skipped' };
      const got = await attempt(() =>
        owner.estimates.updateEstimateDraft.mutate({
          ...base,
          lines: [{ estimateLineId: line.id, excludedFromTotal: true }],
        }),
      );
      if (got === 'ok') m.offered.set(a.line, { excluded: true });
      return { got, expected: closed ?? 'ok' };
    }
    case 'terms': {
      const got = await attempt(() =>
        owner.estimates.updateEstimateDraft.mutate({ ...base, depositPercent: { ratio4: a.deposit4 } }),
      );
      return { got, expected: closed ?? 'ok' };
    }
    case 'issue': {
      let revision: Frozen | undefined;
      const got = await attempt(async () => {
        revision = await owner.estimates.issueEstimateRevision.mutate({ ...base, confirm: true });
      });
      const unpriced = m.offered.get('toConfirm') && !m.offered.get('toConfirm')!.excluded;
      const expected = closed ?? (m.offered.size === 0 || unpriced ? 'ESTIMATE_INCOMPLETE' : 'ok');
      if (got === 'ok' && revision) {
        const { id, digest, content, totals } = revision;
        m.revisions.push({ id, digest, content, totals });
        m.state = 'issued';
      }
      return { got, expected };
    }
    case 'accept':
    case 'byLine':
    case 'decideEarlier': {
      const target = a.kind === 'decideEarlier' ? m.revisions.at(-2) : latest;
      if (!target) return { got: 'skipped', expected: 'skipped' };
      const pieces = (target.content as { pieces: Array<{ pieceId: string }> }).pieces;
      const answers = a.kind === 'byLine' ? pieces.map((_, i) => a.answers[i % a.answers.length]!) : null;
      const got = await attempt(() =>
        owner.estimates.recordEstimateDecision.mutate({
          projectId: p.projectId,
          revisionId: target.id,
          digest: target.digest,
          outcome: answers ? 'by_line' : 'accepted',
          ...(answers
            ? {
                lines: pieces.map((x, i) => ({
                  estimateLineId: x.pieceId,
                  outcome: answers[i] ? 'accepted' : 'declined',
                })),
              }
            : {}),
          deciderName: 'Clara',
          method: 'phone',
          commandKey: uuid(),
          confirm: true,
        } as never),
      );
      const expected =
        a.kind === 'decideEarlier' || m.state === 'voided'
          ? 'REVISION_SUPERSEDED'
          : DECIDED.includes(m.state)
            ? 'REVISION_ALREADY_DECIDED'
            : 'ok';
      if (got === 'ok') {
        m.state =
          !answers || answers.every(Boolean) ? 'accepted' : answers.some(Boolean) ? 'partly_accepted' : 'declined';
      }
      return { got, expected };
    }
    case 'void': {
      const got = await attempt(() => owner.estimates.voidEstimate.mutate({ ...base, reason: 'Model', confirm: true }));
      if (got === 'ok') m.state = 'voided';
      return { got, expected: closed ?? 'ok' };
    }
    case 'duplicate': {
      const got = await attempt(() =>
        owner.estimates.duplicateEstimate.mutate({ projectId: p.projectId, estimateId, commandKey: uuid() }),
      );
      return { got, expected: 'ok' };
    }
  }
}

/** The invariants that hold after any act. */
async function check(estimateId: string, m: Model) {
  const estimate = await owner.estimates.getEstimate.query({ projectId: p.projectId, estimateId });
  expect(estimate.state).toBe(m.state);
  expect(estimate.revisionCount).toBe(m.revisions.length);
  expect(estimate.currentRevisionId).toBe(m.revisions.at(-1)?.id ?? null);
  const listed = await owner.estimates.listEstimateRevisions.query({ projectId: p.projectId, estimateId });
  expect(listed.items.map((r) => r.number)).toEqual(m.revisions.map((_, i) => i + 1));
  const lastState = { draft: null, issued: 'current', voided: 'voided' }[m.state as string] ?? 'decided';
  for (const [i, frozen] of m.revisions.entries()) {
    const r = await owner.estimates.getEstimateRevision.query({ projectId: p.projectId, revisionId: frozen.id });
    expect(r.state).toBe(i === m.revisions.length - 1 ? lastState : 'superseded');
    expect({ content: r.content, digest: r.digest, totals: r.totals }).toEqual({
      content: frozen.content,
      digest: frozen.digest,
      totals: frozen.totals,
    });
    expect(r.digest).toBe(createHash('sha256').update(canonicalJson(r.content)).digest('hex'));
    expect(r.decision !== null).toBe(r.state === 'decided');
  }
}

describe('the estimate state machine', () => {
  it('random sequences of acts never reach an illegal state, and an issued revision never changes', async () => {
    const reached = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(act, { minLength: 1, maxLength: 9 }), async (acts) => {
        const made = await owner.estimates.createEstimate.mutate({
          projectId: p.projectId,
          lines: [{ lineId: p.third.id }],
          commandKey: uuid(),
        });
        const m: Model = { state: 'draft', offered: new Map([['third', { excluded: false }]]), revisions: [] };
        for (const a of acts) {
          const before = m.state;
          const { got, expected } = await run(made.id, m, a);
          expect(got, `${a.kind} in state ${before}`).toBe(expected);
          if (got === 'ok') reached.add(m.state);
          await check(made.id, m);
        }
      }),
      {
        numRuns: 14,
        // Besides the random runs, sequences that surely reach each end: decided whole, by line, and voided.
        examples: [
          [[{ kind: 'issue' }, { kind: 'accept' }, { kind: 'issue' }]],
          [
            [
              { kind: 'add', line: 'derived' },
              { kind: 'issue' },
              { kind: 'issue' },
              { kind: 'decideEarlier' },
              { kind: 'byLine', answers: [true, false, true] },
            ],
          ],
          [
            [
              { kind: 'add', line: 'toConfirm' },
              { kind: 'issue' },
              { kind: 'exclude', line: 'toConfirm' },
              { kind: 'issue' },
              { kind: 'void' },
              { kind: 'accept' },
            ],
          ],
        ],
      },
    );
    // Not vacuous: the runs issued, decided and voided estimates, not only refused acts on drafts.
    expect([...reached]).toEqual(expect.arrayContaining(['issued', 'accepted', 'partly_accepted', 'voided']));
  }, 120_000);
});
