import type { Config } from '../../config.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import type { RowReader } from '../../../db/store.js';
import { linkSecret } from '../../files/server-secret.js';
import { loadDocument } from './documents.js';
import { MEDIA_TYPES } from './formats.js';
import { DEFAULT_LINK_MINUTES, mintDownloadPath, verifyDownloadToken } from './links.js';

/**
 * download_document and download_project_package: a short-lived private link to one document of the caller's studio.
 * `kind` narrows it to packages for download_project_package (any other document is NOT_FOUND there).
 */
export async function downloadLink(
  ctx: Pick<ActionContext, 'db' | 'config' | 'studioId'>,
  req: { projectId: string; documentId: string; minutes?: number | undefined; packagesOnly?: boolean },
) {
  const doc = await loadDocument(ctx, req.projectId, req.documentId);
  if (req.packagesOnly && doc.kind !== 'project_package') {
    throw new ServiceError(
      'NOT_FOUND',
      `Document ${doc.id} is not a project package; download it with download_document, or make a package with create_project_package.`,
    );
  }
  const link = mintDownloadPath(
    await linkSecret(ctx.config),
    { documentId: doc.id, studioId: ctx.studioId },
    new Date(),
    req.minutes ?? DEFAULT_LINK_MINUTES,
  );
  return {
    documentId: doc.id,
    filename: doc.filename,
    mediaType: MEDIA_TYPES[doc.format],
    byteSize: doc.byte_size,
    url: `${ctx.config.baseUrl}${link.path}`,
    expiresAt: link.expiresAt,
  };
}

/** The file a working link names: where its bytes are and how to send them; undefined for every link that does not work. */
export async function openDownload(
  config: Pick<Config, 'secret' | 'databasePath'>,
  queryRow: RowReader,
  token: string,
  now = new Date(),
) {
  const target = verifyDownloadToken(await linkSecret(config), token, now);
  // An unknown document reads the same row shape as a known one; nothing tells the two apart but the answer.
  const row = await queryRow<{
    blob_sha256: string;
    byte_size: number;
    format: keyof typeof MEDIA_TYPES;
    filename: string;
  }>(
    'SELECT blob_sha256, byte_size, format, filename FROM documents WHERE id = ? AND studio_id = ?',
    target?.documentId ?? '',
    target?.studioId ?? '',
  );
  if (!target || !row) return undefined;
  return { sha256: row.blob_sha256, size: row.byte_size, mediaType: MEDIA_TYPES[row.format], filename: row.filename };
}
