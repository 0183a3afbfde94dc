/**
 * The client's projection of an estimate revision never carries the studio's margin, by name or by value: its schema
 * names no trade, markup, margin, cost, line or item and holds no priced field; and a revision offering a line priced
 * with distinctive trade figures and markups shows none of them, in any formatting, in the projection, nor in what
 * the studio's own estimate reads answer over tRPC and MCP, while its client prices do show.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { standaloneJsonSchema } from '../../src/contract/json-schema.js';
import { ONE, roundToPlaces } from '../../src/core/money.js';
import { walkSchema } from '../../src/core/schema-marks.js';
import { ClientEstimateRevision, readClientRevision } from '../../src/domain/estimates/client-revision.js';
import { callAction } from '../helpers/calls.js';
import type { Trpc } from '../helpers/clients.js';
import { fromOutside } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';
import { openTestAppWithMcp, type TestApp } from '../helpers/in-process.js';
import { keysIn, schemaPropertyNames } from '../helpers/json-keys.js';
import { leakForms } from '../helpers/leaks.js';
import { type PricedProject, pricedProject } from './fixture.js';

const FORBIDDEN_NAME = /trade|markup|margin|cost|line|item|plate|supplier/i;

describe('the schema of the client revision', () => {
  it('names nothing after trade, markup, margin, cost, line, item or supplier, and holds no priced field', () => {
    const names = [...schemaPropertyNames(standaloneJsonSchema(ClientEstimateRevision, 'output'))];
    expect(names).toEqual(expect.arrayContaining(['pieces', 'unitPrice', 'totals', 'deposit', 'digest', 'amount4']));
    expect(names.filter((n) => FORBIDDEN_NAME.test(n))).toEqual([]);
    const priced: string[] = [];
    walkSchema(ClientEstimateRevision, ({ path, mark }) => {
      if (mark.kind === 'priced') priced.push(path.join('.'));
    });
    expect(priced).toEqual([]);
  });
});

describe('the values', () => {
  let app: TestApp;
  let owner: Trpc;
  let mcp: Client;
  let p: PricedProject;
  const answers: Record<string, unknown> = {};
  openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));

  // The secret line: 3 × trade 98,765.4321 at a markup of 271.83 %; the hand-set line: trade 20.0000 under 33.3333.
  const trade4 = 987_654_321n;
  const markup4 = 27_183n;
  const secretForms = () =>
    leakForms([trade4, markup4, (trade4 * markup4) / ONE, 3n * trade4, (3n * trade4 * markup4) / ONE, 133_333n]);

  beforeAll(async () => {
    p = await pricedProject(owner, 'Leak check');
    const draft = await owner.estimates.createEstimate.mutate({
      projectId: p.projectId,
      lines: [{ lineId: p.secret.id }, { lineId: p.third.id }],
      commandKey: uuid(),
    });
    const revision = await owner.estimates.issueEstimateRevision.mutate({
      projectId: p.projectId,
      estimateId: draft.id,
      expectedVersion: draft.version,
      confirm: true,
    });
    answers.client = await fromOutside(app.database, (db) => readClientRevision(db, revision.id));
    answers.issued = revision;
    answers.estimate = await owner.estimates.getEstimate.query({ projectId: p.projectId, estimateId: draft.id });
    answers.mcpRevision = (
      await callAction(mcp, 'get_estimate_revision', { projectId: p.projectId, revisionId: revision.id })
    ).result;
  });

  it('the projection parses with its own schema and shows the client prices', () => {
    const client = ClientEstimateRevision.parse(answers.client);
    // 98,765.4321 × 3.7183 = 367,239.50612… a unit, offered at 367,239.51 (rounded once).
    expect(roundToPlaces(trade4 * (ONE + markup4), 8, 2)).toBe(3_672_395_100n);
    expect(client.pieces[0]!.unitPrice).toEqual({ amount4: '3672395100', currency: 'GBP' });
    expect(client.pieces[1]!.unitPrice).toEqual({ amount4: '333300', currency: 'GBP' });
    expect(client.state).toBe('current');
  });

  it('no trade price, markup or margin appears, in any formatting, in any answer', () => {
    const forms = secretForms();
    expect(forms).toContain('98,765.4321');
    for (const [where, answer] of Object.entries(answers)) {
      const text = JSON.stringify(answer);
      expect(
        forms.filter((f) => text.includes(f)),
        where,
      ).toEqual([]);
    }
    expect([...keysIn(answers.client)].filter((k) => FORBIDDEN_NAME.test(k))).toEqual([]);
  });
});
