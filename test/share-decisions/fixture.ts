import { createEstimate } from '../../src/domain/estimates/estimates.js';
import { issueEstimateRevision } from '../../src/domain/estimates/issue.js';
import { voidEstimate } from '../../src/domain/estimates/lifecycle.js';
import type { Trpc } from '../helpers/clients.js';
import type { TestApp } from '../helpers/in-process.js';
import { uuid } from '../helpers/ids.js';
import { rawRequest } from '../helpers/raw-http.js';
import { workFor } from '../documents/work.js';

/**
 * Test setup: an issued estimate of the demo project (Harbour House) made from its first priced lines, written by
 * the estimates domain's own functions for the studio's owner (as its procedures would), and a decide link of its
 * revision for ann@harbour.example, issued through issue_project_share as a studio does.
 */
export interface DecideLink {
  estimateId: string;
  revisionId: string;
  digest: string;
  pieceIds: string[];
  token: string;
  shareId: string;
  /** Gross of each piece, in order (scale-4 strings). */
  gross: string[];
}

/** The demo project's lines that have a set client price, in document order. */
export async function pricedLines(owner: Trpc, projectId: string, count: number) {
  const page = await owner.schedule.listScheduleLines.query({ projectId, limit: 500 });
  const priced = page.items.filter((l: any) => l.clientPrice?.state === 'set' && l.clientPrice.price);
  return priced.slice(0, count).map((l: any) => l.id as string);
}

/** A draft of `lines`, issued as revision 1. */
export async function issuedEstimate(app: TestApp, lineIds: readonly string[], projectId = app.projectId) {
  const work = await workFor(app, app.token, 'create_estimate');
  const estimate = await work.commit((ctx) =>
    createEstimate(
      ctx,
      projectId,
      { title: 'Harbour House: furniture', depositPercent: { ratio4: '3000' } } as never,
      lineIds.map((lineId) => ({ lineId })) as never,
    ),
  );
  return reissue(app, estimate.id, projectId);
}

/** Issues the estimate's draft again: its next revision (the earlier one is superseded). */
export async function reissue(app: TestApp, estimateId: string, projectId = app.projectId) {
  const work = await workFor(app, app.token, 'issue_estimate_revision');
  const revision = (await work.commit((ctx) => issueEstimateRevision(ctx, projectId, estimateId))) as any;
  return {
    estimateId,
    revisionId: revision.id as string,
    digest: revision.digest as string,
    content: revision,
  };
}

/** Voids the estimate, as void_estimate does. */
export async function voided(app: TestApp, estimateId: string, projectId = app.projectId) {
  const work = await workFor(app, app.token, 'void_estimate');
  await work.commit((ctx) => voidEstimate(ctx, projectId, estimateId, 'The client chose another scheme'));
}

/** A decide link of the revision, for ann@harbour.example. */
export async function decideShare(owner: Trpc, revisionId: string, projectId: string, expiresInDays?: number) {
  const share = await owner.shares.issueProjectShare.mutate({
    projectId,
    intent: 'decide',
    estimateRevisionId: revisionId,
    recipientEmail: 'ann@harbour.example',
    commandKey: uuid(),
    confirm: true,
    ...(expiresInDays ? { expiresInDays } : {}),
  });
  return { token: share.token!, shareId: share.id };
}

/** An issued estimate of `count` priced demo lines and its decide link, with what the client reads of it. */
export async function decideLink(app: TestApp, owner: Trpc, count = 3): Promise<DecideLink> {
  const lines = await pricedLines(owner, app.projectId, count);
  const { estimateId, revisionId } = await issuedEstimate(app, lines);
  const { token, shareId } = await decideShare(owner, revisionId, app.projectId);
  const shown = (await (await fetch(`${app.url}/v1/shares/${token}/document`)).json()) as any;
  const revision = shown.estimateRevision.revision;
  return {
    estimateId,
    revisionId,
    digest: revision.digest,
    pieceIds: revision.pieces.map((p: any) => p.pieceId),
    gross: revision.pieces.map((p: any) => p.gross.amount4),
    token,
    shareId,
  };
}

/** The share page's "email me a code" form sent as a browser sends it (its answer waits for the mail server). */
export function askForCode(app: TestApp, link: DecideLink) {
  return rawRequest(app.url, {
    method: 'POST',
    path: `/s/${link.token}/code`,
    headers: [['Content-Type', 'application/x-www-form-urlencoded']],
    body: '',
  });
}
