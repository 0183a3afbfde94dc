import type { ActionContext } from '../../core/context.js';
import { codePrefix, formatCode } from './codes.js';

export interface CodeChange {
  lineId: string;
  from: string | null;
  to: string;
}

/**
 * Gives the project's active lines consecutive codes (FF-001, FF-002 …) in document order: section order, then
 * position. Codes held by archived lines are skipped, never handed out again, because the client document still
 * lists archived lines as removed pieces under their codes. Only lines whose code changes get a new version; the
 * whole mapping is one audit event.
 */
export async function renumberLines(
  ctx: ActionContext,
  projectId: string,
): Promise<{ changes: CodeChange[]; lineCount: number }> {
  const prefix = await codePrefix(ctx.db, ctx.studioId);
  const active = await ctx.db
    .selectFrom('lines')
    .innerJoin('sections', 'sections.id', 'lines.section_id')
    .select(['lines.id', 'lines.code', 'lines.version'])
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
  let n = 0;
  for (const line of active) {
    let code: string;
    do code = formatCode(prefix, ++n);
    while (reserved.has(code));
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
      ? `Renumbered ${changes.length} of ${active.length} lines from ${formatCode(prefix, 1)}`
      : `Codes of all ${active.length} lines were already in order`,
    changes: { codes: changes },
  });
  return { changes, lineCount: active.length };
}
