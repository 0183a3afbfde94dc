import { readFile } from 'node:fs/promises';
import { defineJob } from '../../jobs/job.js';
import { type CommitJob, commitAccepted, IMPORT_COMMIT_KIND, settleCommit } from './commit.js';
import { type PasteJob, applyPaste, PASTE_KIND } from './paste.js';
import { type PreviewJob, IMPORT_PREVIEW_KIND, previewAccepted } from './preview-job.js';

/**
 * The imports' long acts, run by the operation workers. Every one writes in the job's one commit, so a crash (even
 * kill -9 mid-write) leaves all of it or nothing, and a retried job never applies twice: the commit checks the import
 * is still `committing` under this operation. The rows are written in one transaction, so an operation's progress goes
 * from none to all of its rows when that transaction commits.
 */
export const IMPORT_COMMIT = defineJob<CommitJob, unknown>({
  kind: IMPORT_COMMIT_KIND,
  run: (job) => job.commit((ctx) => commitAccepted(ctx, job.input, job.operationId)),
  settle: (tx, end) => settleCommit(tx, end.input, end.operationId, end.status, end.now),
});

export const IMPORT_PREVIEW = defineJob<PreviewJob, unknown>({
  kind: IMPORT_PREVIEW_KIND,
  run: (job) => job.commit((ctx) => previewAccepted(ctx, job.input)),
});

export const PASTE_LINES = defineJob<PasteJob, unknown>({
  kind: PASTE_KIND,
  run: async (job) => {
    const text = await readFile(job.files.originalPath(job.input.textSha256), 'utf8');
    return job.commit((ctx) => applyPaste(ctx, job.input, text));
  },
});
