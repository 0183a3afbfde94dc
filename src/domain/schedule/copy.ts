import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { LineRow } from './record.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { codeAllocator, nextCode } from './codes.js';
import { copyOfLine, presentLine, type PresentedLine } from './line-record.js';
import { activeSection, assertActive, loadLine, nextPosition, presentationFor } from './lines.js';

export const COPY_MAX = 500;

export interface CopyLinesInput {
  projectId: string;
  lineIds: readonly string[];
  targetProjectId: string;
  targetSectionId: string;
  clearPrices?: boolean;
}

const hasAmount = (r: LineRow) => [r.trade4, r.retail4, r.client4, r.delivery4].some((a) => a !== null);

/** The four priced fields back to "to be confirmed", the client price back to derived. */
const CLEARED: Partial<LineRow> = {
  trade_state: 'tbc',
  trade4: null,
  retail_state: 'tbc',
  retail4: null,
  client_state: null,
  client4: null,
  delivery_state: 'tbc',
  delivery4: null,
};

/**
 * Copies lines (in the order given) to the end of a section of another project, or of the same one. Copies are new
 * lines: new ids, the target project's next codes, version 1. Prices are amounts in the source project's currency, so
 * across currencies they are only copied away (`clearPrices`), never silently reinterpreted.
 * `invoke` has already checked the grant on both projects and that every id belongs where the input says.
 */
export async function copyLinesToProject(
  ctx: ActionContext,
  input: CopyLinesInput,
): Promise<{ lines: PresentedLine[] }> {
  const { projectId, targetProjectId, targetSectionId } = input;
  if (new Set(input.lineIds).size !== input.lineIds.length) {
    throw new ServiceError('VALIDATION_FAILED', 'A line appears twice in lineIds; name each line once.', {
      errors: [{ path: 'lineIds', message: 'Duplicate line ids.' }],
    });
  }
  const target = await ctx.db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', targetProjectId)
    .where('studio_id', '=', ctx.studioId)
    .executeTakeFirstOrThrow();
  assertActive(target, 'target project');
  await activeSection(ctx.db, targetProjectId, targetSectionId);
  const sources: LineRow[] = [];
  for (const id of input.lineIds) {
    const row = await loadLine(ctx, projectId, id);
    if (row.archived_at)
      throw new ServiceError(
        'ARCHIVED',
        `Line ${row.id} (${row.code ?? row.heading}) is archived; restore it or leave it out. Nothing was copied.`,
      );
    sources.push(row);
  }
  const sourceCurrency = ctx.project!.currency;
  if (target.currency !== sourceCurrency && !input.clearPrices) {
    const priced = sources.find(hasAmount);
    if (priced) {
      throw new ServiceError(
        'VALIDATION_FAILED',
        `The target project is priced in ${target.currency} and this one in ${sourceCurrency}; line ${priced.code ?? priced.id} has prices that would change meaning. Send clearPrices: true to copy the lines with prices to be confirmed.`,
        {
          errors: [
            {
              path: 'clearPrices',
              message: `Required when copying priced lines from ${sourceCurrency} to ${target.currency}.`,
            },
          ],
        },
      );
    }
  }
  const code = await codeAllocator(ctx.db, ctx.studioId, targetProjectId, targetSectionId);
  let position = await nextPosition(ctx.db, targetSectionId);
  const presentation = await presentationFor(ctx, targetProjectId, sources);
  const rows = [];
  for (const source of sources) {
    const row = copyOfLine({ ...source, ...(input.clearPrices ? CLEARED : {}) }, ctx.now, {
      project_id: targetProjectId,
      section_id: targetSectionId,
      position: position++,
      code: code(),
    });
    await ctx.db.insertInto('lines').values(row).execute();
    ctx.audit({
      targetKind: 'line',
      targetId: row.id,
      projectId: targetProjectId,
      summary: `Copied line ${source.code ?? source.heading} from ${ctx.project!.name} as ${row.code}`,
      changes: { copiedFrom: { from: null, to: { projectId, lineId: source.id } } },
    });
    rows.push(row);
  }
  // Copies hold no custom property values (properties belong to a project); read as any line would be.
  await presentation.know(rows);
  return { lines: rows.map((row) => presentLine(row, presentation)) };
}

/**
 * Copies lines into a section as new lines (new ids, version 1, positions 1..n in their source order). `code` decides
 * each copy's code: a fresh project code when copying within a project, the source's own code into a new project.
 */
export async function copyLines(
  ctx: ActionContext,
  sources: readonly LineRow[],
  target: { projectId: string; sectionId: string },
  code: 'fresh' | 'keep',
) {
  const created: LineRow[] = [];
  for (const [i, source] of sources.entries()) {
    const row = copyOfLine(source, ctx.now, {
      project_id: target.projectId,
      section_id: target.sectionId,
      position: i + 1,
      code: code === 'keep' ? source.code : await nextCode(ctx.db, ctx.studioId, target.projectId, target.sectionId),
    });
    await ctx.db.insertInto('lines').values(row).execute();
    ctx.audit({
      targetKind: 'line',
      targetId: row.id,
      projectId: target.projectId,
      summary: `Copied line ${source.code ?? ''} ${source.heading}`.replace(/\s+/g, ' '),
      changes: { copiedFrom: { from: null, to: source.id } },
    });
    created.push(row);
  }
  return created;
}

export async function activeLinesOf(db: Kysely<Database>, sectionId: string): Promise<LineRow[]> {
  return db
    .selectFrom('lines')
    .selectAll()
    .where('section_id', '=', sectionId)
    .where('archived_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
}
