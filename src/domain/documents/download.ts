import type { Config } from '../../config.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import type { RowReader } from '../../../db/store.js';
import { linkSecret } from '../../files/server-secret.js';
import { loadDocument } from './documents.js';
import { linkBase } from '../serving/heartbeat.js';
import { MEDIA_TYPES } from './formats.js';
import { DEFAULT_LINK_MINUTES, type DownloadTarget, mintDownloadPath, verifyDownloadToken } from './links.js';

/**
 * download_document and download_project_package: a short-lived private link to one document of the caller's studio.
 * `kind` narrows it to packages for download_project_package (any other document is NOT_FOUND there).
 */
export async function downloadLink(
  ctx: Pick<ActionContext, 'db' | 'queryRow' | 'config' | 'studioId' | 'caller'>,
  req: { projectId: string; documentId: string; minutes?: number | undefined; packagesOnly?: boolean },
) {
  const doc = await loadDocument(ctx, req.projectId, req.documentId);
  if (req.packagesOnly && doc.kind !== 'project_package') {
    throw new ServiceError(
      'NOT_FOUND',
      `Document ${doc.id} is not a project package; download it with download_document, or make a package with create_project_package.`,
    );
  }
  if (!ctx.caller) throw new ServiceError('FORBIDDEN', 'A download link is made by a member of the studio.');
  const link = mintDownloadPath(
    await linkSecret(ctx.config),
    {
      documentId: doc.id,
      studioId: ctx.studioId,
      memberId: ctx.caller.memberId,
      credential: await credentialOf(ctx),
      archived: doc.archived_at !== null,
    },
    new Date(),
    req.minutes ?? DEFAULT_LINK_MINUTES,
  );
  const { baseUrl, ...serving } = await linkBase(ctx.queryRow, ctx.config);
  return {
    documentId: doc.id,
    filename: doc.filename,
    mediaType: MEDIA_TYPES[doc.format],
    byteSize: doc.byte_size,
    url: `${baseUrl}${link.path}`,
    expiresAt: link.expiresAt,
    ...serving,
  };
}

/**
 * The credential a link is bound to: the API token that asked for it, or the OAuth connection (grant) whose access
 * token did (access tokens rotate every hour; the connection is what a person revokes). A session of the member's own
 * (the local owner, the web) has no credential to revoke apart from the membership.
 */
async function credentialOf(ctx: Pick<ActionContext, 'queryRow' | 'caller'>): Promise<string> {
  const caller = ctx.caller!;
  if (caller.via === 'api_token') return `api-${caller.tokenId}`;
  if (caller.via === 'oauth') {
    const grant = await ctx.queryRow<{ grant_id: string }>(
      'SELECT grant_id FROM oauth_access_tokens WHERE id = ?',
      caller.tokenId,
    );
    if (!grant) throw new ServiceError('UNAUTHENTICATED');
    return `oauth-${grant.grant_id}`;
  }
  return 'member';
}

/** Whether the credential a link names still works for its member: not revoked, not expired. */
async function credentialWorks(queryRow: RowReader, target: DownloadTarget | undefined, now: Date): Promise<boolean> {
  const [kind, id = ''] = (target?.credential ?? 'api-').split('-');
  const memberId = target?.memberId ?? '';
  if (kind === 'member') return true;
  const row =
    kind === 'oauth'
      ? await queryRow<{ id: string }>(
          'SELECT id FROM oauth_grants WHERE id = ? AND member_id = ? AND revoked_at IS NULL',
          id,
          memberId,
        )
      : await queryRow<{ id: string }>(
          'SELECT id FROM api_tokens WHERE id = ? AND member_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)',
          id,
          memberId,
          now.toISOString(),
        );
  return row !== undefined;
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
    id: string;
    kind: string;
    created_at: string;
    blob_sha256: string;
    byte_size: number;
    format: keyof typeof MEDIA_TYPES;
    filename: string;
    archived_at: string | null;
  }>(
    `SELECT d.id, d.kind, d.created_at, d.blob_sha256, d.byte_size, d.format, d.filename, d.archived_at
     FROM documents d JOIN members m ON m.studio_id = d.studio_id
     WHERE d.id = ? AND d.studio_id = ? AND m.id = ? AND m.removed_at IS NULL`,
    target?.documentId ?? '',
    target?.studioId ?? '',
    target?.memberId ?? '',
  );
  // Checked at each download, not only when the link was made: the member left, the token or connection that made it
  // was revoked, or the document was archived since, and the link answers as an expired one does.
  const credential = await credentialWorks(queryRow, target, now);
  if (!target || !row || !credential) return undefined;
  if (row.archived_at !== null && !target.archived) return undefined;
  return {
    id: row.id,
    kind: row.kind,
    createdAt: row.created_at,
    sha256: row.blob_sha256,
    size: Number(row.byte_size),
    mediaType: MEDIA_TYPES[row.format],
    filename: row.filename,
  };
}
