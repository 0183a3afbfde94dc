import type { Currency } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { activeSection } from '../schedule/lines.js';
import type { CellPrice } from './prices.js';
import { dataRowCount, MAX_IMPORT_ROWS, tooManyRows } from './limits.js';
import { readLookups } from './lookups.js';
import { type MappingRequest, resolveMapping } from './mapping.js';
import { DEFAULT_SECTION_TITLE, type DefaultSection, type ImportPlan, type PlannedLine, planImport } from './plan.js';
import { type CellProblem, PROBLEMS_SHOWN } from './problems.js';
import { PAGE_BYTES } from '../../core/result-size.js';
import { assertStatus, getImport, loadImport } from './records.js';
import { sheetRows } from './sheet-rows.js';

export interface PreviewInput {
  projectId: string;
  importId: string;
  sheet?: string | undefined;
  mapping?: MappingRequest | undefined;
  savedMappingId?: string | undefined;
  defaultSectionId?: string | undefined;
  /** How many lines to show as they would become lines (default 20). */
  lines?: number | undefined;
  /** Show lines and problems from this spreadsheet row on (the previous answer's nextRow). */
  fromRow?: number | undefined;
}

export const PREVIEW_LINES = 20;
/**
 * The most JSON a preview's answer holds: one MCP tool result (PAGE_BYTES) with room for its envelope. A preview is a
 * write (it keeps the mapping), and a write's result over that size reaches an MCP client only as a summary of the
 * records it touched; so the lines and problems shown stop where the answer would outgrow it, and nextRow says where
 * to continue (the same preview again with fromRow changes nothing).
 */
const ANSWER_BYTES = PAGE_BYTES - 600;

/**
 * Checks an import without touching the schedule: the mapping (saved, proposed or given), every row read by its
 * rules, the sections and suppliers it would create or reuse, the first lines as they would become, and every problem
 * by row and column. The import remembers the sheet, mapping and default section, which a commit then applies
 * exactly; the same preview again changes nothing.
 */
export async function previewImport(ctx: ActionContext, input: PreviewInput) {
  const record = await loadImport(ctx, input.projectId, input.importId);
  assertStatus(record, ['uploaded', 'previewed', 'failed'], 'previewed');
  const sheet = await sheetRows(ctx.db, record, input.sheet ?? record.sheet);
  const resolved = await resolveMapping(ctx.db, ctx.caller!, sheet.rows, input.mapping ?? {}, input.savedMappingId);
  const rowCount = dataRowCount(sheet.rows, resolved.mapping.headerRow);
  if (rowCount > MAX_IMPORT_ROWS) throw tooManyRows(`The sheet "${sheet.name}"`, rowCount);
  const lookups = await readLookups(ctx.db, ctx.studioId, input.projectId);
  const defaultSectionId = input.defaultSectionId ?? record.default_section_id;
  const plan = planImport(
    sheet.rows,
    resolved.mapping,
    lookups,
    await defaultSection(ctx, input.projectId, defaultSectionId),
  );

  const cols = {
    status: 'previewed' as const,
    sheet: sheet.name,
    mapping: JSON.stringify(resolved.mapping),
    mapping_source: resolved.source,
    default_section_id: defaultSectionId,
    row_count: plan.counts.rows,
    error_count: plan.counts.errors,
    warning_count: plan.counts.warnings,
  };
  const same = (Object.keys(cols) as Array<keyof typeof cols>).every((k) => record[k] === cols[k]);
  if (same) ctx.unchanged();
  else {
    const version = record.version + 1;
    await ctx.db
      .updateTable('imports')
      .set({ ...cols, previewed_at: ctx.now, updated_at: ctx.now, version })
      .where('id', '=', record.id)
      .execute();
    ctx.audit({
      targetKind: 'import',
      targetId: record.id,
      projectId: input.projectId,
      summary: `Previewed import of ${record.filename}: ${plan.counts.lines} lines, ${plan.counts.errors} errors`,
      changes: { mapping: { from: record.mapping ? JSON.parse(record.mapping) : null, to: resolved.mapping } },
    });
  }
  const fixed = {
    import: await getImport(ctx, input.projectId, record.id),
    savedMappingId: resolved.savedMappingId,
    notes: resolved.notes,
  };
  return {
    ...fixed,
    ...presentPlan(plan, lookups.currency, {
      lines: input.lines ?? PREVIEW_LINES,
      fromRow: input.fromRow ?? 1,
      bytes: ANSWER_BYTES - JSON.stringify(fixed).length,
    }),
  };
}

/** The section a commit puts lines in that nothing else places: the one named (active), or a new "Imported lines". */
export async function defaultSection(
  ctx: ActionContext,
  projectId: string,
  sectionId: string | null | undefined,
): Promise<DefaultSection> {
  if (!sectionId) return { id: null, title: DEFAULT_SECTION_TITLE };
  await activeSection(ctx.db, projectId, sectionId);
  const row = await ctx.db
    .selectFrom('sections')
    .select(['id', 'title'])
    .where('id', '=', sectionId)
    .executeTakeFirstOrThrow();
  return row;
}

/**
 * A plan as the API shows it: counts, sections and suppliers, then, from `fromRow` on and in row order, at most
 * `lines` lines and PROBLEMS_SHOWN problems, stopping before the answer outgrows `bytes`; nextRow is the first row
 * not shown (null: nothing more).
 */
export function presentPlan(
  plan: ImportPlan,
  currency: Currency,
  show: { lines: number; fromRow: number; bytes: number },
) {
  const titles = new Map(plan.sections.map((s) => [s.key, s.title]));
  const suppliers = new Map(plan.suppliers.map((s) => [s.key, s]));
  const head = {
    counts: plan.counts,
    sections: plan.sections.map((s) => ({
      title: s.title,
      sectionId: s.id,
      new: s.id === null,
      row: s.row,
      lines: s.lines,
    })),
    suppliers: plan.suppliers.map((s) => ({ name: s.name, supplierId: s.id, new: s.id === null, lines: s.lines })),
  };
  let budget = show.bytes - JSON.stringify(head).length - 60;
  // Rows in order, each with its line (if it makes one) and its problems: a row is shown whole or not at all.
  const rows = new Map<number, { line?: PlannedLine; problems: CellProblem[] }>();
  for (const l of plan.lines) if (l.row >= show.fromRow) rows.set(l.row, { line: l, problems: [] });
  for (const p of plan.problems) {
    if (p.row < show.fromRow) continue;
    const group = rows.get(p.row) ?? { problems: [] };
    group.problems.push(p);
    rows.set(p.row, group);
  }
  const lines: Array<ReturnType<typeof presentPlannedLine>> = [];
  const problems: CellProblem[] = [];
  let nextRow: number | null = null;
  for (const row of [...rows.keys()].sort((a, b) => a - b)) {
    const group = rows.get(row)!;
    const line = group.line && presentPlannedLine(group.line, titles, suppliers, currency);
    const size = JSON.stringify([line ?? null, ...group.problems]).length;
    const over =
      (line !== undefined && lines.length >= show.lines) ||
      problems.length + group.problems.length > PROBLEMS_SHOWN ||
      size > budget;
    // The first row is shown even when it alone is over the size: an answer always moves on.
    if (over && (lines.length || problems.length)) {
      nextRow = row;
      break;
    }
    budget -= size;
    if (line) lines.push(line);
    problems.push(...group.problems);
  }
  return { ...head, lines, problems, nextRow };
}

function presentPlannedLine(
  l: PlannedLine,
  titles: ReadonlyMap<string, string>,
  suppliers: ReadonlyMap<string, { name: string }>,
  currency: Currency,
) {
  const priced = (p: CellPrice | undefined) =>
    p && { state: p.state, price: p.state === 'set' ? { amount4: p.amount4!, currency } : null };
  return {
    row: l.row,
    section: titles.get(l.sectionKey)!,
    code: l.code,
    heading: l.heading,
    description: l.description,
    status: l.status ?? 'draft',
    supplierName: l.supplierKey ? suppliers.get(l.supplierKey)!.name : null,
    brand: l.brand,
    productCode: l.productCode,
    finish: l.finish,
    dimensions: l.dimensions,
    leadTimeDays: l.leadTimeDays,
    url: l.url,
    quantity: { amount4: l.quantity4, unitId: l.unitId },
    unitName: l.unitName,
    markup: l.markup4 === undefined ? null : { ratio4: l.markup4 },
    tradePrice: priced(l.tradePrice) ?? { state: 'tbc' as const, price: null },
    retailPrice: priced(l.retailPrice) ?? { state: 'tbc' as const, price: null },
    clientPrice: priced(l.clientPrice) ?? null,
    deliveryPrice: priced(l.deliveryPrice) ?? { state: 'tbc' as const, price: null },
    hasErrors: l.hasErrors,
  };
}
