/**
 * Every decide-link token that does not work gets one refusal: unknown, malformed, revoked, expired, a view link's
 * token, and a link revoked after the client verified (by the time the decision lands) all answer 403 FORBIDDEN with
 * identical headers and body (the request id aside), revealing nothing. The revocation is raced against the decision
 * for real: whichever commits first wins, and the loser gets exactly that refusal, with nothing decided.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Trpc } from '../helpers/clients.js';
import { fromOutside } from '../helpers/fixtures.js';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { uuid } from '../helpers/ids.js';
import { openMailServer, codeIn } from '../helpers/mail.js';
import { issueShare } from '../shares/fixture.js';
import { type DecideLink, decideLink } from './fixture.js';

const mail = openMailServer();
let app: TestApp;
let owner: Trpc;
openTestApp((opened) => ({ app, owner } = opened), mail.env);

/** Headers a difference could be read in; date and connection details aside. */
const HEADERS = ['content-type', 'content-length', 'cache-control', 'referrer-policy', 'www-authenticate'];

async function decide(token: string, link: DecideLink, verificationCode?: string) {
  const res = await fetch(`${app.url}/v1/shares/${token}/decision`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': uuid() },
    body: JSON.stringify({
      revisionId: link.revisionId,
      digest: link.digest,
      outcome: 'accepted',
      deciderName: 'Ann Harbour',
      ...(verificationCode ? { verificationCode } : {}),
    }),
  });
  const { requestId: _r, ...body } = (await res.json()) as Record<string, unknown>;
  return { status: res.status, headers: Object.fromEntries(HEADERS.map((h) => [h, res.headers.get(h)])), body };
}

/** A code for the link, asked for through the decision and read from its email. */
async function verifiedCode(link: DecideLink) {
  const before = mail.received.length;
  const asked = await decide(link.token, link);
  expect(asked.status).toBe(428);
  return codeIn(await mail.mailNumber(before + 1));
}

const revoke = (shareId: string) =>
  owner.shares.revokeProjectShare.mutate({ projectId: app.projectId, shareId, commandKey: uuid() });

const decisions = async (revisionId: string) =>
  (
    await fromOutside(app.database, (db) =>
      db.selectFrom('estimate_decisions').select('id').where('revision_id', '=', revisionId).execute(),
    )
  ).length;

let link: DecideLink;
let reference: Awaited<ReturnType<typeof decide>>;
beforeAll(async () => {
  link = await decideLink(app, owner, 2);
  reference = await decide(`share_${randomBytes(32).toString('base64url')}`, link);
});

describe('one refusal for every token that does not work', () => {
  it('unknown, malformed, revoked, expired and a view link answer the same 403, headers and body', async () => {
    expect(reference.status).toBe(403);
    expect(reference.body).toMatchObject({ code: 'FORBIDDEN' });
    expect(String(reference.body.detail)).toMatch(/no longer available; ask the studio/);

    const revoked = await decideLink(app, owner, 1);
    await revoke(revoked.shareId);
    const expired = await decideLink(app, owner, 1);
    await fromOutside(app.database, (db) =>
      db
        .updateTable('shares')
        .set({ expires_at: '2000-01-01T00:00:00.000Z' })
        .where('id', '=', expired.shareId)
        .execute(),
    );
    const view = await issueShare(owner, app.projectId);
    const tokens: Record<string, string> = {
      malformed: 'not-a-share-token',
      'NUL (percent-encoded)': '%00',
      'far too long': 'x'.repeat(3000),
      revoked: revoked.token,
      expired: expired.token,
      'a view link': view.token,
    };
    for (const [why, token] of Object.entries(tokens)) expect(await decide(token, link), why).toEqual(reference);
    expect(mail.received.length).toBe(0);
  });

  it('a link revoked after the client verified: the decision with the right code gets the same 403', async () => {
    const fresh = await decideLink(app, owner, 1);
    const code = await verifiedCode(fresh);
    await revoke(fresh.shareId);
    expect(await decide(fresh.token, fresh, code)).toEqual(reference);
    expect(await decisions(fresh.revisionId)).toBe(0);
  });

  it('a revocation raced against the decision: the decision or the same 403, never anything else', async () => {
    // The decision leaves 0 to 150 ms after the revocation: early on they overlap in flight (either may commit first),
    // by the end the revocation has committed before the decision opens its transaction.
    const offsets = [0, 0, 2, 5, 10, 20, 40, 150];
    const outcomes: number[] = [];
    for (const offset of offsets) {
      const fresh = await decideLink(app, owner, 1);
      const code = await verifiedCode(fresh);
      const revoking = revoke(fresh.shareId);
      const answer = await new Promise((r) => setTimeout(r, offset)).then(() => decide(fresh.token, fresh, code));
      await revoking;
      outcomes.push(answer.status);
      if (answer.status === 200) {
        expect(answer.body).toMatchObject({ outcome: 'accepted', revisionId: fresh.revisionId });
        expect(await decisions(fresh.revisionId)).toBe(1);
      } else {
        expect(answer, `offset ${offset} ms`).toEqual(reference);
        expect(await decisions(fresh.revisionId)).toBe(0);
      }
      // Either way the link is revoked now: the next call gets the refusal.
      expect(await decide(fresh.token, fresh, code)).toEqual(reference);
    }
    console.log(
      `race outcomes by offset ${offsets.join('/')} ms (200: decided first, 403: revoked first): ${outcomes.join(' ')}`,
    );
    expect(outcomes.every((s) => s === 200 || s === 403)).toBe(true);
    expect(outcomes.at(-1)).toBe(403);
  });
});
