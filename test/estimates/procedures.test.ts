/**
 * The estimates domain (12 procedures) through the typed tRPC client and MCP call_action: a draft copied from the
 * schedule, issued as frozen revisions with exact totals (tax per line rounded once, then summed; the deposit of the
 * gross), superseded by the next issue, decided once on the exact revision (id and digest), voided and duplicated;
 * every refusal with its stable code.
 */
import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { allPages, callAction, codeOf } from '../helpers/calls.js';
import { type Trpc, trpc } from '../helpers/clients.js';
import { floatsIn, fromOutside, memberWithToken } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';
import { openTestAppWithMcp, type TestApp } from '../helpers/in-process.js';
import { draftOf, issuedEstimate, type PricedProject, pricedProject, recordDecision } from './fixture.js';
import { gbp } from '../helpers/money.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let p: PricedProject;
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  p = await pricedProject(owner);
});

describe('a draft, copied from the schedule', () => {
  it('copies wording, quantity and the client price rounded once to the minor unit, and totals what it can', async () => {
    const draft = await draftOf(owner, p);
    expect(draft).toMatchObject({ state: 'draft', revisionCount: 0, currentRevisionId: null, version: 1 });
    const [third, derived, tbc] = draft.lines;
    expect(third).toMatchObject({
      wording: 'Velvet armchair',
      quantity: { amount4: '30000' },
      unitPrice: { state: 'set', price: gbp('333300') },
      net: gbp('999900'),
      tax: gbp('200000'),
      gross: gbp('1199900'),
    });
    // 2.5 × 12.3450 × 1.35 = 41.664375 exact, but the offer is 16.67 a unit (16.66575 rounded once): 41.675 → 41.68.
    expect(derived).toMatchObject({ unitPrice: { price: gbp('166700') }, net: gbp('416800'), tax: gbp('20800') });
    expect(tbc).toMatchObject({ unitPrice: { state: 'tbc', price: null }, net: null, excludedFromTotal: false });
    expect(draft.draftTotals).toEqual({
      net: gbp('1416700'),
      tax: gbp('220800'),
      gross: gbp('1637500'),
      deposit: gbp('545800'), // 33.33 % of 163.75 = 54.577875 → 54.58
      piecesToPrice: 1,
    });
    expect(floatsIn(draft)).toEqual([]);
  });

  it('lists and reads estimates by state and title, over tRPC and MCP', async () => {
    const draft = await draftOf(owner, p, { title: 'Findable cushions' });
    const found = await owner.estimates.listEstimates.query({ projectId: p.projectId, q: 'findable' });
    expect(found.items.map((e) => e.id)).toEqual([draft.id]);
    const drafts = await allPages((cursor) =>
      owner.estimates.listEstimates.query({ projectId: p.projectId, state: 'draft', limit: 1, cursor }),
    );
    expect(drafts.map((e) => e.id)).toContain(draft.id);
    expect(drafts.every((e) => e.state === 'draft')).toBe(true);
    const viaMcp = await callAction(mcp, 'get_estimate', { projectId: p.projectId, estimateId: draft.id });
    expect(viaMcp.result.lines.map((l: { wording: string }) => l.wording)).toEqual(draft.lines.map((l) => l.wording));
    const elsewhere = await owner.projects.createStudioProject.mutate({ name: 'Other', commandKey: uuid() });
    expect(await codeOf(owner.estimates.getEstimate.query({ projectId: elsewhere.id, estimateId: draft.id }))).toBe(
      'NOT_FOUND',
    );
  });

  it('adds, changes and removes lines under the estimate’s version; refuses a line twice or an archived one', async () => {
    const draft = await owner.estimates.createEstimate.mutate({ projectId: p.projectId, commandKey: uuid() });
    expect(draft.title).toBe(`Estimate check: estimate ${draft.number}`);
    const added = await owner.estimates.addEstimateLines.mutate({
      projectId: p.projectId,
      estimateId: draft.id,
      expectedVersion: 1,
      lines: [{ lineId: p.third.id, wording: 'Armchair in velvet', unitPrice: { state: 'set', amount4: '500000' } }],
    });
    expect(added.version).toBe(2);
    expect(added.lines[0]).toMatchObject({ wording: 'Armchair in velvet', unitPrice: { price: gbp('500000') } });
    const stale = owner.estimates.addEstimateLines.mutate({
      projectId: p.projectId,
      estimateId: draft.id,
      expectedVersion: 1,
      lines: [{ lineId: p.derived.id }],
    });
    expect(await codeOf(stale)).toBe('VERSION_CONFLICT');
    const twice = owner.estimates.addEstimateLines.mutate({
      projectId: p.projectId,
      estimateId: draft.id,
      expectedVersion: 2,
      lines: [{ lineId: p.third.id }],
    });
    expect(await codeOf(twice)).toBe('VALIDATION_FAILED');
    const gone = await owner.schedule.createScheduleLine.mutate({
      projectId: p.projectId,
      sectionId: p.sectionId,
      heading: 'Withdrawn lamp',
      commandKey: uuid(),
    });
    await owner.schedule.archiveScheduleLine.mutate({ projectId: p.projectId, lineId: gone.id, expectedVersion: 1 });
    const archived = owner.estimates.addEstimateLines.mutate({
      projectId: p.projectId,
      estimateId: draft.id,
      expectedVersion: 2,
      lines: [{ lineId: gone.id }],
    });
    expect(await codeOf(archived)).toBe('ARCHIVED');
    const changed = await owner.estimates.updateEstimateDraft.mutate({
      projectId: p.projectId,
      estimateId: draft.id,
      expectedVersion: 2,
      lines: [{ estimateLineId: added.lines[0]!.id, quantity: { amount4: '20000' } }],
    });
    expect(changed).toMatchObject({ version: 3, lines: [{ net: gbp('1000000'), version: 2 }] });
    const removed = await owner.estimates.removeEstimateLines.mutate({
      projectId: p.projectId,
      estimateId: draft.id,
      expectedVersion: 3,
      estimateLineIds: [added.lines[0]!.id],
    });
    expect(removed).toMatchObject({ version: 4, lines: [] });
    const again = owner.estimates.removeEstimateLines.mutate({
      projectId: p.projectId,
      estimateId: draft.id,
      expectedVersion: 4,
      estimateLineIds: [added.lines[0]!.id],
    });
    expect(await codeOf(again)).toBe('NOT_FOUND');
    const nothing = owner.estimates.updateEstimateDraft.mutate({
      projectId: p.projectId,
      estimateId: draft.id,
      expectedVersion: 4,
    });
    expect(await codeOf(nothing)).toBe('VALIDATION_FAILED');
  });
});

describe('issue_estimate_revision', () => {
  it('asks the person, refuses a line to price or an empty draft, and freezes exact totals with their digest', async () => {
    const draft = await draftOf(owner, p);
    // A refusal comes before the question: nobody is asked to agree to what cannot be issued.
    const unasked = owner.estimates.issueEstimateRevision.mutate({
      projectId: p.projectId,
      estimateId: draft.id,
      expectedVersion: 1,
    });
    expect(await codeOf(unasked)).toBe('ESTIMATE_INCOMPLETE');
    const unpriced = owner.estimates.issueEstimateRevision.mutate({
      projectId: p.projectId,
      estimateId: draft.id,
      expectedVersion: 1,
      confirm: true,
    });
    expect(await codeOf(unpriced)).toBe('ESTIMATE_INCOMPLETE');
    const empty = await owner.estimates.createEstimate.mutate({ projectId: p.projectId, commandKey: uuid() });
    const none = owner.estimates.issueEstimateRevision.mutate({
      projectId: p.projectId,
      estimateId: empty.id,
      expectedVersion: 1,
      confirm: true,
    });
    expect(await codeOf(none)).toBe('ESTIMATE_INCOMPLETE');
    const ready = await owner.estimates.updateEstimateDraft.mutate({
      projectId: p.projectId,
      estimateId: draft.id,
      expectedVersion: 1,
      lines: [{ estimateLineId: draft.lines[2]!.id, unitPrice: { state: 'set', amount4: '1000000' } }],
    });
    const ask = owner.estimates.issueEstimateRevision.mutate({
      projectId: p.projectId,
      estimateId: draft.id,
      expectedVersion: ready.version,
    });
    expect(await codeOf(ask)).toBe('CONFIRMATION_REQUIRED');
    expect(await owner.estimates.listEstimateRevisions.query({ projectId: p.projectId, estimateId: draft.id })).toEqual(
      {
        items: [],
        nextCursor: null,
      },
    );

    const { revision } = await issuedEstimate(owner, p);
    expect(revision).toMatchObject({
      number: 1,
      state: 'current',
      decision: null,
      totals: { net: gbp('1416700'), tax: gbp('220800'), gross: gbp('1637500') },
      deposit: gbp('545800'),
    });
    const { content } = revision;
    expect(content.pieces).toHaveLength(3);
    expect(content.leftOutOfTotal).toEqual([
      { pieceId: content.pieces[2]!.pieceId, wording: 'Bespoke rug', reason: 'tbc' },
    ]);
    expect(revision.digest).toBe(createHash('sha256').update(canonicalJson(content)).digest('hex'));
    expect(floatsIn(revision)).toEqual([]);
  });

  it('supersedes revision N with N + 1 and never changes what N froze', async () => {
    const { estimate, revision: first } = await issuedEstimate(owner, p);
    const read = await owner.estimates.getEstimate.query({ projectId: p.projectId, estimateId: estimate.id });
    expect(read).toMatchObject({ state: 'issued', revisionCount: 1, currentRevisionId: first.id });
    const derived = read.lines.find((l) => l.lineId === p.derived.id)!;
    const edited = await owner.estimates.removeEstimateLines.mutate({
      projectId: p.projectId,
      estimateId: estimate.id,
      expectedVersion: read.version,
      estimateLineIds: [derived.id],
    });
    const second = await owner.estimates.issueEstimateRevision.mutate({
      projectId: p.projectId,
      estimateId: estimate.id,
      expectedVersion: edited.version,
      confirm: true,
    });
    expect(second).toMatchObject({ number: 2, state: 'current', totals: { gross: gbp('1199900') } });
    const before = await owner.estimates.getEstimateRevision.query({ projectId: p.projectId, revisionId: first.id });
    expect(before.state).toBe('superseded');
    expect({ content: before.content, digest: before.digest, totals: before.totals }).toEqual({
      content: first.content,
      digest: first.digest,
      totals: first.totals,
    });
    const list = await owner.estimates.listEstimateRevisions.query({ projectId: p.projectId, estimateId: estimate.id });
    expect(list.items.map((r) => [r.number, r.state])).toEqual([
      [1, 'superseded'],
      [2, 'current'],
    ]);
    expect(list.items[0]).not.toHaveProperty('content');
    const viaMcp = await callAction(mcp, 'list_estimate_revisions', {
      projectId: p.projectId,
      estimateId: estimate.id,
      sort: '-number',
    });
    expect(viaMcp.result.items.map((r: { number: number }) => r.number)).toEqual([2, 1]);
  });

  it('refuses a valid-until date already past', async () => {
    const draft = await draftOf(owner, p, { validUntil: '2020-01-31', lines: [{ lineId: p.third.id }] });
    const late = owner.estimates.issueEstimateRevision.mutate({
      projectId: p.projectId,
      estimateId: draft.id,
      expectedVersion: 1,
      confirm: true,
    });
    expect(await codeOf(late)).toBe('VALIDATION_FAILED');
  });
});

describe('record_estimate_decision', () => {
  const decide = (revision: { id: string; digest: string }, extra: Record<string, unknown> = {}) =>
    recordDecision(owner, p.projectId, revision, extra);

  it('decides the current revision once; refuses a superseded one, another digest, and a second decision', async () => {
    const { estimate, revision: first } = await issuedEstimate(owner, p);
    const second = await owner.estimates.issueEstimateRevision.mutate({
      projectId: p.projectId,
      estimateId: estimate.id,
      expectedVersion: estimate.version + 1,
      confirm: true,
    });
    expect(await codeOf(decide(first))).toBe('REVISION_SUPERSEDED');
    expect(await codeOf(decide({ id: second.id, digest: first.digest }))).toBe('REVISION_DIGEST_MISMATCH');
    expect(await codeOf(decide(second, { confirm: undefined }))).toBe('CONFIRMATION_REQUIRED');
    const decision = await decide(second, { comment: 'Lovely.', note: 'Rang at nine.' });
    expect(decision).toMatchObject({
      outcome: 'accepted',
      revisionId: second.id,
      revisionDigest: second.digest,
      accepted: { net: gbp('1416700'), tax: gbp('220800'), gross: gbp('1637500') },
      deposit: gbp('545800'),
      deciderName: 'Clara Penhaligon',
      decidedBy: { kind: 'studio', method: 'phone', note: 'Rang at nine.' },
    });
    expect(decision.pieces).toHaveLength(3);
    expect(await codeOf(decide(second))).toBe('REVISION_ALREADY_DECIDED');
    const read = await owner.estimates.getEstimate.query({ projectId: p.projectId, estimateId: estimate.id });
    expect(read.state).toBe('accepted');
    const closed = owner.estimates.updateEstimateDraft.mutate({
      projectId: p.projectId,
      estimateId: estimate.id,
      expectedVersion: read.version,
      title: 'Too late',
    });
    expect(await codeOf(closed)).toBe('ESTIMATE_CLOSED');
    const rev = await owner.estimates.getEstimateRevision.query({ projectId: p.projectId, revisionId: second.id });
    expect(rev).toMatchObject({ state: 'decided', decision: { id: decision.id } });
    const feed = await owner.audit.listProjectAuditEvents.query({ projectId: p.projectId, targetId: decision.id });
    expect(feed.items.map((e) => [e.action, e.target.kind])).toEqual([
      ['record_estimate_decision', 'estimate_decision'],
    ]);
    const issued = await owner.audit.listProjectAuditEvents.query({ projectId: p.projectId, targetId: second.id });
    expect(issued.items.map((e) => e.action)).toEqual(['issue_estimate_revision']);
  });

  it('decides line by line over MCP: partly_accepted, with the accepted pieces summed as issued', async () => {
    const { estimate, revision } = await issuedEstimate(owner, p);
    const [third, derived, rug] = revision.content.pieces.map((x) => x.pieceId);
    const missing = await callAction(mcp, 'record_estimate_decision', {
      projectId: p.projectId,
      revisionId: revision.id,
      digest: revision.digest,
      outcome: 'by_line',
      lines: [{ estimateLineId: third, outcome: 'accepted' }],
      deciderName: 'Clara Penhaligon',
      method: 'email',
      commandKey: uuid(),
      confirm: true,
    });
    expect(missing.code).toBe('VALIDATION_FAILED');
    const out = await callAction(mcp, 'record_estimate_decision', {
      projectId: p.projectId,
      revisionId: revision.id,
      digest: revision.digest,
      outcome: 'by_line',
      lines: [
        { estimateLineId: third, outcome: 'accepted' },
        { estimateLineId: derived, outcome: 'declined' },
        { estimateLineId: rug, outcome: 'accepted' },
      ],
      deciderName: 'Clara Penhaligon',
      method: 'email',
      commandKey: uuid(),
      confirm: true,
    });
    expect(out.result).toMatchObject({
      outcome: 'partly_accepted',
      accepted: { net: gbp('999900'), tax: gbp('200000'), gross: gbp('1199900') },
      deposit: gbp('399900'), // 33.33 % of 119.99 = 39.993 → 39.99; the rug is excluded from the total
    });
    const read = await owner.estimates.getEstimate.query({ projectId: p.projectId, estimateId: estimate.id });
    expect(read.state).toBe('partly_accepted');
  });

  it('of two decisions racing, or a decision racing a void, exactly one is recorded and the states agree', async () => {
    const { revision } = await issuedEstimate(owner, p);
    const both = await Promise.allSettled([decide(revision), decide(revision, { outcome: 'declined' })]);
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = both.find((r) => r.status === 'rejected')!;
    expect(await codeOf(Promise.reject((lost as PromiseRejectedResult).reason))).toBe('REVISION_ALREADY_DECIDED');

    const other = await issuedEstimate(owner, p);
    const voiding = owner.estimates.voidEstimate.mutate({
      projectId: p.projectId,
      estimateId: other.estimate.id,
      expectedVersion: other.estimate.version + 1,
      reason: 'Race',
      confirm: true,
    });
    const [v, d] = await Promise.allSettled([voiding, decide(other.revision)]);
    expect([v.status, d.status].filter((x) => x === 'fulfilled')).toHaveLength(1);
    const estimate = await owner.estimates.getEstimate.query({ projectId: p.projectId, estimateId: other.estimate.id });
    const rev = await owner.estimates.getEstimateRevision.query({
      projectId: p.projectId,
      revisionId: other.revision.id,
    });
    expect([estimate.state, rev.state]).toEqual(
      v.status === 'fulfilled' ? ['voided', 'voided'] : ['accepted', 'decided'],
    );
  });

  it('refuses a revision past its valid-until date (expired is shown on read, not stored)', async () => {
    const { revision } = await issuedEstimate(owner, p);
    await fromOutside(app.database, (db) =>
      db.updateTable('estimate_revisions').set({ valid_until: '2020-01-01' }).where('id', '=', revision.id).execute(),
    );
    const read = await owner.estimates.getEstimateRevision.query({ projectId: p.projectId, revisionId: revision.id });
    expect(read.state).toBe('expired');
    expect(await codeOf(decide(revision))).toBe('REVISION_EXPIRED');
  });
});

describe('void_estimate and duplicate_estimate', () => {
  it('voids with a reason and the person’s agreement: the revision can no longer be decided', async () => {
    const { estimate, revision } = await issuedEstimate(owner, p);
    const version = estimate.version + 1;
    const ask = owner.estimates.voidEstimate.mutate({
      projectId: p.projectId,
      estimateId: estimate.id,
      expectedVersion: version,
      reason: 'Client chose another scheme.',
    });
    expect(await codeOf(ask)).toBe('CONFIRMATION_REQUIRED');
    const voided = await owner.estimates.voidEstimate.mutate({
      projectId: p.projectId,
      estimateId: estimate.id,
      expectedVersion: version,
      reason: 'Client chose another scheme.',
      confirm: true,
    });
    expect(voided).toMatchObject({ state: 'voided', voidReason: 'Client chose another scheme.' });
    const read = await owner.estimates.getEstimateRevision.query({ projectId: p.projectId, revisionId: revision.id });
    expect(read.state).toBe('voided');
    const late = recordDecision(owner, p.projectId, revision, { deciderName: 'Clara', method: 'other' });
    expect(await codeOf(late)).toBe('REVISION_SUPERSEDED');
    const twice = owner.estimates.voidEstimate.mutate({
      projectId: p.projectId,
      estimateId: estimate.id,
      expectedVersion: voided.version,
      reason: 'Again',
      confirm: true,
    });
    expect(await codeOf(twice)).toBe('ESTIMATE_CLOSED');
  });

  it('duplicates a revision exactly as issued, or a draft as it stands, into a new numbered draft', async () => {
    const { estimate, revision } = await issuedEstimate(owner, p);
    const copy = await owner.estimates.duplicateEstimate.mutate({
      projectId: p.projectId,
      revisionId: revision.id,
      commandKey: uuid(),
    });
    expect(copy).toMatchObject({ state: 'draft', duplicatedFrom: revision.id, title: estimate.title });
    expect(copy.number).toBeGreaterThan(estimate.number);
    expect(copy.draftTotals).toMatchObject({ gross: revision.totals.gross, deposit: revision.deposit });
    expect(copy.lines.map((l) => [l.wording, l.unitPrice, l.taxRate, l.excludedFromTotal])).toEqual(
      revision.content.pieces.map((x) => [
        x.wording,
        { state: x.priceState, price: x.unitPrice },
        x.taxRate,
        x.excludedFromTotal,
      ]),
    );
    const fromDraft = await callAction(mcp, 'duplicate_estimate', {
      projectId: p.projectId,
      estimateId: estimate.id,
      title: 'Option B',
      commandKey: uuid(),
    });
    expect(fromDraft.result).toMatchObject({ title: 'Option B', duplicatedFrom: estimate.id });
    const both = owner.estimates.duplicateEstimate.mutate({
      projectId: p.projectId,
      estimateId: estimate.id,
      revisionId: revision.id,
      commandKey: uuid(),
    });
    expect(await codeOf(both)).toBe('VALIDATION_FAILED');
  });
});

describe('permissions', () => {
  it('an assistant reads estimates (procurement:read) but cannot make or issue one', async () => {
    const { estimate } = await issuedEstimate(owner, p);
    const assistant = await memberWithToken(app.database, 'assistant', [{ projectId: p.projectId, level: 'edit' }]);
    const as = trpc(app.url, assistant.token);
    const read = await as.estimates.getEstimate.query({ projectId: p.projectId, estimateId: estimate.id });
    expect(read.lines[0]!.unitPrice.price).toEqual(gbp('333300'));
    expect(await codeOf(as.estimates.createEstimate.mutate({ projectId: p.projectId, commandKey: uuid() }))).toBe(
      'FORBIDDEN',
    );
  });
});
