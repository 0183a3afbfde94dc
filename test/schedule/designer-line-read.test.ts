/**
 * A designer reaches a project by its grant, checked on every read. Reading one line, the grant comes in the line's own
 * row (the grant on the line's project, joined into its read), so a designer's GET is one statement, run alone on
 * SQLite like an owner's; and the grant is judged exactly as the access check's own read would judge it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, openTestApp } from '../helpers/in-process.js';
import { http, type Trpc } from '../helpers/clients.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { codeOf } from '../helpers/calls.js';
import { trpc } from '../helpers/clients.js';
import { projectWithLine } from '../helpers/schedule.js';

let app: TestApp;
let owner: Trpc;
openTestApp((opened) => ({ app, owner } = opened));

let granted: Awaited<ReturnType<typeof projectWithLine>>;
let ungranted: Awaited<ReturnType<typeof projectWithLine>>;
let viewer: { token: string; memberId: string };

beforeAll(async () => {
  granted = await projectWithLine(owner, 'Granted job', 'Granted chair');
  ungranted = await projectWithLine(owner, 'Other job', 'Other chair');
  viewer = await memberWithToken(app.database, 'designer', [{ projectId: granted.project.id, level: 'view' }]);
});

const itemPath = (projectId: string, lineId: string) => `/v1/projects/${projectId}/items/${lineId}`;

/**
 * How many times the store ran the read while `fn` ran: a read run alone that asks for a second statement runs again
 * in a snapshot (Store.readAlone), so 1 is one statement and no snapshot. Undefined where reads always take a
 * snapshot (PostgreSQL).
 */
async function runsOfReadAlone(fn: () => Promise<unknown>): Promise<number | undefined> {
  const store = app.rt.store;
  const original = store.readAlone;
  if (!original) {
    await fn();
    return undefined;
  }
  let runs = 0;
  store.readAlone = (read) =>
    original((db, queryRow) => {
      runs++;
      return read(db, queryRow);
    });
  try {
    await fn();
  } finally {
    store.readAlone = original;
  }
  return runs;
}

describe("a designer's read of one line", () => {
  it('answers the line as its owner reads it, with the same tag, in one statement run alone on SQLite', async () => {
    const path = itemPath(granted.project.id, granted.line.id);
    const asOwner = await http(app.url, 'GET', path, { token: app.token });
    let asViewer!: Awaited<ReturnType<typeof http>>;
    const runs = await runsOfReadAlone(async () => {
      asViewer = await http(app.url, 'GET', path, { token: viewer.token });
    });
    expect(asViewer.status).toBe(200);
    expect(JSON.stringify(asViewer.body)).toBe(JSON.stringify(asOwner.body));
    expect(asViewer.headers.get('etag')).toBe(asOwner.headers.get('etag'));
    if (runs !== undefined) expect(runs).toBe(1);
  });

  it('answers 404 for a line of a project the designer has no grant on, over REST and tRPC', async () => {
    const path = itemPath(ungranted.project.id, ungranted.line.id);
    expect((await http(app.url, 'GET', path, { token: viewer.token })).status).toBe(404);
    expect(
      await codeOf(
        trpc(app.url, viewer.token).schedule.getScheduleLine.query({
          projectId: ungranted.project.id,
          lineId: ungranted.line.id,
        }),
      ),
    ).toBe('NOT_FOUND');
  });

  it("answers 404 for another project's line named under the granted project, and never lends one project's grant to another", async () => {
    const crossed = await http(app.url, 'GET', itemPath(granted.project.id, ungranted.line.id), {
      token: viewer.token,
    });
    expect(crossed.status).toBe(404);
    expect(crossed.body.code).toBe('NOT_FOUND');
    const reversed = await http(app.url, 'GET', itemPath(ungranted.project.id, granted.line.id), {
      token: viewer.token,
    });
    expect(reversed.status).toBe(404);
  });

  it('stops answering as soon as the grant is revoked', async () => {
    const other = await memberWithToken(app.database, 'designer', [{ projectId: granted.project.id, level: 'edit' }]);
    const path = itemPath(granted.project.id, granted.line.id);
    expect((await http(app.url, 'GET', path, { token: other.token })).status).toBe(200);
    await owner.projects.revokeProjectAccess.mutate({ projectId: granted.project.id, memberId: other.memberId });
    expect((await http(app.url, 'GET', path, { token: other.token })).status).toBe(404);
  });
});
