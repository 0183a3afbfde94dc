/**
 * The client document never carries the studio's margin, by name or by value (seed: "No field under the client
 * document may carry the studio's margin"; naming rule 4: a row there is a piece). Two proofs over every client-facing
 * output: (1) no property name in its JSON Schema says trade, markup, margin, cost, line, item or plate, and nothing
 * in it is a priced field; (2) a project priced with distinctive trade prices and markups shows none of those figures,
 * in any formatting, in what any client-facing action answers, while its client prices do show.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ACTIONS } from '../../actions/index.js';
import { CLIENT_FACING_SCHEMAS } from '../../actions/shared/client-facing.js';
import { Line } from '../../actions/schedule/records.js';
import { standaloneJsonSchema } from '../../src/contract/json-schema.js';
import { ONE, roundToPlaces } from '../../src/core/money.js';
import { walkSchema } from '../../src/core/schema-marks.js';
import { callAction, callTool } from '../helpers/calls.js';
import { http, type Trpc } from '../helpers/clients.js';
import { openTestAppWithMcp, type TestApp } from '../helpers/in-process.js';
import { uuid } from '../helpers/ids.js';
import { leakForms, marginForms } from '../helpers/leaks.js';
import { keysIn, schemaPropertyNames } from '../helpers/json-keys.js';

const FORBIDDEN_NAME = /trade|markup|margin|cost|line|item|plate/i;

/** Every action whose output is a client-facing schema: the shared document joins by being added to that list. */
const clientFacing = ACTIONS.filter((a) => Object.values(CLIENT_FACING_SCHEMAS).includes(a.output));

describe('(1) the schemas of every client-facing output', () => {
  it('cover the client document, its preview, the /v1 resource, minting, both version reads and the shared document', () => {
    expect(clientFacing.map((a) => a.name).sort()).toEqual(
      expect.arrayContaining([
        'get_client_document',
        'get_client_document_version',
        'get_project_client_document',
        'get_shared_document',
        'list_client_document_versions',
        'mint_client_document',
        'preview_client_document',
      ]),
    );
  });

  it('the walk reads nested and shared shapes (Money through $defs), and would catch a line', () => {
    const names = schemaPropertyNames(standaloneJsonSchema(CLIENT_FACING_SCHEMAS.ClientDocument!, 'output'));
    for (const n of ['sections', 'pieces', 'unitPrice', 'photographs', 'removedPieces', 'amount4', 'currency']) {
      expect(names, n).toContain(n);
    }
    const line = [...schemaPropertyNames(standaloneJsonSchema(Line, 'output'))].filter((n) => FORBIDDEN_NAME.test(n));
    expect(line).toEqual(expect.arrayContaining(['tradePrice', 'markup', 'margin']));
  });

  const schemas: Array<[string, z.ZodType]> = [
    ...Object.entries(CLIENT_FACING_SCHEMAS),
    ...clientFacing.map((a) => [`output of ${a.name}`, a.output] as [string, z.ZodType]),
  ];

  it.each(schemas)('%s names no property after trade, markup, margin, cost, line, item or plate', (_name, schema) => {
    const names = [...schemaPropertyNames(standaloneJsonSchema(schema, 'output'))];
    expect(names.length).toBeGreaterThan(3);
    expect(names.filter((n) => FORBIDDEN_NAME.test(n))).toEqual([]);
  });

  it.each(schemas)('%s holds no priced field, so nothing in it depends on pricing:read', (_name, schema) => {
    const priced: string[] = [];
    walkSchema(schema, ({ path, mark }) => {
      if (mark.kind === 'priced') priced.push(path.join('.'));
    });
    expect(priced).toEqual([]);
  });
});

describe('(2) the values of every client-facing output', () => {
  let app: TestApp;
  let owner: Trpc;
  let mcp: Client;
  let projectId: string;
  /** What each client-facing action answered, by where it came from. */
  const answers: Record<string, unknown> = {};

  // Distinctive figures: a trade price of 98,765.4321 at a markup of 271.83%, three of them; and a hand-set client
  // price of 20,000.00 over a trade price of 12,312.3123.
  const trade4 = 987_654_321n;
  const markup4 = 27_183n;
  const quantity4 = 30_000n;
  const handTrade4 = 123_123_123n;
  const handClient4 = 200_000_000n;

  /** Each amount the studio keeps to itself, in every formatting a leak could take. */
  function secretForms(): string[] {
    const figures = { trade4, markup4, quantity4, handTrade4, handClient4 };
    // …and the hand-set line's margin as a ratio of its trade price.
    return [...marginForms(figures), ...leakForms([((handClient4 - handTrade4) * 10_000n) / handTrade4])];
  }

  openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
  beforeAll(async () => {
    const p = await owner.projects.createStudioProject.mutate({
      name: 'Leak check',
      sections: ['Salon'],
      commandKey: uuid(),
    });
    projectId = p.id;
    const sectionId = p.sections[0]!.id;
    await owner.schedule.createScheduleLine.mutate({
      projectId,
      sectionId,
      heading: 'Gilded console',
      commandKey: uuid(),
      quantity: { amount4: quantity4.toString() },
      tradePrice: { state: 'set', amount4: trade4.toString() },
      markup: { ratio4: markup4.toString() },
    });
    const hand = await owner.schedule.createScheduleLine.mutate({
      projectId,
      sectionId,
      heading: 'Chandelier',
      commandKey: uuid(),
      tradePrice: { state: 'set', amount4: handTrade4.toString() },
      clientPrice: { state: 'set', amount4: handClient4.toString() },
    });
    // A removed piece too: it must not bring its prices along.
    const gone = await owner.schedule.createScheduleLine.mutate({
      projectId,
      sectionId,
      heading: 'Side table',
      commandKey: uuid(),
      tradePrice: { state: 'set', amount4: trade4.toString() },
      markup: { ratio4: markup4.toString() },
    });
    await owner.schedule.archiveScheduleLine.mutate({ projectId, lineId: gone.id, expectedVersion: gone.version });
    expect(hand.clientPrice.price?.amount4).toBe(handClient4.toString());

    const minted = await owner.clientDocument.mintClientDocument.mutate({ projectId, commandKey: uuid() });
    answers.mint = minted;
    answers.get = await owner.clientDocument.getProjectClientDocument.query({ projectId });
    answers.preview = await owner.clientDocument.previewClientDocument.query({ projectId });
    answers.list = await owner.clientDocument.listClientDocumentVersions.query({ projectId });
    answers.version = await owner.clientDocument.getClientDocumentVersion.query({ projectId, number: 1 });
    answers.rest = (await http(app.url, 'GET', `/v1/projects/${projectId}/client-document`, { token: app.token })).body;
    answers.mcpGet = (await callAction(mcp, 'get_project_client_document', { projectId })).result;
    answers.mcpPreview = (await callAction(mcp, 'preview_client_document', { projectId })).result;
    answers.mcpVersion = (await callAction(mcp, 'get_client_document_version', { projectId, number: 1 })).result;
    // The shared document, as its anonymous holder reads it over HTTP and as an agent reads it over MCP.
    const { token } = await owner.shares.issueProjectShare.mutate({ projectId, commandKey: uuid(), confirm: true });
    answers.shared = (await http(app.url, 'GET', `/v1/shares/${token}/document`)).body;
    answers.mcpShared = (
      await callTool(mcp, 'call_action', { name: 'get_shared_document', arguments: { token } })
    ).result?.result;
  });

  it('the schedule itself does hold the figures the client must not see (the check below is not vacuous)', async () => {
    const line = (await owner.schedule.listScheduleLines.query({ projectId })).items[0]!;
    const json = JSON.stringify(line);
    expect(json).toContain(trade4.toString());
    expect(json).toContain(markup4.toString());
    expect(secretForms()).toContain('98,765.4321');
    for (const [where, answer] of Object.entries(answers)) expect(answer, where).toBeDefined();
  });

  it('no trade price, markup or margin appears, in any formatting, in any answer', () => {
    const forms = secretForms();
    for (const [where, answer] of Object.entries(answers)) {
      const text = JSON.stringify(answer);
      expect(
        forms.filter((f) => text.includes(f)),
        where,
      ).toEqual([]);
      expect(
        [...keysIn(answer)].filter((k) => FORBIDDEN_NAME.test(k)),
        where,
      ).toEqual([]);
    }
  });

  it('while the client prices do appear, rounded for display', () => {
    const rate8 = trade4 * (ONE + markup4);
    const unit = roundToPlaces(rate8, 8, 2).toString();
    const total = roundToPlaces(quantity4 * rate8, 12, 2).toString();
    for (const where of ['get', 'preview', 'rest', 'mcpGet', 'mcpPreview', 'mint', 'version', 'shared', 'mcpShared']) {
      const text = JSON.stringify(answers[where]);
      for (const amount of [unit, total, handClient4.toString()])
        expect(text, `${where}: ${amount}`).toContain(`"${amount}"`);
    }
  });
});
