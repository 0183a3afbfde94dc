/**
 * decide_estimate (`POST /v1/shares/{token}/decision`, and the advertised MCP tool): a decision through a decide
 * link, by plain HTTP without any Authorization header and over MCP, against a real SMTP server in this process. The
 * first call emails a code and answers 428 VERIFICATION_REQUIRED; a wrong code is counted; the right one decides the
 * exact revision (id and digest) line by line with exact totals. One decision per revision: the same key and body
 * replay it, anything else is 409. Superseded, voided or mis-digested revisions are 409 before any code is sent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { addAmount4 } from '../helpers/money.js';
import { callTool } from '../helpers/calls.js';
import type { Trpc } from '../helpers/clients.js';
import { fromOutside } from '../helpers/fixtures.js';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { uuid } from '../helpers/ids.js';
import { openMailServer, codeIn } from '../helpers/mail.js';
import { type DecideLink, decideLink, reissue, voided } from './fixture.js';

const mail = openMailServer();
let app: TestApp;
let owner: Trpc;
openTestApp((opened) => ({ app, owner } = opened), mail.env);

/** POST /v1/shares/{token}/decision as a client's script sends it: no Authorization header. */
async function decide(token: string, body: Record<string, unknown>, key: string | null = uuid()) {
  const res = await fetch(`${app.url}/v1/shares/${token}/decision`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** A by-line decision on the link's revision: the first piece declined, the rest accepted. */
const byLine = (link: DecideLink, extra: Record<string, unknown> = {}) => ({
  revisionId: link.revisionId,
  digest: link.digest,
  outcome: 'by_line',
  lines: link.pieceIds.map((pieceId, i) => ({ pieceId, outcome: i === 0 ? 'declined' : 'accepted' })),
  deciderName: 'Ann Harbour',
  comment: 'All but the first, thank you.',
  ...extra,
});

/** Asks for a code through the decision itself, and reads it from the email. */
async function codeFor(link: DecideLink) {
  const before = mail.received.length;
  const asked = await decide(link.token, byLine(link));
  expect(asked.status, JSON.stringify(asked.body)).toBe(428);
  const got = await mail.mailNumber(before + 1);
  return { asked, got, code: codeIn(got) };
}

let link: DecideLink;
beforeAll(async () => {
  link = await decideLink(app, owner, 3);
});

describe('deciding through the link, by plain HTTP', () => {
  it('emails a code and answers VERIFICATION_REQUIRED; a wrong code is counted; the right one decides by line', async () => {
    const { asked, got, code } = await codeFor(link);
    expect(asked.body).toMatchObject({ code: 'VERIFICATION_REQUIRED', sentTo: 'a•••@harbour.example' });
    expect(asked.headers.get('cache-control')).toBe('no-store');
    expect(got.to).toEqual(['ann@harbour.example']);
    expect(await decisionCount(link.revisionId)).toBe(0);

    const wrong = await decide(link.token, byLine(link, { verificationCode: code === '000000' ? '000001' : '000000' }));
    expect({ status: wrong.status, code: wrong.body.code, triesLeft: wrong.body.triesLeft }).toEqual({
      status: 403,
      code: 'VERIFICATION_FAILED',
      triesLeft: 4,
    });

    const key = uuid();
    const decided = await decide(link.token, byLine(link, { verificationCode: code }), key);
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    const accepted = link.gross.slice(1).reduce(addAmount4, '0');
    expect(decided.body).toMatchObject({
      revisionId: link.revisionId,
      revisionDigest: link.digest,
      outcome: 'partly_accepted',
      deciderName: 'Ann Harbour',
      decidedBy: { kind: 'client', shareId: link.shareId, verifiedEmail: 'ann@harbour.example' },
      accepted: { gross: { amount4: accepted } },
    });
    expect(await estimateState(link.estimateId)).toBe('partly_accepted');

    // What the verification proved is recorded with the decision it stands behind.
    const sessions = await fromOutside(app.database, (db) =>
      db.selectFrom('share_verified_sessions').selectAll().where('share_id', '=', link.shareId).execute(),
    );
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ email: 'ann@harbour.example', decision_id: decided.body.id });

    // The same key and body replay the first answer; another key, or the same key with another body, is refused.
    const replay = await decide(link.token, byLine(link, { verificationCode: code }), key);
    expect({ status: replay.status, body: replay.body }).toEqual({ status: 200, body: decided.body });
    const second = await decide(link.token, byLine(link, { verificationCode: code }));
    expect({ status: second.status, code: second.body.code }).toEqual({
      status: 409,
      code: 'REVISION_ALREADY_DECIDED',
    });
    const reused = await decide(link.token, byLine(link, { verificationCode: code, comment: 'Changed' }), key);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await decisionCount(link.revisionId)).toBe(1);

    // The link now shows the decision.
    const shown = (await (await fetch(`${app.url}/v1/shares/${link.token}/document`)).json()) as any;
    expect(shown.estimateRevision.decision).toMatchObject({ outcome: 'partly_accepted', deciderName: 'Ann Harbour' });
    expect(JSON.stringify(shown)).not.toContain('ann@harbour.example');
  });

  it('needs an Idempotency-Key', async () => {
    const res = await decide(link.token, byLine(link), null);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'IDEMPOTENCY_KEY_REQUIRED' });
  });
});

const estimateState = async (estimateId: string) =>
  (
    await fromOutside(app.database, (db) =>
      db.selectFrom('estimates').select('state').where('id', '=', estimateId).executeTakeFirstOrThrow(),
    )
  ).state;

const decisionCount = async (revisionId: string) =>
  (
    await fromOutside(app.database, (db) =>
      db.selectFrom('estimate_decisions').select('id').where('revision_id', '=', revisionId).execute(),
    )
  ).length;

describe('revisions that cannot be decided: 409 with their own code, before any code is sent', () => {
  it('a wrong digest, a superseded revision, a voided estimate', async () => {
    const fresh = await decideLink(app, owner, 2);
    const before = mail.received.length;
    const digest = await decide(fresh.token, byLine(fresh, { digest: 'f'.repeat(64) }));
    expect({ status: digest.status, code: digest.body.code }).toEqual({
      status: 409,
      code: 'REVISION_DIGEST_MISMATCH',
    });
    await reissue(app, fresh.estimateId);
    const superseded = await decide(fresh.token, byLine(fresh));
    expect({ status: superseded.status, code: superseded.body.code }).toEqual({
      status: 409,
      code: 'REVISION_SUPERSEDED',
    });
    const other = await decideLink(app, owner, 2);
    await voided(app, other.estimateId);
    const gone = await decide(other.token, byLine(other));
    expect({ status: gone.status, code: gone.body.code }).toEqual({ status: 409, code: 'REVISION_SUPERSEDED' });
    expect(mail.received.length).toBe(before);
  });

  it('a decide link names one revision: another revisionId is refused', async () => {
    const res = await decide(link.token, byLine(link, { revisionId: '0'.repeat(26) }));
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
  });
});

describe('over MCP: the advertised decide_estimate tool', () => {
  it('answers VERIFICATION_REQUIRED with the call to send again, then decides with the code', async () => {
    const fresh = await decideLink(app, owner, 2);
    const mcp = await app.mcp();
    const args = {
      token: fresh.token,
      revisionId: fresh.revisionId,
      digest: fresh.digest,
      outcome: 'accepted',
      deciderName: 'Ann Harbour',
      idempotencyKey: uuid(),
    };
    const before = mail.received.length;
    const first = await callTool(mcp, 'decide_estimate', args);
    expect(first.code).toBe('VERIFICATION_REQUIRED');
    expect(first.error).toMatchObject({
      sentTo: 'a•••@harbour.example',
      nextCall: { tool: 'decide_estimate', arguments: { ...args, verificationCode: expect.any(String) } },
    });
    const code = codeIn(await mail.mailNumber(before + 1));
    const done = await callTool(mcp, 'decide_estimate', { ...args, verificationCode: code });
    expect(done.error).toBeUndefined();
    expect(done.result).toMatchObject({ outcome: 'accepted', revisionId: fresh.revisionId });
  });
});
