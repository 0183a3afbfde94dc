/**
 * A token's expiry applies from the moment it passes, even while this process keeps the token's row for a moment
 * after reading it (src/core/auth.ts keeps a token for TOKEN_CACHE_MS).
 */
import { describe, expect, it } from 'vitest';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { http } from '../helpers/clients.js';
import { fromOutside, memberWithToken } from '../helpers/fixtures.js';
import { TOKEN_CACHE_MS } from '../../src/core/auth.js';

let app: TestApp;
openTestApp((opened) => ({ app } = opened));

const status = async (token: string) => (await http(app.url, 'GET', '/v1/projects', { token })).status;

describe("a kept token's expiry", () => {
  it('refuses the token from the moment it expires, though it was read and kept a moment before', async () => {
    const designer = await memberWithToken(app.database, 'designer');
    // A token that expires well inside the time its row is kept: read once (kept), then asked again after expiry.
    const lifetime = Math.floor(TOKEN_CACHE_MS / 2);
    const expires = Date.now() + lifetime;
    await fromOutside(app.database, (db) =>
      db
        .updateTable('api_tokens')
        .set({ expires_at: new Date(expires).toISOString() })
        .where('member_id', '=', designer.memberId)
        .execute(),
    );
    const askedAt = Date.now();
    const before = await status(designer.token);
    // On a machine too slow to ask within the lifetime the token is refused already, which is the same promise.
    if (Date.now() < expires) expect(before).toBe(200);
    else if (askedAt >= expires) expect(before).toBe(401);
    await new Promise((r) => setTimeout(r, Math.max(0, expires - Date.now() + 5)));
    expect(await status(designer.token)).toBe(401);
  });
});
