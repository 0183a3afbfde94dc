import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { presentLine, type PresentedLine } from '../schedule/line-record.js';
import { bumpLineVersion } from '../schedule/line-version.js';
import { assertActive, loadLine, presentationFor } from '../schedule/lines.js';
import { loadSpecification } from './specifications.js';

interface OnLine {
  projectId: string;
  lineId: string;
  specificationId: string;
}

/** The specification ids attached to a line, in its order. */
async function attachedTo(ctx: Pick<ActionContext, 'db'>, lineId: string): Promise<string[]> {
  const rows = await ctx.db
    .selectFrom('line_specifications')
    .select('specification_id')
    .where('line_id', '=', lineId)
    .orderBy('position')
    .execute();
  return rows.map((r) => r.specification_id);
}

/** Writes a line's specifications as the given order (positions 1, 2, 3 …), touching only the rows that change. */
async function writeOrder(
  ctx: ActionContext,
  line: { id: string; project_id: string },
  before: string[],
  after: string[],
) {
  const gone = before.filter((id) => !after.includes(id));
  if (gone.length) {
    await ctx.db
      .deleteFrom('line_specifications')
      .where('line_id', '=', line.id)
      .where('specification_id', 'in', gone)
      .execute();
  }
  for (const [i, id] of after.entries()) {
    const was = before.indexOf(id);
    if (was === i) continue;
    if (was < 0) {
      await ctx.db
        .insertInto('line_specifications')
        .values({
          line_id: line.id,
          specification_id: id,
          project_id: line.project_id,
          position: i + 1,
          attached_at: ctx.now,
        })
        .execute();
    } else {
      await ctx.db
        .updateTable('line_specifications')
        .set({ position: i + 1 })
        .where('line_id', '=', line.id)
        .where('specification_id', '=', id)
        .execute();
    }
  }
}

/**
 * Changes which specifications a line shows, or their order: a change to the line, so its version moves on by one
 * and the change is audited on the line, by name, in order. The same list again changes nothing.
 */
async function reorder(ctx: ActionContext, input: OnLine, change: (ids: string[]) => string[]) {
  const line = await loadLine(ctx, input.projectId, input.lineId);
  assertActive(line);
  const before = await attachedTo(ctx, line.id);
  const after = change(before);
  const p = await presentationFor(ctx, input.projectId);
  if (after.join() === before.join()) {
    ctx.unchanged();
    await p.know([line]);
    return presentLine(line, p);
  }
  await writeOrder(ctx, line, before, after);
  const version = await bumpLineVersion(ctx, line);
  const shown = { ...line, version, updated_at: ctx.now };
  await p.know([shown]);
  const presented: PresentedLine = presentLine(shown, p);
  const names = new Map(presented.specifications.map((s) => [s.id, s.name]));
  const { specification } = await loadSpecification(ctx, input.specificationId);
  names.set(specification.id, specification.name);
  const id = specification.id;
  const said = !after.includes(id) ? 'Detached' : before.includes(id) ? 'Moved' : 'Attached';
  ctx.audit({
    targetKind: 'line',
    targetId: line.id,
    projectId: input.projectId,
    summary: `${said} specification ${specification.name} ${said === 'Detached' ? 'from' : 'on'} line ${line.code ?? line.heading}`,
    changes: {
      specifications: { from: before.map((id) => names.get(id) ?? id), to: after.map((id) => names.get(id)!) },
    },
  });
  return presented;
}

/**
 * Attaches a library specification to a line at a 1-based position among its specifications (default: last), or
 * moves it there when the line has it already. An archived specification stays on the lines that have it but is not
 * newly attached.
 */
export async function attachSpecification(ctx: ActionContext, input: OnLine & { position?: number | undefined }) {
  const { specification } = await loadSpecification(ctx, input.specificationId);
  return reorder(ctx, input, (ids) => {
    const has = ids.includes(specification.id);
    if (!has && specification.archived_at) {
      throw new ServiceError(
        'ARCHIVED',
        `The specification ${specification.name} is archived; attach an active one (search_specifications).`,
      );
    }
    const rest = ids.filter((id) => id !== specification.id);
    // Without a position it stays where it is, or goes last; a position past the end is the end.
    const wanted = input.position ?? (has ? ids.indexOf(specification.id) + 1 : rest.length + 1);
    const at = Math.min(wanted - 1, rest.length);
    return [...rest.slice(0, at), specification.id, ...rest.slice(at)];
  });
}

/** Takes a specification off a line; the others close up. The specification itself stays in the library. */
export async function detachSpecification(ctx: ActionContext, input: OnLine) {
  return reorder(ctx, input, (ids) => {
    if (!ids.includes(input.specificationId)) {
      throw new ServiceError(
        'NOT_FOUND',
        `The line does not have specification ${input.specificationId}; its specifications list shows those it has.`,
      );
    }
    return ids.filter((id) => id !== input.specificationId);
  });
}
