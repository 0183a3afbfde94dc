import { sql } from 'kysely';
import type { Db } from '../../../db/store.js';

/**
 * What keeps a file in the blob store, in one place: the storage figure counts exactly these, the quota judges by that
 * figure, and the sweep removes every kept file none of them names. Each rule gives (digest, size), of one studio's
 * records when `studioId` is given (each rule filtered by it, on its index), else of every studio's:
 * - a photograph not removed, or removed but frozen by a client document version minted while it was on its line
 *   (minted between its addition and its removal, both included: a share still shows it);
 * - a document whose file is kept (every document but a package made of entries);
 * - a package's entries (a photograph removed since, or a document archived since, is still inside it);
 * - an import's file, unless the import was canceled.
 * Staged uploads refused after checking, canceled imports, renders never recorded and superseded packages name no
 * file, so they are what a sweep removes.
 */
function references(studioId?: string) {
  const of = (column: string) => (studioId === undefined ? sql`` : sql`AND ${sql.ref(column)} = ${studioId}`);
  return sql`
  SELECT p.original_sha256 AS sha256, p.byte_size AS byte_size
    FROM line_photographs p
    WHERE (p.removed_at IS NULL OR EXISTS (
      SELECT 1 FROM client_document_versions v
      WHERE v.project_id = p.project_id AND v.minted_at >= p.created_at AND v.minted_at <= p.removed_at))
    ${of('p.studio_id')}
  UNION ALL
  SELECT d.blob_sha256, d.byte_size
    FROM documents d
    WHERE NOT EXISTS (SELECT 1 FROM package_entries e WHERE e.document_id = d.id) ${of('d.studio_id')}
  UNION ALL
  SELECT e.blob_sha256, e.byte_size
    FROM package_entries e JOIN documents d ON d.id = e.document_id
    WHERE 1 = 1 ${of('d.studio_id')}
  UNION ALL
  SELECT i.file_sha256, i.byte_size
    FROM imports i
    WHERE i.status <> 'canceled' ${of('i.studio_id')}`;
}

/** The bytes and files the studio's records keep, each distinct file once (integers). */
export async function studioStorage(db: Db, studioId: string): Promise<{ bytes: number; files: number }> {
  const { rows } = await sql<{ bytes: string | number | null; files: string | number }>`
    SELECT SUM(byte_size) AS bytes, COUNT(*) AS files FROM (
      SELECT sha256, MAX(byte_size) AS byte_size FROM (${references(studioId)}) refs GROUP BY sha256
    ) kept`.execute(db);
  return { bytes: Number(rows[0]?.bytes ?? 0), files: Number(rows[0]?.files ?? 0) };
}

/** Whether the studio's records already keep this file: another upload of it adds nothing to its storage. */
export async function studioKeeps(db: Db, studioId: string, sha256: string): Promise<boolean> {
  const { rows } = await sql`SELECT 1 FROM (${references(studioId)}) refs WHERE sha256 = ${sha256}`.execute(db);
  return rows.length > 0;
}

/** A photograph's rendering in use: `<sha256>-r<rotation>`, the start of its derived files' names. */
export const renderingKey = (sha256: string, rotation: number) => `${sha256}-r${rotation}`;

const DIGEST = /\b[0-9a-f]{64}\b/g;

/**
 * Every digest any studio's records name, and the photograph renderings in use (a kept photograph at its rotation now;
 * a frozen one's earlier rotation is made again when it is next asked for). An operation not yet ended keeps every
 * digest its input names (a paste's text, kept before its rows are written).
 */
export async function keptEverywhere(db: Db): Promise<{ originals: Set<string>; renderings: Set<string> }> {
  const originals = new Set<string>();
  const { rows } = await sql<{ sha256: string }>`SELECT DISTINCT sha256 FROM (${references()}) refs`.execute(db);
  for (const r of rows) originals.add(r.sha256);
  const pending = await db
    .selectFrom('operations')
    .select('input')
    .where('status', 'in', ['queued', 'running'])
    .execute();
  for (const op of pending) for (const digest of op.input.match(DIGEST) ?? []) originals.add(digest);
  const renderings = new Set<string>();
  const photographs = await db.selectFrom('line_photographs').select(['original_sha256', 'rotation']).execute();
  for (const p of photographs) {
    if (originals.has(p.original_sha256)) renderings.add(renderingKey(p.original_sha256, p.rotation));
  }
  return { originals, renderings };
}
