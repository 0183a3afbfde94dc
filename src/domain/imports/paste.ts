import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { readDelimited } from '../../files/spreadsheet/delimited.js';
import { cleanCell, columnLetter, type Row } from '../../files/spreadsheet/table.js';
import { activeSection } from '../schedule/lines.js';
import { applyPlan } from './apply.js';
import { type ImportField, type ImportMapping, PRICING_WRITE_FIELDS } from './fields.js';
import { fieldForHeading } from './headings.js';
import { dataRowCount, MAX_IMPORT_ROWS, ROWS_READ, tooManyRows } from './limits.js';
import { readLookups } from './lookups.js';
import { assertMappable } from './mapping-rules.js';
import { resolveMapping } from './mapping.js';
import { type DefaultSection, planImport } from './plan.js';
import { PROBLEMS_SHOWN } from './problems.js';

/** Rows copied from a spreadsheet: tab-separated cells, one row a line (a quoted cell may span lines, as Excel copies). */
export function readPastedRows(text: string): Row[] {
  const sheet = readDelimited(cleanCell(text), { name: 'pasted', maxRows: ROWS_READ, delimiter: '\t' });
  if (sheet.truncated) throw tooManyRows('The pasted text');
  return sheet.rows;
}

export interface PasteInput {
  projectId: string;
  sectionId?: string | undefined;
  columns?: ReadonlyArray<ImportField | null> | undefined;
  headingRows?: boolean | undefined;
  skipRowsWithErrors?: boolean | undefined;
}

export const PASTED_SECTION_TITLE = 'Pasted lines';

/**
 * Pastes rows copied from a spreadsheet into a project's schedule, by the import rules (plan.ts), all or nothing in
 * this request's transaction: the first row is taken as headings when it names two or more known fields (a saved
 * mapping for those headings applies), otherwise `columns` says each pasted column's field in order. Lines go into
 * `sectionId` unless a heading row or a section column places them; without it, into a new section "Pasted lines".
 *
 * TODO(operations): paste_schedule_lines is an operation in the catalog; when the runner lands it is to answer 202 and
 * run the same plan-and-apply in the worker with progress. Until then it runs synchronously.
 */
export async function pasteLines(ctx: ActionContext, input: PasteInput, rows: readonly Row[]) {
  const headed = new Set((rows[0] ?? []).map(fieldForHeading).filter(Boolean)).size >= 2;
  let mapping: ImportMapping;
  let notes: string[] = [];
  if (headed) {
    const resolved = await resolveMapping(ctx.db, ctx.caller!, rows, {
      headerRow: 1,
      headingRows: input.headingRows,
      columns: input.columns?.map((field, i) => ({ column: columnLetter(i), field })),
    });
    mapping = resolved.mapping;
    notes = resolved.notes;
  } else if (input.columns) {
    mapping = {
      headerRow: 0,
      headingRows: input.headingRows ?? true,
      columns: input.columns.map((field, i) => ({ column: columnLetter(i), heading: '', field })),
    };
    const priced = input.columns.find((f) => f && PRICING_WRITE_FIELDS.has(f));
    if (priced && !ctx.caller!.permissions.has('pricing:write')) {
      throw new ServiceError(
        'FORBIDDEN',
        `Pasting ${priced} needs the pricing:write permission, which your role (${ctx.caller!.role}) does not have; give that column null.`,
      );
    }
    assertMappable(mapping.columns.map((c, i) => ({ field: c.field, path: `columns.${i}`, where: c.column })));
  } else {
    throw new ServiceError(
      'VALIDATION_FAILED',
      'The first pasted row is not a row of headings (such as Item, Qty, Supplier, Net); paste the headings too, or send columns: the field of each pasted column in order, e.g. ["heading", "quantity", "supplier", "tradePrice"].',
      { errors: [{ path: 'columns', message: 'Required when the first row is not headings.' }] },
    );
  }
  const count = dataRowCount(rows, mapping.headerRow);
  if (count > MAX_IMPORT_ROWS) throw tooManyRows('The pasted text', count);
  if (count === 0) {
    throw new ServiceError('VALIDATION_FAILED', 'Nothing was pasted below the headings; copy the rows to add.', {
      errors: [{ path: 'text', message: 'No rows.' }],
    });
  }
  let fallback: DefaultSection = { id: null, title: PASTED_SECTION_TITLE };
  if (input.sectionId) {
    await activeSection(ctx.db, input.projectId, input.sectionId);
    fallback = await ctx.db
      .selectFrom('sections')
      .select(['id', 'title'])
      .where('id', '=', input.sectionId)
      .executeTakeFirstOrThrow();
  }
  const plan = planImport(rows, mapping, await readLookups(ctx.db, ctx.studioId, input.projectId), fallback);
  const { result, sectionIds } = await applyPlan(ctx, input.projectId, plan, {
    skipRowsWithErrors: input.skipRowsWithErrors,
    audit: {
      targetKind: 'project',
      targetId: input.projectId,
      summary: (r) => `Pasted ${r.lines} line${r.lines === 1 ? '' : 's'}`,
    },
  });
  return {
    ...result,
    sections: plan.sections.map((s) => ({
      sectionId: sectionIds.get(s.key)!,
      title: s.title,
      new: s.id === null,
      lines: s.lines,
    })),
    warnings: plan.problems.filter((p) => p.severity === 'warning').slice(0, PROBLEMS_SHOWN),
    notes,
  };
}
