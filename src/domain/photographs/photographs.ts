import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { assertFullOrder } from '../kit/full-order.js';
import { keysetPage, namedSorts, type PageRequest, sortNames } from '../kit/keyset-page.js';
import { assertActive, loadLine } from '../schedule/lines.js';
import { bumpLineVersion } from '../schedule/line-version.js';
import { variantSize } from './sizes.js';
import type { PreparedPhotograph } from './upload.js';
import { renderingTag } from './variants.js';
import { PHOTOGRAPH_RECORD, type PhotographRow } from './record.js';

/** A line holds at most this many photographs: a product's views and details, not an album. */
export const MAX_PHOTOGRAPHS_PER_LINE = 100;

type Ctx = Pick<ActionContext, 'db' | 'queryRow' | 'now' | 'audit' | 'unchanged' | 'studioId'>;

interface LineRef {
  projectId: string;
  lineId: string;
}

/** The record as the API shows it, with the URLs of its sizes (relative to the server's base URL). */
export function presentPhotograph(row: PhotographRow, cover: boolean, lineVersion: number) {
  const base = `/v1/projects/${row.project_id}/items/${row.line_id}/photographs/${row.id}`;
  const tag = renderingTag({ sha256: row.original_sha256, rotation: row.rotation });
  const original = { width: row.width, height: row.height };
  const sized = (variant: 'display' | 'thumbnail') => ({
    ...variantSize(original, row.rotation, variant),
    url: `${base}?variant=${variant}&tag=${tag}`,
  });
  const variants = {
    display: sized('display'),
    thumbnail: sized('thumbnail'),
    original: { ...original, url: `${base}?variant=original&tag=${tag}` },
  };
  return PHOTOGRAPH_RECORD.present(row, { cover, variants, lineVersion });
}
export type PresentedPhotograph = ReturnType<typeof presentPhotograph>;

/** The cover: the one marked, else the first in order. */
const coverOf = (rows: readonly PhotographRow[]) => rows.find((r) => r.is_cover === 1)?.id ?? rows[0]?.id;

/** A line's photographs not removed, in display order. */
async function activeRows(ctx: Pick<Ctx, 'db'>, lineId: string): Promise<PhotographRow[]> {
  return ctx.db
    .selectFrom('line_photographs')
    .selectAll()
    .where('line_id', '=', lineId)
    .where('removed_at', 'is', null)
    .orderBy('position')
    .execute();
}

const present = (rows: readonly PhotographRow[], lineVersion: number) => {
  const cover = coverOf(rows);
  return rows.map((r) => presentPhotograph(r, r.id === cover, lineVersion));
};

/** `position` (display order, the default), `createdAt` or `filename`, each descending with "-". */
export const PHOTOGRAPH_SORTS = namedSorts(
  { position: { column: 'position' }, createdAt: { column: 'created_at' }, filename: { column: 'filename' } },
  { column: 'id' },
);
export const PHOTOGRAPH_SORT_NAMES = sortNames(PHOTOGRAPH_SORTS);

/** A page of the line's photographs; the cover is the line's (marked, else first in display order) on every page. */
export async function listPhotographs(
  ctx: Ctx,
  q: LineRef & PageRequest & { sort?: keyof typeof PHOTOGRAPH_SORTS | undefined },
) {
  const line = await loadLine(ctx, q.projectId, q.lineId);
  const cover = coverOf(await activeRows(ctx, line.id));
  const active = ctx.db
    .selectFrom('line_photographs')
    .selectAll()
    .where('line_id', '=', line.id)
    .where('removed_at', 'is', null);
  const { rows, nextCursor } = await keysetPage(active, PHOTOGRAPH_SORTS[q.sort ?? 'position'], q);
  const items = rows.map((r) => presentPhotograph(r, r.id === cover, line.version));
  return { lineId: line.id, version: line.version, items, nextCursor };
}

export async function getPhotograph(ctx: Ctx, ref: LineRef & { photographId: string }) {
  const line = await loadLine(ctx, ref.projectId, ref.lineId);
  const rows = await activeRows(ctx, line.id);
  const row = rows.find((r) => r.id === ref.photographId);
  if (!row) throw await missing(ctx, ref);
  return presentPhotograph(row, row.id === coverOf(rows), line.version);
}

/** Not on this line: removed earlier, on another line, or unknown; each told apart only as far as the caller may see. */
async function missing(ctx: Pick<Ctx, 'db'>, ref: LineRef & { photographId: string }) {
  const found = await ctx.db
    .selectFrom('line_photographs')
    .select(['line_id', 'removed_at'])
    .where('id', '=', ref.photographId)
    .executeTakeFirst();
  if (found?.line_id === ref.lineId && found.removed_at) {
    return new ServiceError('NOT_FOUND', `Photograph ${ref.photographId} was removed from this line.`);
  }
  return new ServiceError(
    'NOT_FOUND',
    `No photograph ${ref.photographId} is on line ${ref.lineId}; list_photographs lists the line's photographs.`,
  );
}

/** The line, active, for a change to its photographs. */
async function lineToChange(ctx: Ctx, ref: LineRef) {
  const line = await loadLine(ctx, ref.projectId, ref.lineId);
  assertActive(line);
  return line;
}

const lineName = (line: { code: string | null; heading: string }) => line.code ?? line.heading;

export async function addPhotograph(ctx: Ctx, ref: LineRef, file: PreparedPhotograph) {
  const line = await lineToChange(ctx, ref);
  const rows = await activeRows(ctx, line.id);
  if (rows.length >= MAX_PHOTOGRAPHS_PER_LINE) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `Line ${lineName(line)} already has ${MAX_PHOTOGRAPHS_PER_LINE} photographs, the most a line holds; remove some first.`,
      { errors: [{ path: 'lineId', message: 'Full.' }] },
    );
  }
  const row = PHOTOGRAPH_RECORD.newRow(
    {
      studioId: ctx.studioId,
      lineId: line.id,
      position: rows.length + 1,
      isCover: 0,
      sha256: file.sha256,
      mediaType: file.mediaType,
      filename: file.filename,
      byteSize: file.byteSize,
      width: file.width,
      height: file.height,
      rotation: 0,
      updatedAt: ctx.now,
    },
    { id: newId(), ownerId: ref.projectId, now: ctx.now },
  );
  await ctx.db.insertInto('line_photographs').values(row).execute();
  const version = await bumpLineVersion(ctx, line);
  ctx.audit({
    targetKind: 'line',
    targetId: line.id,
    projectId: ref.projectId,
    summary: `Added photograph ${file.filename} to line ${lineName(line)}`,
    changes: { photographs: { added: row.id } },
  });
  return presentPhotograph(row, rows.length === 0, version);
}

/** One change to a line's photographs: the line checked, the change made, the version bumped, the list answered. */
async function changePhotographs(
  ctx: Ctx,
  ref: LineRef,
  change: (
    rows: PhotographRow[],
    line: { id: string; code: string | null; heading: string },
  ) => Promise<string | undefined>,
) {
  const line = await lineToChange(ctx, ref);
  const rows = await activeRows(ctx, line.id);
  const summary = await change(rows, line);
  if (!summary) {
    ctx.unchanged();
    return { lineId: line.id, version: line.version, items: present(rows, line.version), nextCursor: null };
  }
  const version = await bumpLineVersion(ctx, line);
  ctx.audit({ targetKind: 'line', targetId: line.id, projectId: ref.projectId, summary });
  return { lineId: line.id, version, items: present(await activeRows(ctx, line.id), version), nextCursor: null };
}

function photographIn(rows: readonly PhotographRow[], id: string, lineId: string): PhotographRow {
  const row = rows.find((r) => r.id === id);
  if (!row) {
    throw new ServiceError(
      'NOT_FOUND',
      `No photograph ${id} is on line ${lineId}; list_photographs lists the line's photographs.`,
    );
  }
  return row;
}

/** Renumbers from 1 in the given order, writing only the rows whose place changed. */
async function renumber(ctx: Ctx, ordered: readonly PhotographRow[]) {
  for (const [i, row] of ordered.entries()) {
    if (row.position !== i + 1) {
      await ctx.db
        .updateTable('line_photographs')
        .set({ position: i + 1, updated_at: ctx.now })
        .where('id', '=', row.id)
        .execute();
    }
  }
}

export function removePhotograph(ctx: Ctx, ref: LineRef & { photographId: string }) {
  return changePhotographs(ctx, ref, async (rows, line) => {
    const row = photographIn(rows, ref.photographId, ref.lineId);
    await ctx.db
      .updateTable('line_photographs')
      .set({ removed_at: ctx.now, updated_at: ctx.now, is_cover: 0 })
      .where('id', '=', row.id)
      .execute();
    await renumber(
      ctx,
      rows.filter((r) => r.id !== row.id),
    );
    return `Removed photograph ${row.filename} from line ${lineName(line)}`;
  });
}

export function reorderPhotographs(ctx: Ctx, ref: LineRef & { order: readonly string[] }) {
  return changePhotographs(ctx, ref, async (rows, line) => {
    assertFullOrder(
      ref.order,
      rows.map((r) => r.id),
      'order',
      'photograph',
      "list_photographs gives the line's photographs",
    );
    if (ref.order.every((id, i) => rows[i]!.id === id)) return undefined;
    const byId = new Map(rows.map((r) => [r.id, r]));
    await renumber(
      ctx,
      ref.order.map((id) => byId.get(id)!),
    );
    return `Reordered the photographs of line ${lineName(line)}`;
  });
}

export function setCoverPhotograph(ctx: Ctx, ref: LineRef & { photographId: string }) {
  return changePhotographs(ctx, ref, async (rows, line) => {
    const row = photographIn(rows, ref.photographId, ref.lineId);
    if (coverOf(rows) === row.id && (row.is_cover === 1 || rows.every((r) => r.is_cover === 0))) {
      // Already the cover (marked, or first with none marked): marking it would change nothing a reader sees.
      return undefined;
    }
    await ctx.db
      .updateTable('line_photographs')
      .set((eb) => ({ is_cover: eb.case().when('id', '=', row.id).then(1).else(0).end(), updated_at: ctx.now }))
      .where('line_id', '=', line.id)
      .where('removed_at', 'is', null)
      .execute();
    return `Made ${row.filename} the cover photograph of line ${lineName(line)}`;
  });
}

export const ROTATIONS = [0, 90, 180, 270] as const;

export function rotatePhotograph(ctx: Ctx, ref: LineRef & { photographId: string; rotation: number }) {
  return changePhotographs(ctx, ref, async (rows, line) => {
    const row = photographIn(rows, ref.photographId, ref.lineId);
    if (row.rotation === ref.rotation) return undefined;
    await ctx.db
      .updateTable('line_photographs')
      .set({ rotation: ref.rotation, updated_at: ctx.now })
      .where('id', '=', row.id)
      .execute();
    return `Turned photograph ${row.filename} of line ${lineName(line)} to ${ref.rotation}°`;
  });
}
