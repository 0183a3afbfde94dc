import type { Currency } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { activeSection } from '../schedule/lines.js';
import type { CellPrice } from './prices.js';
import { dataRowCount, MAX_IMPORT_ROWS, tooManyRows } from './limits.js';
import { readLookups } from './lookups.js';
import { type MappingRequest, resolveMapping } from './mapping.js';
import { DEFAULT_SECTION_TITLE, type DefaultSection, type ImportPlan, type PlannedLine, planImport } from './plan.js';
import { PROBLEMS_SHOWN } from './problems.js';
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
}

export const PREVIEW_LINES = 20;

/**
 * Checks an import without touching the schedule: the mapping (saved, proposed or given), every row read by its
 * rules, the sections and suppliers it would create or reuse, the first lines as they would become, and every problem
 * by row and column. The import remembers the sheet, mapping and default section, which a commit then applies
 * exactly; the same preview again changes nothing.
 */
export async function previewImport(ctx: ActionContext, input: PreviewInput) {
  const record = await loadImport(ctx, input.projectId, input.importId);
  assertStatus(record, ['uploaded', 'previewed'], 'previewed');
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
  return {
    import: await getImport(ctx, input.projectId, record.id),
    ...presentPlan(plan, lookups.currency, input.lines ?? PREVIEW_LINES),
    mapping: { ...resolved.mapping, source: resolved.source, savedMappingId: resolved.savedMappingId },
    notes: resolved.notes,
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

/** A plan as the API shows it: counts, sections, suppliers, the first lines and the first problems. */
export function presentPlan(plan: ImportPlan, currency: Currency, shown: number) {
  const titles = new Map(plan.sections.map((s) => [s.key, s.title]));
  const suppliers = new Map(plan.suppliers.map((s) => [s.key, s]));
  return {
    counts: plan.counts,
    sections: plan.sections.map((s) => ({
      title: s.title,
      sectionId: s.id,
      new: s.id === null,
      row: s.row,
      lines: s.lines,
    })),
    suppliers: plan.suppliers.map((s) => ({ name: s.name, supplierId: s.id, new: s.id === null, lines: s.lines })),
    lines: plan.lines.slice(0, shown).map((l) => presentPlannedLine(l, titles, suppliers, currency)),
    problems: plan.problems.slice(0, PROBLEMS_SHOWN),
  };
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
