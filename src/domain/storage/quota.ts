import type { Db } from '../../../db/store.js';
import type { PrepareEnv } from '../../core/define-action.js';
import { ServiceError } from '../../core/errors.js';
import { studioKeeps, studioStorage } from './references.js';

/** Bytes as a person reads them in a sentence: 512 bytes, 30 KiB, 1.5 MiB, 2.0 GiB. */
function readable(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 ** 2) return `${Math.ceil(bytes / 1024)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
}

/** A file an upload brings: its size, and its digest, since a file the studio keeps already adds nothing. */
export interface IncomingFile {
  size: number;
  sha256: string;
}

/**
 * Refuses, with 413 STORAGE_QUOTA_EXCEEDED, an act that would take the studio's storage past the server's quota
 * (STUDIO_STORAGE_QUOTA_BYTES; 0 is none). An upload is refused when its file would pass the quota, unless the studio
 * keeps that file already (the same photograph again, or a retry of an upload that went through); an act whose file
 * is not known yet (a render, a package) is refused once the studio is at its quota. Called before any work is done
 * or anything kept, so a refusal leaves nothing behind.
 */
export async function assertStorageRoom(db: Db, studioId: string, quota: number, file?: IncomingFile) {
  if (!quota) return;
  const { bytes } = await studioStorage(db, studioId);
  if (file ? bytes + file.size <= quota || (await studioKeeps(db, studioId, file.sha256)) : bytes < quota) return;
  throw new ServiceError(
    'STORAGE_QUOTA_EXCEEDED',
    `The studio's files take ${readable(bytes)} of its ${readable(quota)} quota${file ? `, and this file is ${readable(file.size)} more` : ''}, so nothing was kept. Remove photographs or cancel imports the studio no longer needs (get_studio_usage shows the figure), or ask whoever runs the server to raise STUDIO_STORAGE_QUOTA_BYTES.`,
    { extra: { storageBytes: bytes, quotaBytes: quota } },
  );
}

/** The same check for an upload received (staged, not yet read or kept): on its own snapshot, no transaction is open. */
export async function assertUploadRoom(env: PrepareEnv, file: IncomingFile) {
  const { studioId } = env;
  const quota = env.config.storageQuotaBytes;
  if (!studioId || !quota) return;
  await env.store.readSnapshot((db) => assertStorageRoom(db, studioId, quota, file));
}
