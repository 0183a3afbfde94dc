import { LINE_RECORD, type LineFieldsInput, type LineRow } from '../schedule/record.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { schemePicker } from '../codes/matching.js';
import { prefixAllocator } from '../schedule/codes.js';
import { newLineRow } from '../schedule/line-record.js';
import { nextPosition } from '../schedule/lines.js';
import { activeOrderOf, renumberSections } from '../sections/order.js';
import { newSectionRow, touchProject } from '../sections/section-record.js';
import { createSupplier } from '../suppliers/suppliers.js';
import type { ImportPlan, PlannedLine } from './plan.js';
import { type CellProblem, whereIs } from './problems.js';
import type { ImportResult } from './records.js';

/** Reports how far an apply has got: lines written so far, of the total it will write. */
export type ApplyProgress = (done: number, total: number) => void | Promise<void>;

/** Lines written per INSERT: 31 columns each stays well inside SQLite's and PostgreSQL's bound-parameter limits. */
const BATCH = 250;

export interface ApplyOptions {
  /** Leave out rows with errors instead of refusing the whole import. */
  skipRowsWithErrors?: boolean;
  /** The audit event summarising the lines (one event, not one per line; see applyPlan). */
  audit: { targetKind: 'import' | 'project'; targetId: string; summary: (result: ImportResult) => string };
  onProgress?: ApplyProgress;
}

/**
 * Writes a plan into the project's schedule, all of it or nothing: the caller runs this inside one write transaction
 * (an action's handler, or the operation worker that will run commits), so any failure, including one thrown by
 * `onProgress`, rolls every row back. New sections go after the project's active ones, in the order the file names
 * them; new suppliers are made as create_supplier makes them; lines are built as create_schedule_line builds them
 * (LINE_RECORD.patchColumns, newLineRow), placed after the lines a section already has, and coded by the code scheme each section's
 * title takes, skipping any code the file itself gives.
 *
 * Audit: each new section and supplier has its own event (they are records people look up); the lines are summarised
 * in one event on the import (or project), with their count, because an import of 10,000 lines would otherwise bury
 * the feed and cost 10,000 chained digests in the one transaction. A line's own history starts at its createdAt.
 */
export async function applyPlan(
  ctx: ActionContext,
  projectId: string,
  plan: ImportPlan,
  opts: ApplyOptions,
): Promise<{ result: ImportResult; sectionIds: ReadonlyMap<string, string> }> {
  const errors = plan.problems.filter((p) => p.severity === 'error');
  if (errors.length && !opts.skipRowsWithErrors) throw hasErrors(errors);
  const lines = plan.lines.filter((l) => !l.hasErrors);

  const sectionIds = await createSections(ctx, projectId, plan);
  const supplierIds = new Map<string, string>();
  let suppliersCreated = 0;
  for (const s of plan.suppliers) {
    if (!lines.some((l) => l.supplierKey === s.key)) continue;
    if (s.id) supplierIds.set(s.key, s.id);
    else {
      supplierIds.set(s.key, (await createSupplier(ctx, { name: s.name })).id);
      suppliersCreated += 1;
    }
  }

  const codeFor = await codeAllocators(ctx, projectId, plan, sectionIds, lines);
  const positions = new Map<string, number>();
  let batch: LineRow[] = [];
  let done = 0;
  for (const line of lines) {
    const sectionId = sectionIds.get(line.sectionKey)!;
    const position = positions.get(sectionId) ?? (await nextPosition(ctx.db, sectionId));
    positions.set(sectionId, position + 1);
    const cols = LINE_RECORD.patchColumns(fieldsOf(line, line.supplierKey ? supplierIds.get(line.supplierKey)! : null));
    const code = line.code ?? codeFor(line.sectionKey);
    batch.push(
      newLineRow(
        { project_id: projectId, section_id: sectionId, position, code },
        { ...cols, heading: line.heading },
        line.unitId,
        ctx.now,
      ),
    );
    if (batch.length === BATCH) {
      await ctx.db.insertInto('lines').values(batch).execute();
      done += batch.length;
      batch = [];
      await opts.onProgress?.(done, lines.length);
    }
  }
  if (batch.length) {
    await ctx.db.insertInto('lines').values(batch).execute();
    done += batch.length;
    await opts.onProgress?.(done, lines.length);
  }

  const result: ImportResult = {
    lines: lines.length,
    sectionsCreated: plan.sections.filter((s) => s.id === null).length,
    suppliersCreated,
    skippedRows: plan.lines.length - lines.length,
  };
  ctx.audit({
    targetKind: opts.audit.targetKind,
    targetId: opts.audit.targetId,
    projectId,
    summary: opts.audit.summary(result),
    changes: { linesCreated: { from: null, to: result.lines } },
  });
  return { result, sectionIds };
}

/** The plan's new sections, after the project's active ones (archived ones keep their places after those). */
async function createSections(ctx: ActionContext, projectId: string, plan: ImportPlan): Promise<Map<string, string>> {
  const ids = new Map(plan.sections.flatMap((s) => (s.id ? [[s.key, s.id] as const] : [])));
  const fresh = plan.sections.filter((s) => s.id === null);
  if (!fresh.length) return ids;
  const order = await activeOrderOf(ctx.db, projectId);
  for (const s of fresh) {
    const row = newSectionRow(projectId, s.title, 0, ctx.now);
    await ctx.db.insertInto('sections').values(row).execute();
    order.push(row.id);
    ids.set(s.key, row.id);
    ctx.audit({
      targetKind: 'section',
      targetId: row.id,
      projectId,
      summary: `Created section ${s.title}`,
      changes: { created: { from: null, to: s.title } },
    });
  }
  await renumberSections(ctx.db, projectId, order);
  await touchProject(ctx, projectId);
  return ids;
}

/**
 * The next code for a line of each section: one allocator per code prefix (two sections of one scheme share its
 * numbers), each stepping over the codes the file gives its own lines, so no allocated code repeats a given one.
 */
async function codeAllocators(
  ctx: ActionContext,
  projectId: string,
  plan: ImportPlan,
  sectionIds: ReadonlyMap<string, string>,
  lines: readonly PlannedLine[],
): Promise<(sectionKey: string) => string> {
  const pick = await schemePicker(ctx.db, ctx.studioId);
  const given = new Set(lines.flatMap((l) => (l.code ? [l.code] : [])));
  const titles = new Map(plan.sections.map((s) => [s.key, s.title]));
  const byPrefix = new Map<string, () => string>();
  const bySection = new Map<string, () => string>();
  for (const key of new Set(lines.filter((l) => !l.code).map((l) => l.sectionKey))) {
    if (!sectionIds.has(key)) continue;
    const prefix = `${pick(titles.get(key)!).prefix}-`;
    let next = byPrefix.get(prefix);
    if (!next) {
      const raw = await prefixAllocator(ctx.db, projectId, prefix);
      next = () => {
        let code = raw();
        while (given.has(code)) code = raw();
        return code;
      };
      byPrefix.set(prefix, next);
    }
    bySection.set(key, next);
  }
  return (key) => bySection.get(key)!();
}

/** A planned line as the line fields create_schedule_line takes. */
function fieldsOf(line: PlannedLine, supplierId: string | null): LineFieldsInput {
  return {
    description: line.description,
    ...(line.status ? { status: line.status } : {}),
    supplierId,
    brand: line.brand,
    productCode: line.productCode,
    url: line.url,
    finish: line.finish,
    dimensions: line.dimensions,
    leadTimeDays: line.leadTimeDays,
    quantity: { amount4: line.quantity4, unitId: line.unitId },
    ...(line.markup4 !== undefined ? { markup: { ratio4: line.markup4 } } : {}),
    ...(line.tradePrice ? { tradePrice: line.tradePrice } : {}),
    ...(line.retailPrice ? { retailPrice: line.retailPrice } : {}),
    ...(line.clientPrice ? { clientPrice: line.clientPrice } : {}),
    ...(line.deliveryPrice ? { deliveryPrice: line.deliveryPrice } : {}),
  };
}

/** The refusal of an import with errors: the count, the first problems by row and column, and the ways on. */
export function hasErrors(errors: readonly CellProblem[]): ServiceError {
  const first = errors[0]!;
  const rows = new Set(errors.map((p) => p.row)).size;
  return new ServiceError(
    'IMPORT_HAS_ERRORS',
    `${errors.length} cell${errors.length === 1 ? '' : 's'} in ${rows} row${rows === 1 ? '' : 's'} cannot be read, the first at ${whereIs(first)}: ${first.message} Fix the file and upload it again, change the mapping, or send skipRowsWithErrors: true to leave those rows out. Nothing was imported.`,
    {
      errors: errors.slice(0, 20).map((p) => ({ path: whereIs(p), message: p.message })),
      extra: { errorCount: errors.length, rowsWithErrors: rows },
    },
  );
}
