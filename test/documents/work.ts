import { actorOf, appendAuditEvents } from '../../src/core/audit.js';
import { authenticate } from '../../src/core/auth.js';
import type { ActionContext, AuditInput } from '../../src/core/context.js';
import { newId, nowIso } from '../../src/core/ids.js';
import type { DocumentWork } from '../../src/domain/documents/work.js';
import type { TestApp } from '../helpers/in-process.js';

/**
 * Test setup only: the work environment an operation's job gives the documents functions (src/jobs JobContext's
 * store, files, progress and commit), acting for `token`'s member. `commit` writes in one transaction with its audit
 * events, as the operation runner's does; `progressed` records every progress report.
 */
export async function workFor(app: TestApp, token = app.token, action = 'generate_document') {
  const caller = await authenticate(app.rt.store, token);
  const progressed: Array<[number, number | undefined]> = [];
  const work: DocumentWork & { progressed: typeof progressed } = {
    store: app.rt.store,
    files: app.rt.files,
    config: app.rt.config,
    progressed,
    progress: async (completed, total) => void progressed.push([completed, total]),
    commit: (write) =>
      app.rt.store.write(async (tx, queryRow, memo) => {
        const now = nowIso();
        const events: AuditInput[] = [];
        const ctx: ActionContext = {
          db: tx,
          queryRow,
          config: app.rt.config,
          caller,
          studioId: caller.studioId,
          now,
          requestId: newId(),
          audit: (e) => void events.push(e),
          unchanged: () => {},
          afterCommit: (fn) => fn(),
        };
        const result = await write(ctx);
        await appendAuditEvents(
          { db: tx, memo },
          { studioId: caller.studioId, actor: actorOf(caller), action, at: now, events },
        );
        return result;
      }),
  };
  return work;
}
