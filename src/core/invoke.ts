import type { Kysely } from 'kysely';
import type { Database, ProjectsTable } from '../../db/schema.js';
import type { Store } from '../../db/sqlite.js';
import type Sqlite from 'better-sqlite3';
import type { Config } from '../config.js';
import type { AnyAction } from './define-action.js';
import { CONTROL_FIELDS } from './define-action.js';
import type { ActionContext, AuditInput, Caller } from './context.js';
import { authenticate } from './auth.js';
import { ServiceError, toServiceError } from './errors.js';
import { grantAllows, reachesAllProjects, type GrantLevel } from './permissions.js';
import { ENTITIES, ID_FIELDS, type EntityKind } from './entities.js';
import { parseInput } from './validation.js';
import { pricingFieldIn, withoutPricing } from './pricing-visibility.js';
import { actorOf, appendAuditEvents } from './audit.js';
import { findIdempotentReplay, requestHash, saveIdempotentResponse } from './idempotency.js';
import { nowIso, newId } from './ids.js';
import { allErrorsOf } from './action-errors.js';

export interface Runtime {
  store: Store;
  config: Config;
  /** Keys whose first request is running now: a second arrival answers IDEMPOTENCY_IN_PROGRESS. */
  inFlight: Map<string, string>;
  log?: (msg: string, err?: unknown) => void;
}

export interface InvokeRequest {
  /** The bearer token, when the surface received one. */
  token?: string;
  /** An already authenticated caller (stdio MCP acts for a fixed member). */
  caller?: Caller;
  requestId?: string;
}

/**
 * The one execution path. Every surface (REST, tRPC, MCP, agent results) calls this with the raw input and gets back
 * validated, redacted output or a ServiceError:
 * authenticate → studio → scope → project grant → ownership of nested ids → idempotency → expected version →
 * handler in one write transaction → audit in the same transaction → output validation → pricing redaction.
 */
export async function invoke(
  rt: Runtime,
  action: AnyAction,
  rawInput: unknown,
  req: InvokeRequest = {},
): Promise<unknown> {
  const requestId = req.requestId ?? newId();
  try {
    const caller = action.scope === 'capability' ? null : (req.caller ?? authenticate(rt.store, req.token));
    if (caller && !hasScope(caller, action)) {
      throw new ServiceError(
        'FORBIDDEN',
        `This needs the ${action.scope} permission, which your role (${caller.role}) does not have.`,
      );
    }
    const input = parseInput(action.fullInput, rawInput) as Record<string, unknown>;
    if (caller && !caller.permissions.has('pricing:write') && action.effect === 'mutation') {
      const field = pricingFieldIn(input);
      if (field)
        throw new ServiceError(
          'FORBIDDEN',
          `Setting ${field} needs the pricing:write permission, which your role (${caller.role}) does not have.`,
        );
    }
    const run = (db: Kysely<Database>) => execute(rt, action, input, caller, requestId, db);
    // Writes share the writer connection's grouped transactions; reads use the reader connection's snapshot and never
    // wait behind writes.
    const output =
      action.effect === 'mutation'
        ? await keyed(rt, action, input, caller, () => rt.store.write(run))
        : await rt.store.readSnapshot(run);
    return caller && !caller.permissions.has('pricing:read') ? withoutPricing(output) : output;
  } catch (err) {
    const se = toServiceError(err);
    if (se.code === 'INTERNAL') rt.log?.(`internal error in ${action.name} (${requestId})`, err);
    else if (!allErrorsOf(action).has(se.code) && process.env.STUDIO_STRICT_ERRORS === '1') {
      throw new ServiceError('INTERNAL', `${action.name} raised undeclared code ${se.code}`);
    }
    throw se;
  }
}

function hasScope(caller: Caller, action: AnyAction): boolean {
  return action.scope === 'member' || caller.permissions.has(action.scope as never);
}

/** Marks a keyed request in flight for its duration, so a concurrent twin answers 409 rather than running twice. */
async function keyed<T>(
  rt: Runtime,
  action: AnyAction,
  input: Record<string, unknown>,
  caller: Caller | null,
  fn: () => Promise<T>,
): Promise<T> {
  const field = CONTROL_FIELDS[action.kind].key;
  const key = action.keyed ? (input[field] as string | undefined) : undefined;
  if (!key || !caller) return fn();
  const slot = `${caller.studioId}\u0000${caller.memberId}\u0000${key}`;
  const hash = requestHash(action.name, input, field);
  const running = rt.inFlight.get(slot);
  if (running !== undefined) {
    throw running === hash ? new ServiceError('IDEMPOTENCY_IN_PROGRESS') : new ServiceError('IDEMPOTENCY_KEY_REUSED');
  }
  rt.inFlight.set(slot, hash);
  try {
    return await fn();
  } finally {
    rt.inFlight.delete(slot);
  }
}

async function execute(
  rt: Runtime,
  action: AnyAction,
  input: Record<string, unknown>,
  caller: Caller | null,
  requestId: string,
  db: Kysely<Database>,
): Promise<unknown> {
  const write = action.effect === 'mutation';
  const now = nowIso();
  const studioId = caller?.studioId ?? '';
  // Checks read through the connection the handler will use: inside a write, the open transaction (so earlier writes
  // of the same commit group are seen); for a query, the reader's snapshot. Raw cached statements: this is every
  // request's hot path.
  const stmt = write ? rt.store.writeStatement : rt.store.read;
  const project = caller ? checkProjects(stmt, caller, input, write) : undefined;
  if (caller) checkOwnership(stmt, caller, input, project?.id);
  if (write && !action.archivedProjectWritable) refuseArchivedProjects(stmt, input, project);

  const controls = CONTROL_FIELDS[action.kind];
  const key = action.keyed ? (input[controls.key] as string | undefined) : undefined;
  if (action.keyed && action.kind === 'resource' && !key) throw new ServiceError('IDEMPOTENCY_KEY_REQUIRED');
  if (key && caller) {
    const replay = await findIdempotentReplay(
      db,
      caller,
      key,
      action.name,
      requestHash(action.name, input, controls.key),
    );
    if (replay.found) return replay.response;
  }
  if (action.versioned) checkVersion(stmt, action, input, studioId);

  const events: AuditInput[] = [];
  const ctx: ActionContext = {
    db,
    statement: stmt,
    config: rt.config,
    caller,
    studioId,
    project,
    now,
    requestId,
    audit: (e) => void events.push(e),
  };
  const raw = await action.handler(ctx, stripControls(input, action));
  const checked = action.output.safeParse(raw);
  if (!checked.success) {
    rt.log?.(`output of ${action.name} does not match its schema`, checked.error);
    throw new ServiceError('INTERNAL');
  }
  const output = checked.data;
  if (write) {
    if (!events.length)
      events.push({
        targetKind: 'studio',
        targetId: studioId,
        summary: action.summary,
        projectId: project?.id ?? null,
      });
    await appendAuditEvents(db, studioId, actorOf(caller), action.name, now, events);
    if (key && caller) {
      // Secrets shown once (e.g. a new API token) are not kept: a replay answers the same record with them null.
      const kept = action.shownOnce?.length
        ? { ...(output as object), ...Object.fromEntries(action.shownOnce.map((f) => [f, null])) }
        : output;
      await saveIdempotentResponse(
        db,
        caller,
        key,
        action.name,
        requestHash(action.name, input, controls.key),
        kept,
        now,
      );
    }
  }
  return output;
}

/** Handlers never see the control fields; `invoke` has already acted on them. */
function stripControls(input: Record<string, unknown>, action: AnyAction): Record<string, unknown> {
  if (!action.versioned && !action.keyed) return input;
  const { [CONTROL_FIELDS[action.kind].version]: _v, [CONTROL_FIELDS[action.kind].key]: _k, ...rest } = input;
  return rest;
}

/**
 * The project in `projectId` (and any `targetProjectId`) must be the caller's studio's, and the caller must hold a
 * grant unless they manage the workspace. A project of another studio, or one not granted at all, is 404: its
 * existence is not revealed. A `view` grant used for a write is 403.
 */
type Statements = (sqlText: string) => Sqlite.Statement;

function checkProjects(
  stmt: Statements,
  caller: Caller,
  input: Record<string, unknown>,
  write: boolean,
): ProjectsTable | undefined {
  let main: ProjectsTable | undefined;
  for (const field of ['projectId', 'targetProjectId'] as const) {
    const id = input[field];
    if (typeof id !== 'string') continue;
    const project = stmt('SELECT * FROM projects WHERE id = ? AND studio_id = ?').get(id, caller.studioId) as
      | ProjectsTable
      | undefined;
    if (!project) throw new ServiceError('NOT_FOUND', `No project ${id} exists in your studio.`);
    if (!reachesAllProjects(caller.permissions)) {
      const grant = stmt('SELECT level FROM project_grants WHERE project_id = ? AND member_id = ?').get(
        id,
        caller.memberId,
      ) as { level: string } | undefined;
      if (!grant) throw new ServiceError('NOT_FOUND', `No project ${id} exists in your studio.`);
      if (!grantAllows(grant.level as GrantLevel, write)) {
        throw new ServiceError(
          'FORBIDDEN',
          'You can view this project but not change it; ask a studio admin for an edit grant.',
        );
      }
    }
    if (field === 'projectId') main = project;
  }
  return main;
}

/** A write under an archived project (or into an archived target project) changes a frozen schedule. */
function refuseArchivedProjects(stmt: Statements, input: Record<string, unknown>, project: ProjectsTable | undefined) {
  const target =
    typeof input.targetProjectId === 'string'
      ? (stmt('SELECT archived_at FROM projects WHERE id = ?').get(input.targetProjectId) as
          | { archived_at: string | null }
          | undefined)
      : undefined;
  if (project?.archived_at || target?.archived_at) {
    throw new ServiceError(
      'ARCHIVED',
      'This project is archived, so its schedule cannot change; restore it with restore_project first.',
    );
  }
}

const WHERE_OWNED = {
  project: 'in this project',
  studio: 'in your studio',
  member: 'among your own in this studio',
} as const;

/** Every id the input names (at any depth) must belong to the project in the request, the caller's studio, or the caller. */
function checkOwnership(
  stmt: Statements,
  caller: Caller,
  input: Record<string, unknown>,
  projectId: string | undefined,
) {
  const { studioId, memberId } = caller;
  const claims: Array<{ field: string; kind: EntityKind; id: string }> = [];
  collectIds(input, claims, 0);
  const targetProject = typeof input.targetProjectId === 'string' ? input.targetProjectId : projectId;
  for (const { field, kind, id } of claims) {
    if (kind === 'project') continue; // checked with grants above
    const info = ENTITIES[kind];
    // Table and column names come from the fixed ENTITIES table, never from input.
    const row = stmt(`SELECT ${info.owner.column} AS owner FROM ${info.table} WHERE id = ?`).get(id) as
      | { owner: string }
      | undefined;
    let owns: boolean;
    if (!row) owns = false;
    else if (info.owner.level === 'studio') owns = row.owner === studioId;
    else if (info.owner.level === 'member') owns = row.owner === memberId;
    else {
      const expected = field.startsWith('target') ? targetProject : projectId;
      owns = expected !== undefined && row.owner === expected;
    }
    if (!owns)
      throw new ServiceError(
        'NOT_FOUND',
        `No ${kind.replace('_', ' ')} ${id} exists ${WHERE_OWNED[info.owner.level]}.`,
      );
  }
}

function collectIds(value: unknown, out: Array<{ field: string; kind: EntityKind; id: string }>, depth: number) {
  if (depth > 6 || !value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) collectIds(v, out, depth + 1);
    return;
  }
  for (const [field, v] of Object.entries(value)) {
    const kind = ID_FIELDS[field];
    // Braces matter: without them the last `else` binds to the inner `if` and nested ids go unchecked.
    if (kind && typeof v === 'string') out.push({ field, kind, id: v });
    else if (kind && Array.isArray(v)) {
      for (const id of v) if (typeof id === 'string') out.push({ field, kind, id });
    } else collectIds(v, out, depth + 1);
  }
}

/** Reads an ETag or version the caller echoed back; anything unparsable can never match. */
export function parseVersion(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  // `"4-1c9e0a7b"` (what this API sends), `"4"` or a bare 4: the version is the leading number.
  const m = /^(?:W\/)?"?(\d{1,15})(?:-[0-9a-f]{1,64})?"?$/.exec(value.trim());
  return m ? Number(m[1]) : Number.NaN;
}

function checkVersion(stmt: Statements, action: AnyAction, input: Record<string, unknown>, studioId: string) {
  const { entity, idField } = action.versioned!;
  const sent = input[CONTROL_FIELDS[action.kind].version];
  // idField 'studioId' names the caller's own studio: a token acts in exactly one studio, so the id is never sent.
  const id = idField === 'studioId' ? studioId : (input[idField] as string);
  const row = stmt(`SELECT version FROM ${ENTITIES[entity].table} WHERE id = ?`).get(id) as
    | { version: number }
    | undefined;
  if (!row) throw new ServiceError('NOT_FOUND');
  if (sent === undefined) {
    throw new ServiceError(
      'PRECONDITION_REQUIRED',
      action.kind === 'resource'
        ? `Send the ETag from your last read of this ${entity} in the If-Match header.`
        : `Send expectedVersion: the ${entity}'s version from your last read.`,
    );
  }
  if (parseVersion(sent) !== row.version) {
    throw new ServiceError(
      'VERSION_CONFLICT',
      `The ${entity} has changed since you read it (it is at version ${row.version}); read it again, reapply your change and report.`,
      {
        extra: { currentVersion: row.version },
      },
    );
  }
}
