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
import { startOperation } from '../../jobs/operations.js';

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

/** The operation kind a paste runs as (jobs.ts defines its job). */
export const PASTE_KIND = 'paste_lines';

/** What the paste job is given: the pasted text (kept in the blob store) and how its columns map, decided at once. */
export interface PasteJob {
  projectId: string;
  sectionId: string | null;
  textSha256: string;
  mapping: ImportMapping;
  notes: string[];
  skipRowsWithErrors: boolean;
}

/**
 * Accepts a paste of rows copied from a spreadsheet, by the import rules (plan.ts), as an operation: what can be
 * refused without writing is refused now, in this request (no headings and no columns, a priced column without
 * pricing:write, too many rows, nothing below the headings, a section not in the project); the first row is taken as
 * headings when it names two or more known fields (a saved mapping for those headings applies), otherwise `columns`
 * says each pasted column's field in order. The worker then writes every line in one transaction (applyPaste).
 */
export async function acceptPaste(
  ctx: ActionContext,
  input: PasteInput,
  rows: readonly Row[],
  textSha256: string,
  action: string,
) {
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
  if (input.sectionId) await activeSection(ctx.db, input.projectId, input.sectionId);
  const job: PasteJob = {
    projectId: input.projectId,
    sectionId: input.sectionId ?? null,
    textSha256,
    mapping,
    notes,
    skipRowsWithErrors: input.skipRowsWithErrors ?? false,
  };
  ctx.unchanged();
  return startOperation(ctx, { kind: PASTE_KIND, action, scope: 'projects:write', input: job, total: count });
}

/**
 * The paste job's body, in its one commit: the rows read again from the kept text, planned against the sections and
 * suppliers as they are now, and written, all of them or none. Lines go into the section named unless a heading row
 * or a section column places them; without one, into a new section "Pasted lines".
 */
export async function applyPaste(ctx: ActionContext, job: PasteJob, text: string) {
  if (ctx.project?.archived_at) {
    throw new ServiceError(
      'ARCHIVED',
      'The project was archived before the lines were pasted; restore it and paste again.',
    );
  }
  const rows = readPastedRows(text);
  let fallback: DefaultSection = { id: null, title: PASTED_SECTION_TITLE };
  if (job.sectionId) {
    await activeSection(ctx.db, job.projectId, job.sectionId);
    fallback = await ctx.db
      .selectFrom('sections')
      .select(['id', 'title'])
      .where('id', '=', job.sectionId)
      .executeTakeFirstOrThrow();
  }
  const plan = planImport(rows, job.mapping, await readLookups(ctx.db, ctx.studioId, job.projectId), fallback);
  const { result, sectionIds } = await applyPlan(ctx, job.projectId, plan, {
    skipRowsWithErrors: job.skipRowsWithErrors,
    audit: {
      targetKind: 'project',
      targetId: job.projectId,
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
    notes: job.notes,
  };
}
