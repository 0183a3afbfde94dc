/**
 * generate_document with kind estimate: an estimate revision rendered from its client projection, through the real
 * operation over MCP, read back with the documents' PDF helper (pdfText): the pieces in the estimate's words, their
 * client figures, the totals and the deposit, and no trade price, markup or margin in any form. The document names
 * its revision; the kind and estimateRevisionId go together.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/surfaces/share-page/format.js';
import type { Trpc } from '../helpers/clients.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { pricedProject, secretForms } from '../documents/fixture.js';
import { pdfText } from '../helpers/pdf.js';
import { issuedEstimate, pricedLines } from './fixture.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));

let projectId: string;
let revision: { revisionId: string; content: any };
beforeAll(async () => {
  projectId = (await pricedProject(owner)).id;
  revision = await issuedEstimate(app, await pricedLines(owner, projectId, 5), projectId);
});

/** A file tool through call_action, answered once its operation has finished. */
async function generate(args: Record<string, unknown>) {
  const res = await mcp.callTool(
    {
      name: 'call_action',
      arguments: { name: 'generate_document', arguments: { commandKey: crypto.randomUUID(), projectId, ...args } },
    },
    undefined,
    { onprogress: () => undefined, timeout: 120_000 },
  );
  return res.structuredContent as { result?: any; code?: string };
}

describe('an estimate as a PDF', () => {
  it('renders the revision as the client sees it, with no trade figure', async () => {
    const { result: op } = await generate({ kind: 'estimate', estimateRevisionId: revision.revisionId });
    expect(op).toMatchObject({ status: 'succeeded', kind: 'document_render' });
    expect(op.result).toMatchObject({
      kind: 'estimate',
      format: 'pdf',
      source: { kind: 'estimate_revision', revisionId: revision.revisionId },
    });
    const text = pdfText(app.rt.files.originalPath(op.result.sha256)).join('\n');
    const content = revision.content.content ?? (await readRevision());
    expect(content.pieces.length).toBeGreaterThan(1);
    expect(text).toContain('ESTIMATE 1, REVISION 1');
    for (const piece of content.pieces) expect(text).toContain(piece.wording);
    expect(text).toContain(`Total ${formatMoney(content.totals.gross)}`);
    expect(text).toContain(`Deposit ${formatMoney(content.deposit.amount)}`);
    // The spec: shown unit prices are rounded, totals are not built on them; the document says so.
    expect(text).toContain('Unit prices are rounded for display.');
    for (const form of secretForms()) expect(text, `trade figure ${form}`).not.toContain(form);
  });

  it('takes kind estimate and estimateRevisionId together, and only so', async () => {
    expect((await generate({ kind: 'estimate' })).code).toBe('VALIDATION_FAILED');
    expect((await generate({ estimateRevisionId: revision.revisionId })).code).toBe('VALIDATION_FAILED');
  });
});

/** The revision's client projection, as its decide link would show it. */
async function readRevision() {
  const got: any = await owner.estimates.getEstimateRevision.query({ projectId, revisionId: revision.revisionId });
  return got.content;
}
