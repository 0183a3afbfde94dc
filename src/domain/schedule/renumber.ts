import type { ActionContext } from '../../core/context.js';
import { schemePicker } from '../codes/matching.js';
import { formatCode } from './codes.js';

export interface CodeChange {
  lineId: string;
  from: string | null;
  to: string;
}

/**
 * Gives the project's active lines consecutive codes (FF-001, FF-002 …) in document order: section order, then
 * position, each line with the prefix of the code scheme its section takes (a Lighting section's lines LT-001 …), each
 * prefix counting on its own. Codes held by archived lines are skipped, never handed out again, because the client document still
 * lists archived lines as removed pieces under their codes. Only lines whose code changes get a new version; the
 * whole mapping is one audit event.
 */
export async function renumberLines(
  ctx: ActionContext,
  projectId: string,
): Promise<{ changes: CodeChange[]; lineCount: number }> {
  const schemeFor = await schemePicker(ctx.db, ctx.studioId);
  const active = await ctx.db
    .selectFrom('lines')
    .innerJoin('sections', 'sections.id', 'lines.section_id')
    .select(['lines.id', 'lines.code', 'lines.version', 'sections.title'])
    .where('lines.project_id', '=', projectId)
    .where('lines.archived_at', 'is', null)
    .orderBy('sections.position')
    .orderBy('lines.position')
    .orderBy('lines.id')
    .execute();
  const archived = await ctx.db
    .selectFrom('lines')
    .select('code')
    .where('project_id', '=', projectId)
    .where('archived_at', 'is not', null)
    .execute();
  const reserved = new Set(archived.map((r) => r.code));
  const changes: CodeChange[] = [];
  const counted = new Map<string, number>();
  for (const line of active) {
    const prefix = `${schemeFor(line.title).prefix}-`;
    let n = counted.get(prefix) ?? 0;
    let code: string;
    do code = formatCode(prefix, ++n);
    while (reserved.has(code));
    counted.set(prefix, n);
    if (line.code === code) continue;
    await ctx.db
      .updateTable('lines')
      .set({ code, version: line.version + 1, updated_at: ctx.now })
      .where('id', '=', line.id)
      .execute();
    changes.push({ lineId: line.id, from: line.code, to: code });
  }
  ctx.audit({
    targetKind: 'project',
    targetId: projectId,
    projectId,
    summary: changes.length
      ? `Renumbered ${changes.length} of ${active.length} lines from ${[...counted.keys()].map((p) => formatCode(p, 1)).join(', ')}`
      : `Codes of all ${active.length} lines were already in order`,
    changes: { codes: changes },
  });
  return { changes, lineCount: active.length };
}
