import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { RowReader } from '../../../db/store.js';
import type { ActionContext, Caller } from '../../core/context.js';
import { newId } from '../../core/ids.js';
import { reachesAllProjects } from '../../core/permissions.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { refuseRepeats, refuseEmptyPatch } from './checks.js';
import { LIMITS, type SidebarGroup } from './vocabulary.js';

/**
 * A member's own interface state in their studio: the sidebar (versioned) and when they completed the first-run flow
 * (set once, no version). One row per membership, made by the first write; before it, everything is the default.
 */

/** Its row (db/migrations/021_interface_state.ts): the sidebar as JSON, the first run's stamp. */
export interface MemberInterfaceStateRow {
  id: string;
  member_id: string;
  /** JSON of the sidebar as the member left it; NULL while it is the default. */
  sidebar: string | null;
  first_run_completed_at: string | null;
  created_at: string;
  updated_at: string;
  /** The sidebar's version: completing the first run does not move it. */
  version: number;
}
declare module '../../../db/schema.js' {
  interface Database {
    member_interface_state: MemberInterfaceStateRow;
  }
}

export interface Sidebar {
  collapsed: boolean;
  width: number;
  collapsedGroups: SidebarGroup[];
  pinnedProjectIds: string[];
}

export interface PresentedSidebar extends Sidebar, Record<string, unknown> {
  version: number;
  updatedAt: string | null;
}

export const DEFAULT_SIDEBAR: Sidebar = {
  collapsed: false,
  width: LIMITS.sidebarWidth.default,
  collapsedGroups: [],
  pinnedProjectIds: [],
};

type Ctx = Pick<ActionContext, 'db' | 'caller'>;

const loadState = (db: Kysely<Database>, memberId: string) =>
  db.selectFrom('member_interface_state').selectAll().where('member_id', '=', memberId).executeTakeFirst();

/** The sidebar's version for update_sidebar_state (undefined before anything was saved: the default, version 1). */
export async function sidebarVersion(read: RowReader, _input: unknown, caller: Caller) {
  const row = await read<{ version: number }>(
    'SELECT version FROM member_interface_state WHERE member_id = ?',
    caller.memberId,
  );
  return row?.version;
}

/**
 * The projects among `ids` the caller can still reach (the studio's; only granted ones unless they manage the
 * workspace), in the order given. A pinned project the member lost access to drops out of what is shown.
 */
async function reachable(ctx: Ctx, ids: readonly string[]): Promise<string[]> {
  if (!ids.length) return [];
  const caller = ctx.caller!;
  let qb = ctx.db
    .selectFrom('projects')
    .select('id')
    .where('studio_id', '=', caller.studioId)
    .where('id', 'in', [...ids]);
  if (!reachesAllProjects(caller.permissions)) {
    qb = qb.where(
      'id',
      'in',
      ctx.db.selectFrom('project_grants').select('project_id').where('member_id', '=', caller.memberId),
    );
  }
  const found = new Set((await qb.execute()).map((r) => r.id));
  return ids.filter((id) => found.has(id));
}

async function presentSidebar(ctx: Ctx, row: MemberInterfaceStateRow | undefined): Promise<PresentedSidebar> {
  const saved = row?.sidebar ? (JSON.parse(row.sidebar) as Sidebar) : undefined;
  const sidebar = saved ?? DEFAULT_SIDEBAR;
  return {
    collapsed: sidebar.collapsed,
    width: sidebar.width,
    collapsedGroups: [...sidebar.collapsedGroups],
    pinnedProjectIds: await reachable(ctx, sidebar.pinnedProjectIds),
    version: row?.version ?? 1,
    updatedAt: saved ? row!.updated_at : null,
  };
}

/** What a client needs at start (get_current_user): the sidebar and whether the first-run flow is done. */
export async function interfaceStateOf(ctx: Ctx) {
  const row = await loadState(ctx.db, ctx.caller!.memberId);
  return { firstRunCompletedAt: row?.first_run_completed_at ?? null, sidebar: await presentSidebar(ctx, row) };
}

export async function getSidebar(ctx: Ctx) {
  return presentSidebar(ctx, await loadState(ctx.db, ctx.caller!.memberId));
}

export type SidebarPatch = { [K in keyof Sidebar]?: Sidebar[K] | undefined };

/**
 * A merge patch of the sidebar (lists replace whole), checked against the version `invoke` compared. The first save
 * makes the row's sidebar (version 2: the default was 1); a patch that changes nothing shown changes nothing at all.
 */
export async function updateSidebar(ctx: ActionContext, patch: SidebarPatch) {
  refuseEmptyPatch(patch, ['collapsed', 'width', 'collapsedGroups', 'pinnedProjectIds']);
  refuseRepeats(patch.collapsedGroups ?? [], 'collapsedGroups', 'The group');
  refuseRepeats(patch.pinnedProjectIds ?? [], 'pinnedProjectIds', 'The project');
  const memberId = ctx.caller!.memberId;
  const row = await loadState(ctx.db, memberId);
  const before = await presentSidebar(ctx, row);
  const next: Sidebar = {
    collapsed: patch.collapsed ?? before.collapsed,
    width: patch.width ?? before.width,
    collapsedGroups: patch.collapsedGroups ?? before.collapsedGroups,
    pinnedProjectIds: patch.pinnedProjectIds ?? before.pinnedProjectIds,
  };
  const cols = { sidebar: JSON.stringify(next) };
  const audit = { targetKind: 'member' as const, targetId: memberId, summary: 'Arranged their sidebar' };
  const present = (r: MemberInterfaceStateRow) => presentSidebar(ctx, r);
  if (row) return versionedUpdate(ctx, 'member_interface_state', row, cols, { present, audit: () => audit });
  const created: MemberInterfaceStateRow = {
    id: newId(),
    member_id: memberId,
    first_run_completed_at: null,
    created_at: ctx.now,
    updated_at: ctx.now,
    version: 2,
    ...cols,
  };
  const after = await present(created);
  if (sameSidebar(before, after)) {
    ctx.unchanged();
    return before;
  }
  await ctx.db.insertInto('member_interface_state').values(created).execute();
  ctx.audit({ ...audit, changes: { sidebar: { from: sidebarOf(before), to: sidebarOf(after) } } });
  return after;
}

const sidebarOf = ({ collapsed, width, collapsedGroups, pinnedProjectIds }: Sidebar): Sidebar => ({
  collapsed,
  width,
  collapsedGroups,
  pinnedProjectIds,
});
const sameSidebar = (a: Sidebar, b: Sidebar) => JSON.stringify(sidebarOf(a)) === JSON.stringify(sidebarOf(b));

/**
 * Records that the member finished the first-run flow, once: a second call answers the first time and changes
 * nothing (so a retry is harmless, and no version is needed). The sidebar's version does not move.
 */
export async function completeFirstRun(ctx: ActionContext) {
  const memberId = ctx.caller!.memberId;
  const row = await loadState(ctx.db, memberId);
  if (row?.first_run_completed_at) {
    ctx.unchanged();
    return { firstRunCompletedAt: row.first_run_completed_at, alreadyCompleted: true };
  }
  if (row) {
    await ctx.db
      .updateTable('member_interface_state')
      .set({ first_run_completed_at: ctx.now })
      .where('id', '=', row.id)
      .execute();
  } else {
    await ctx.db
      .insertInto('member_interface_state')
      .values({
        id: newId(),
        member_id: memberId,
        sidebar: null,
        first_run_completed_at: ctx.now,
        created_at: ctx.now,
        updated_at: ctx.now,
        version: 1,
      })
      .execute();
  }
  ctx.audit({
    targetKind: 'member',
    targetId: memberId,
    summary: 'Completed the first-run flow',
    changes: { firstRunCompletedAt: { from: null, to: ctx.now } },
  });
  return { firstRunCompletedAt: ctx.now, alreadyCompleted: false };
}
