import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { RowReader } from '../../../db/store.js';
import type { LayoutKind } from '../../../db/vocabulary.js';
import type { AuditTargetKind } from '../../core/audit-kinds.js';
import type { ActionContext } from '../../core/context.js';
import { newId } from '../../core/ids.js';
import { diffPresented } from '../kit/diff-presented.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { refuse } from './checks.js';

/**
 * What table and inspector layouts share: one saved layout per member, kind, subject (the table, or the kind of
 * record) and project. A subject kept per project (a project's schedule, which has its own custom properties) may also
 * be saved without a project, as the member's layout for every project: a project with no layout of its own shows
 * that one (`source: all_projects`), else the built-in one (`built_in`). Before a layout is first saved it is at
 * version 1, and the first save makes it version 2, so the first write is checked like any other. References to custom
 * properties archived since they were saved are left out when read (a property is never unarchived).
 */

/** A member's layout of a table or of the inspector, per project where it has one (NULL: the same everywhere). */
export interface InterfaceLayoutRow {
  id: string;
  member_id: string;
  layout_kind: LayoutKind;
  /** The table (INTERFACE_TABLES) or the kind of record (INSPECTOR_RECORDS). */
  subject: string;
  project_id: string | null;
  /** JSON of the layout, as the API shows it without its version. */
  body: string;
  created_at: string;
  updated_at: string;
  version: number;
}
declare module '../../../db/schema.js' {
  interface Database {
    interface_layouts: InterfaceLayoutRow;
  }
}

export type LayoutSource = 'saved' | 'all_projects' | 'built_in';

export interface LayoutKey {
  kind: LayoutKind;
  subject: string;
  projectId: string | null;
}

/** How one kind of layout is shown, checked and merged; the body is what is stored, as JSON. */
export interface LayoutSpec<Body, Patch> {
  kind: LayoutKind;
  /** The input field naming the subject (`table`, `record`). */
  subjectField: string;
  auditKind: AuditTargetKind;
  what: string;
  perProject: (subject: string) => boolean;
  defaults: (subject: string) => Body;
  /** The body as it takes effect: without references to properties no longer active. */
  show: (body: Body, active: ReadonlySet<string>) => Body;
  /** The patched body, after checking the patch against the subject's vocabulary (throws to refuse). */
  merge: (shown: Body, patch: Patch, subject: string, active: ReadonlySet<string>) => Body;
}

/** What every layout shows beside its body (and beside its subject, under the spec's subjectField). */
export interface LayoutMeta extends Record<string, unknown> {
  projectId: string | null;
  source: LayoutSource;
  version: number;
  updatedAt: string | null;
}

function loadRow(db: Kysely<Database>, memberId: string, key: LayoutKey) {
  let qb = db
    .selectFrom('interface_layouts')
    .selectAll()
    .where('member_id', '=', memberId)
    .where('layout_kind', '=', key.kind)
    .where('subject', '=', key.subject);
  qb = key.projectId === null ? qb.where('project_id', 'is', null) : qb.where('project_id', '=', key.projectId);
  return qb.executeTakeFirst();
}

/** A saved layout's version for the update's check; undefined while it is not saved (version 1). */
export async function layoutVersion(read: RowReader, memberId: string, key: LayoutKey) {
  const row = await read<{ version: number }>(
    `SELECT version FROM interface_layouts
     WHERE member_id = ? AND layout_kind = ? AND subject = ? AND COALESCE(project_id, '') = ?`,
    memberId,
    key.kind,
    key.subject,
    key.projectId ?? '',
  );
  return row?.version;
}

/** The ids of a project's custom properties that are not archived. */
async function activeProperties(db: Kysely<Database>, projectId: string | null): Promise<ReadonlySet<string>> {
  if (projectId === null) return new Set();
  const rows = await db
    .selectFrom('custom_properties')
    .select('id')
    .where('project_id', '=', projectId)
    .where('archived_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** A subject kept the same in every project takes no project. */
export function refuseProjectFor(spec: Pick<LayoutSpec<unknown, unknown>, 'what' | 'perProject'>, key: LayoutKey) {
  if (key.projectId !== null && !spec.perProject(key.subject)) {
    refuse(
      'projectId',
      `The ${key.subject} ${spec.what} is the same in every project: leave projectId out.`,
      'Not kept per project.',
    );
  }
}

interface Resolved<Body> {
  own: InterfaceLayoutRow | undefined;
  body: Body;
  source: LayoutSource;
  active: ReadonlySet<string>;
}

async function resolve<Body, Patch>(
  ctx: Pick<ActionContext, 'db' | 'caller'>,
  spec: LayoutSpec<Body, Patch>,
  key: LayoutKey,
): Promise<Resolved<Body>> {
  const memberId = ctx.caller!.memberId;
  const active = await activeProperties(ctx.db, key.projectId);
  const own = await loadRow(ctx.db, memberId, key);
  if (own) return { own, body: spec.show(JSON.parse(own.body) as Body, active), source: 'saved', active };
  const everywhere = key.projectId === null ? undefined : await loadRow(ctx.db, memberId, { ...key, projectId: null });
  if (everywhere) {
    return { own, body: spec.show(JSON.parse(everywhere.body) as Body, active), source: 'all_projects', active };
  }
  return { own, body: spec.defaults(key.subject), source: 'built_in', active };
}

function present<Body, Patch>(
  spec: LayoutSpec<Body, Patch>,
  key: LayoutKey,
  body: Body,
  source: LayoutSource,
  row: InterfaceLayoutRow | undefined,
): Body & LayoutMeta {
  return {
    [spec.subjectField]: key.subject,
    projectId: key.projectId,
    ...(body as Record<string, unknown>),
    source,
    version: row?.version ?? 1,
    updatedAt: row?.updated_at ?? null,
  } as Body & LayoutMeta;
}

export async function getLayout<Body, Patch>(
  ctx: Pick<ActionContext, 'db' | 'caller'>,
  spec: LayoutSpec<Body, Patch>,
  key: LayoutKey,
) {
  refuseProjectFor(spec, key);
  const { own, body, source } = await resolve(ctx, spec, key);
  return present(spec, key, body, source, own);
}

/**
 * A merge patch of the layout as shown (lists replace whole), checked against the version `invoke` compared. A patch
 * that changes nothing shown changes nothing at all (an inherited layout stays inherited).
 */
export async function updateLayout<Body, Patch>(
  ctx: ActionContext,
  spec: LayoutSpec<Body, Patch>,
  key: LayoutKey,
  patch: Patch,
) {
  refuseProjectFor(spec, key);
  const { own, body: shown, source, active } = await resolve(ctx, spec, key);
  const next = spec.merge(shown, patch, key.subject, active);
  const cols = { body: JSON.stringify(next) };
  const audit = { targetKind: spec.auditKind, summary: `Arranged their ${key.subject} ${spec.what}` };
  if (own) {
    const presentRow = (r: InterfaceLayoutRow) =>
      present(spec, key, spec.show(JSON.parse(r.body) as Body, active), 'saved', r);
    return versionedUpdate(ctx, 'interface_layouts', own, cols, { present: presentRow, audit: () => audit });
  }
  const before = present(spec, key, shown, source, undefined);
  if (cols.body === JSON.stringify(shown)) {
    ctx.unchanged();
    return before;
  }
  const created: InterfaceLayoutRow = {
    id: newId(),
    member_id: ctx.caller!.memberId,
    layout_kind: spec.kind,
    subject: key.subject,
    project_id: key.projectId,
    created_at: ctx.now,
    updated_at: ctx.now,
    version: 2,
    ...cols,
  };
  await ctx.db.insertInto('interface_layouts').values(created).execute();
  const after = present(spec, key, next, 'saved', created);
  ctx.audit({
    ...audit,
    targetId: created.id,
    changes: diffPresented(shown as Record<string, unknown>, next as Record<string, unknown>),
  });
  return after;
}
