/**
 * The one-time codes that verify a share's recipient (NIST SP 800-63B's out-of-band codes), against the real store on
 * both dialects and a real SMTP server in this process: a code arrives by email and is kept only as a salted digest;
 * it works once, for 10 minutes, and only the newest works; 5 wrong tries in a row lock the link for the day, and a
 * new code does not reset them; 10 codes a day at most; a correct code opens a 30-minute session bound to its share.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/core/errors.js';
import { maskEmail } from '../../src/domain/share-verification/codes.js';
import { sendCodeMail } from '../../src/domain/share-verification/mail.js';
import { liveSession } from '../../src/domain/share-verification/sessions.js';
import { checkCode, requestCode } from '../../src/domain/share-verification/verify.js';
import type { Trpc } from '../helpers/clients.js';
import { fromOutside } from '../helpers/fixtures.js';
import { type TestApp, createTestApp, openTestApp } from '../helpers/in-process.js';
import { openMailServer, codeIn } from '../helpers/mail.js';

const mail = openMailServer();
let app: TestApp;
let owner: Trpc;
openTestApp((opened) => ({ app, owner } = opened), mail.env);

/** A fresh share of the demo project for ann@marsden.example, by id. */
async function freshShare() {
  const share = await owner.shares.issueProjectShare.mutate({
    projectId: app.projectId,
    recipientEmail: 'ann@marsden.example',
    commandKey: crypto.randomUUID(),
    confirm: true,
  });
  return share.id;
}

/** Asks for a code as the link's holder does (its write committed), sends its email, and reads the code from it. */
async function codeFor(shareId: string, at = new Date().toISOString()) {
  const sent = await app.rt.store.write((db) => requestCode(db, app.rt.config, shareId, at));
  const before = mail.received.length;
  await sendCodeMail(app.rt.config, sent.mail);
  const got = await mail.mailNumber(before + 1);
  return { sent, got, code: codeIn(got) };
}

const check = (shareId: string, code: string, at = new Date().toISOString()) =>
  app.rt.store.write((db) => checkCode(db, shareId, code, at));

const refusalOf = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
};

/** A code that is not `code` (the next one along). */
const other = (code: string) => ((Number(code) + 1) % 1_000_000).toString().padStart(6, '0');

describe('a code sent and used', () => {
  it('arrives by email to the recipient, is stored only as a salted digest, and opens a 30-minute session once', async () => {
    const shareId = await freshShare();
    const { sent, got, code } = await codeFor(shareId);
    expect(got.to).toEqual(['ann@marsden.example']);
    expect(got.mail.subject).toContain(code);
    expect(sent.sentTo).toBe('a•••@marsden.example');
    expect(Date.parse(sent.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(Date.parse(sent.expiresAt) - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    const rows = await fromOutside(app.database, (db) =>
      db.selectFrom('share_verification_codes').selectAll().where('share_id', '=', shareId).execute(),
    );
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);

    const ok = await check(shareId, code);
    if (!ok.ok) throw ok.refusal;
    expect(ok.session.email).toBe('ann@marsden.example');
    expect(Date.parse(ok.session.expiresAt) - Date.parse(ok.session.verifiedAt)).toBe(30 * 60_000);
    const now = new Date().toISOString();
    expect(await app.rt.store.readSnapshot((db) => liveSession(db, shareId, ok.secret, now))).toMatchObject({
      id: ok.session.id,
    });
    // Bound to its share, and to its 30 minutes.
    const elsewhere = await freshShare();
    expect(await app.rt.store.readSnapshot((db) => liveSession(db, elsewhere, ok.secret, now))).toBeUndefined();
    const later = new Date(Date.now() + 31 * 60_000).toISOString();
    expect(await app.rt.store.readSnapshot((db) => liveSession(db, shareId, ok.secret, later))).toBeUndefined();

    // Spent by its first correct use.
    const again = await check(shareId, code);
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.refusal.code).toBe('VERIFICATION_FAILED');
  });

  it('works for 10 minutes only, and only the newest code works', async () => {
    const shareId = await freshShare();
    const first = await codeFor(shareId);
    const second = await codeFor(shareId);
    const stale = await check(shareId, first.code);
    expect(stale.ok).toBe(first.code === second.code);
    const eleven = new Date(Date.now() + 11 * 60_000).toISOString();
    const expired = await check(shareId, second.code, eleven);
    expect(expired.ok).toBe(false);
    if (!expired.ok) expect(expired.refusal.detail).toMatch(/No code works for this link now/);
  });
});

describe('limits', () => {
  it('5 wrong tries in a row lock the link, and a new code does not reset them', async () => {
    const shareId = await freshShare();
    const first = await codeFor(shareId);
    const lefts: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await check(shareId, other(first.code));
      if (!r.ok) lefts.push(r.refusal.extra?.triesLeft);
    }
    expect(lefts).toEqual([4, 3, 2]);
    const second = await codeFor(shareId);
    for (let i = 0; i < 2; i++) {
      const r = await check(shareId, other(second.code));
      if (!r.ok) lefts.push(r.refusal.extra?.triesLeft);
    }
    expect(lefts).toEqual([4, 3, 2, 1, 0]);
    // Locked: even the right code is refused, and no new code is sent.
    expect((await refusalOf(check(shareId, second.code))).code).toBe('VERIFICATION_LIMITED');
    expect((await refusalOf(codeFor(shareId))).code).toBe('VERIFICATION_LIMITED');
    // A day later the tries have left the window.
    const tomorrow = new Date(Date.now() + 25 * 3600_000).toISOString();
    const fresh = await codeFor(shareId, tomorrow);
    expect((await check(shareId, fresh.code, tomorrow)).ok).toBe(true);
  });

  it('a correct code clears the wrong tries before it', async () => {
    const shareId = await freshShare();
    const { code } = await codeFor(shareId);
    for (let i = 0; i < 4; i++) await check(shareId, other(code));
    expect((await check(shareId, code)).ok).toBe(true);
    const next = await codeFor(shareId);
    const wrong = await check(shareId, other(next.code));
    expect(wrong.ok ? null : wrong.refusal.extra?.triesLeft).toBe(4);
  });

  it('at most 10 codes per share in 24 hours', async () => {
    const shareId = await freshShare();
    const at = new Date().toISOString();
    for (let i = 0; i < 10; i++) await app.rt.store.write((db) => requestCode(db, app.rt.config, shareId, at));
    const eleventh = await refusalOf(app.rt.store.write((db) => requestCode(db, app.rt.config, shareId, at)));
    expect(eleventh.code).toBe('VERIFICATION_LIMITED');
    expect(eleventh.extra?.retryAfter).toBe(new Date(Date.parse(at) + 24 * 3600_000).toISOString());
    // Another share of the same project has its own count.
    const other = await freshShare();
    await app.rt.store.write((db) => requestCode(db, app.rt.config, other, at));
  });

  it('masks an address to its first character and domain', () => {
    expect(maskEmail('ann.marsden@example.com')).toBe('a•••@example.com');
    expect(maskEmail('x@y.example')).toBe('x•••@y.example');
  });
});

describe('without a mail server', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await createTestApp();
    return () => bare.close();
  });

  it('no code is recorded: the studio must record the decision itself', async () => {
    const err = await refusalOf(bare.rt.store.write((db) => requestCode(db, bare.rt.config, 'nothing', 'now')));
    expect(err.code).toBe('DELIVERY_NOT_CONFIGURED');
    expect(err.detail).toMatch(/record_estimate_decision/);
  });
});
