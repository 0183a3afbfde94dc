import type { Store } from '../../../db/store.js';
import type { Config } from '../../config.js';
import type { ActionContext } from '../../core/context.js';
import { nowIso } from '../../core/ids.js';
import type { BlobStore } from '../../files/blob-store.js';

/**
 * What making a document needs, in the shape of an operation's job (src/jobs: JobContext), so an operation runs these
 * functions as they are: read in a snapshot, do the slow work (render, write the file) outside any transaction, then
 * one `commit` that records the result. Nothing slow ever runs while the writer is held.
 */
export interface DocumentWork {
  store: Store;
  files: BlobStore;
  config: Config;
  /** How far the work is: `completed` of `total` units; where a cancel takes effect (it throws). */
  progress?(completed: number, total?: number): Promise<void>;
  /** The one write: runs `write` in a transaction acting for the member the work is for, with its audit events. */
  commit<R>(write: (ctx: ActionContext) => Promise<R>): Promise<R>;
}

/** Reads in one consistent snapshot, with the time the read is as of. */
export const readNow = <T>(
  work: Pick<DocumentWork, 'store'>,
  read: (ctx: Pick<ActionContext, 'db' | 'queryRow' | 'now'>) => Promise<T>,
) => work.store.readSnapshot((db, queryRow) => read({ db, queryRow, now: nowIso() }));
