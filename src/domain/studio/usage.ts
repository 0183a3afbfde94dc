import type { ActionContext } from '../../core/context.js';
import { ROLES } from '../../core/permissions.js';
import { studioStorage } from '../storage/references.js';

/**
 * What the studio holds, as counts (integers only). Counted with SQL over the caller's studio; nothing is listed, so
 * any member may read it.
 */
export async function studioUsage(ctx: ActionContext) {
  const { db, studioId } = ctx;
  const projects = await db
    .selectFrom('projects')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('studio_id', '=', studioId)
    .groupBy('status')
    .execute();
  const lines = await db
    .selectFrom('lines')
    .innerJoin('projects', 'projects.id', 'lines.project_id')
    .select([
      (eb) => eb.fn.countAll<number>().as('total'),
      (eb) => eb.fn.count<number>('lines.archived_at').as('archived'),
    ])
    .where('projects.studio_id', '=', studioId)
    .executeTakeFirstOrThrow();
  const members = await db
    .selectFrom('members')
    .select(['role', (eb) => eb.fn.countAll<number>().as('n')])
    .where('studio_id', '=', studioId)
    .where('removed_at', 'is', null)
    .groupBy('role')
    .execute();
  const tokens = await db
    .selectFrom('api_tokens')
    .innerJoin('members', 'members.id', 'api_tokens.member_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('members.studio_id', '=', studioId)
    .where('members.removed_at', 'is', null)
    .where('api_tokens.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('api_tokens.expires_at', 'is', null), eb('api_tokens.expires_at', '>', ctx.now)]))
    .executeTakeFirstOrThrow();

  const projectCount = (status: string) => Number(projects.find((p) => p.status === status)?.n ?? 0);
  const byRole = Object.fromEntries(ROLES.map((r) => [r, Number(members.find((m) => m.role === r)?.n ?? 0)])) as Record<
    (typeof ROLES)[number],
    number
  >;
  const totalLines = Number(lines.total);
  const archivedLines = Number(lines.archived);
  return {
    projects: { active: projectCount('active'), archived: projectCount('archived') },
    lines: { active: totalLines - archivedLines, archived: archivedLines },
    members: { active: Object.values(byRole).reduce((a, b) => a + b, 0), byRole },
    apiTokens: { active: Number(tokens.n) },
    storage: { ...(await studioStorage(db, studioId)), quotaBytes: ctx.config.storageQuotaBytes || null },
    asOf: ctx.now,
  };
}
