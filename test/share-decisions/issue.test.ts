/**
 * issue_project_share with intent decide: a link to one exact estimate revision, the estimate's current one, for a
 * named recipient (the client verifies that mailbox before deciding). Refused without a recipient or a revision, for
 * a revision no decision can be made on, and for another project's revision; asked of the person like any share.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { codeOf } from '../helpers/calls.js';
import type { Trpc } from '../helpers/clients.js';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { uuid } from '../helpers/ids.js';
import { decideShare, issuedEstimate, pricedLines, reissue } from './fixture.js';

let app: TestApp;
let owner: Trpc;
openTestApp((opened) => ({ app, owner } = opened));

let revisionId: string;
let estimateId: string;
beforeAll(async () => {
  ({ revisionId, estimateId } = await issuedEstimate(app, await pricedLines(owner, app.projectId, 2)));
});

const issue = (fields: Record<string, unknown>) =>
  owner.shares.issueProjectShare.mutate({
    projectId: app.projectId,
    commandKey: uuid(),
    confirm: true,
    ...fields,
  } as never);

describe('a decide link', () => {
  it('names the one revision, with intent decide, for its recipient', async () => {
    const share = await decideShare(owner, revisionId, app.projectId);
    const read = await owner.shares.getProjectShare.query({ projectId: app.projectId, shareId: share.shareId });
    expect(read).toMatchObject({
      document: { kind: 'estimate_revision', id: revisionId },
      intent: 'decide',
      recipientEmail: 'ann@harbour.example',
      state: 'live',
    });
    const shown = (await (await fetch(`${app.url}/v1/shares/${share.token}/document`)).json()) as any;
    expect(shown).toMatchObject({ intent: 'decide', document: null, estimateRevision: { decision: null } });
    expect(shown.estimateRevision.revision).toMatchObject({ revisionId, state: 'current', revisionNumber: 1 });
    expect(shown.estimateRevision.revision.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('asks the person what the client will be able to accept, with the total', async () => {
    const asked = await owner.shares.issueProjectShare
      .mutate({
        projectId: app.projectId,
        intent: 'decide',
        estimateRevisionId: revisionId,
        recipientEmail: 'ann@harbour.example',
        commandKey: uuid(),
      })
      .catch((e: any) => e);
    expect(asked.data?.serviceCode).toBe('CONFIRMATION_REQUIRED');
    expect(asked.message).toMatch(
      /accept or decline revision 1 of "Harbour House: furniture" \(GBP [\d,.]+ including tax\)/,
    );
  });

  it('is refused without a recipient or a revision, and for a view intent with a revision', async () => {
    expect(await codeOf(issue({ intent: 'decide', estimateRevisionId: revisionId }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(issue({ intent: 'decide', recipientEmail: 'ann@harbour.example' }))).toBe('VALIDATION_FAILED');
    expect(
      await codeOf(issue({ intent: 'view', estimateRevisionId: revisionId, recipientEmail: 'ann@harbour.example' })),
    ).toBe('VALIDATION_FAILED');
  });

  it('is refused for a superseded revision (409) and for an id that is not a revision of this project (404)', async () => {
    const { revisionId: second } = await reissue(app, estimateId);
    expect(
      await codeOf(issue({ intent: 'decide', estimateRevisionId: revisionId, recipientEmail: 'a@b.example' })),
    ).toBe('REVISION_SUPERSEDED');
    const other = await owner.projects.createStudioProject.mutate({ name: 'Elsewhere', commandKey: uuid() });
    expect(
      await codeOf(
        owner.shares.issueProjectShare.mutate({
          projectId: other.id,
          intent: 'decide',
          estimateRevisionId: second,
          recipientEmail: 'a@b.example',
          commandKey: uuid(),
          confirm: true,
        }),
      ),
    ).toBe('NOT_FOUND');
  });
});
