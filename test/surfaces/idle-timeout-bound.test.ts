/**
 * The idle timeout's one exception (a connection waiting on the answer to a request that arrived whole is left open,
 * test/surfaces/idle-timeout.test.ts) has a bound: an answer that does not come within MOST_SPARED idle timeouts gives
 * up its connection, so a stuck answer never holds one for good. The answer here is the share page's "email me a code"
 * form, behind a mail server (smtp-server, in this process) that accepts only long after that bound.
 */
import { describe, expect, it } from 'vitest';
import type { Trpc } from '../helpers/clients.js';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { openMailServer } from '../helpers/mail.js';
import { askForCode, decideLink } from '../share-decisions/fixture.js';
import { MOST_SPARED } from '../../src/surfaces/idle-timeout.js';

const IDLE_MS = 150;
/** Far past the bound: the answer would come only after the connection was given up. */
const ACCEPT_AFTER_MS = 2 * MOST_SPARED * IDLE_MS;

const mail = openMailServer({ acceptAfterMs: ACCEPT_AFTER_MS });
let app: TestApp;
let owner: Trpc;
openTestApp(
  (opened) => ({ app, owner } = opened),
  () => ({ ...mail.env(), STUDIO_IDLE_TIMEOUT_MS: String(IDLE_MS), STUDIO_KEEP_ALIVE_TIMEOUT_MS: String(IDLE_MS) }),
);

describe('an answer that does not come', () => {
  it(`gives up its connection after ${MOST_SPARED} idle timeouts, not before`, async () => {
    const link = await decideLink(app, owner);
    const started = performance.now();
    const outcome = await askForCode(app, link).then(
      (res) => `answered ${res.status}`,
      (err: Error) => `closed: ${err.message}`,
    );
    const waited = performance.now() - started;
    expect(outcome).toMatch(/^closed/);
    // Spared through every idle timeout up to the bound (the timer fires about once per idle timeout), then closed
    // well before the answer would have come.
    expect(waited).toBeGreaterThanOrEqual(MOST_SPARED * IDLE_MS);
    expect(waited).toBeLessThan(ACCEPT_AFTER_MS);
  });
});
