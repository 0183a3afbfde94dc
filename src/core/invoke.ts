import type { Kysely } from 'kysely';
import type { Database, ProjectsTable } from '../../db/schema.js';
import type { GroupMemo, RowReader, SendLater, Store } from '../../db/store.js';
import type { Config } from '../config.js';
import type { AnyAction, ReadAhead } from './define-action.js';
import { CONTROL_FIELDS } from './define-action.js';
import type { ActionContext, AuditInput, Caller } from './context.js';
import { authenticate } from './auth.js';
import type { StudioPermission } from './permissions.js';
import { missingPermission } from './scope-refusal.js';
import { ServiceError, toServiceError } from './errors.js';
import type { ResolvedRef } from './guards.js';
import { parseInput } from './validation.js';
import { lookupSafeCapability } from './capability.js';
import { pricedFieldSent, withoutPricing } from './pricing-visibility.js';
import { type KnownRecord, resolveRefs } from './ownership.js';
import { actorOf, appendQueuedEvents } from './audit.js';
import { findIdempotentReplay, requestHash, saveIdempotentResponse } from './idempotency.js';
import { nowIso, newId } from './ids.js';
import { entityTags, etagOf, versionInTag } from './etag.js';
import { allErrorsOf } from './action-errors.js';
import type { SnapshotCache } from './result-cache.js';
import { CONFIRM_FIELD, type Confirmer, type ConfirmedBy, obtainConfirmation } from './confirmation.js';
import type { BlobStore, StagedBlob } from '../files/blob-store.js';

export interface Runtime {
  store: Store;
  config: Config;
  /** Keys whose first request is running now: a second arrival answers IDEMPOTENCY_IN_PROGRESS. */
  inFlight: Map<string, string>;
  /** Large results being read page by page (MCP read_action_result, /api/agent-results). */
  snapshots: SnapshotCache;
  /** Where uploaded files and their derivatives are kept. */
  files: BlobStore;
  /** Stops this process's operation workers (letting a running job finish its step), then closes the store. */
  close(): Promise<void>;
  log?: (msg: string, err?: unknown) => void;
}

export interface InvokeRequest {
  /** The bearer token, when the surface received one. */
  token?: string;
  /** An already authenticated caller (stdio MCP acts for a fixed member). */
  caller?: Caller;
  requestId?: string;
  /**
   * Which surface the call came through, so messages name what that caller sends: REST carries a resource's version
   * and key in the If-Match and Idempotency-Key headers, MCP and tRPC as input fields (ifMatch, idempotencyKey,
   * expectedVersion, commandKey). REST wording when absent.
   */
  surface?: Surface;
  /** A file an HTTP upload streamed to the blob store for an action with `http.upload`; the surface discards it after. */
  upload?: StagedBlob;
  /**
   * How this surface asks the person themselves to confirm an act that needs it (an MCP client that declared
   * elicitation); without one, such an act needs `confirm: true` from the caller. See src/core/confirmation.ts.
   */
  confirmer?: Confirmer;
}

export type Surface = 'rest' | 'trpc' | 'mcp';

/** The name of a control field as the caller on `surface` sends it, for messages. */
export function controlFieldName(action: AnyAction, which: 'version' | 'key', surface: Surface = 'rest'): string {
  if (action.kind === 'resource' && surface === 'rest') return which === 'version' ? 'If-Match' : 'Idempotency-Key';
  return CONTROL_FIELDS[action.kind][which];
}

/**
 * The one execution path. Every surface (REST, tRPC, MCP, agent results) calls this with the raw input and gets back
 * validated, redacted output or a ServiceError:
 * authenticate → studio → scope → project grant → ownership of nested ids → idempotency → expected version →
 * (for an act the person must confirm: those checks on a read snapshot, then the person's agreement, with no
 * transaction open while they decide) → handler in one write transaction → audit in the same transaction → output
 * validation → pricing redaction.
 * An action of scope `capability` has no caller: its capability (a share token in the input) is opened instead, on
 * the handler's own connection, and gives the studio it acts in.
 */
export async function invoke(
  rt: Runtime,
  action: AnyAction,
  rawInput: unknown,
  req: InvokeRequest = {},
): Promise<unknown> {
  const requestId = req.requestId ?? newId();
  try {
    const caller = action.scope === 'capability' ? null : (req.caller ?? (await authenticate(rt.store, req.token)));
    if (caller && !hasScope(caller, action)) {
      throw new ServiceError('FORBIDDEN', missingPermission(caller, action.scope as StudioPermission, 'This'));
    }
    const capabilityField = action.capability?.field;
    const input = parseInput(
      action.fullInput,
      capabilityField ? lookupSafeCapability(rawInput, capabilityField) : rawInput,
    ) as Record<string, unknown>;
    if (caller && !caller.permissions.has('pricing:write') && action.effect === 'mutation') {
      const field = pricedFieldSent(input, action.plan.pricedInput);
      if (field) throw new ServiceError('FORBIDDEN', missingPermission(caller, 'pricing:write', `Setting ${field}`));
    }
    let prepared: unknown;
    let confirmedBy: ConfirmedBy | undefined;
    const committed: Array<() => void> = [];
    // A write may run twice (WriteOptions.repeatable): what it leaves for after the commit is its last run's.
    const run = (db: Kysely<Database>, queryRow: RowReader, memo?: GroupMemo, later?: SendLater) =>
      execute(
        rt,
        action,
        input,
        caller,
        requestId,
        db,
        queryRow,
        memo,
        later,
        req.surface,
        prepared,
        committed,
        confirmedBy,
      );
    // Writes share the writer connection's grouped transactions; reads use the reader connection's snapshot and never
    // wait behind writes. Slow preparation (an upload's decoding) and waiting for a person's agreement happen before
    // the transaction, never inside it.
    const output =
      action.effect === 'mutation'
        ? await keyed(rt, action, input, caller, async () => {
            if (action.confirmation && caller) confirmedBy = await confirmAct(rt, action, input, caller, req);
            if (action.prepare) prepared = await action.prepare({ files: rt.files }, input, req.upload);
            const written = await rt.store.write(run, { repeatable: true });
            for (const fn of committed) fn();
            return written;
          })
        : await rt.store.readSnapshot(run);
    return shownTo(caller, action, output);
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
  const hash = requestHash(action.name, input, hashIgnores(action));
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

/**
 * The checks every call makes on the connection it reads through, before anything is written: ownership of the ids
 * it names, the action's guards, a keyed replay (answered as first answered) and the expected version.
 */
async function admit(
  action: AnyAction,
  input: Record<string, unknown>,
  caller: Caller | null,
  studioId: string,
  db: Kysely<Database>,
  queryRow: RowReader,
  surface: Surface | undefined,
  known?: KnownRecord,
): Promise<{ project: ProjectsTable | undefined; replay?: { response: unknown } }> {
  const write = action.effect === 'mutation';
  // Checks read through the connection the handler will use: inside a write, the open transaction (so earlier writes
  // of the same commit group are seen); for a query, the reader's snapshot. Raw cached statements: this is every
  // request's hot path.
  const { refs, project } = caller ? await resolveRefs(queryRow, caller, action, input, write, known) : NO_REFS;
  if (caller) {
    for (const guard of action.guards ?? []) {
      await guard.check({ actionName: action.name, caller, input, write, queryRow, refs, project });
    }
  }

  const key = action.keyed ? (input[CONTROL_FIELDS[action.kind].key] as string | undefined) : undefined;
  if (action.keyed && !key) throw keyRequired(action, surface);
  if (key && caller) {
    const replay = await findIdempotentReplay(
      db,
      caller,
      key,
      action.name,
      requestHash(action.name, input, hashIgnores(action)),
    );
    if (replay.found) return { project, replay };
  }
  if (action.versioned) await checkVersion(queryRow, action, input, caller, studioId, surface, refs);
  return { project };
}

/**
 * The person's agreement to an act that needs it, obtained before the write transaction opens (nobody holds the writer
 * while a person decides): the call's checks on a read snapshot, so a person is asked only about an act that would go
 * ahead, then the question the action asks, then the surface's confirmer or the caller's `confirm: true`. A keyed
 * replay is never asked again, and an act that would change nothing is not asked at all. The transaction checks
 * everything again.
 */
async function confirmAct(
  rt: Runtime,
  action: AnyAction,
  input: Record<string, unknown>,
  caller: Caller,
  req: InvokeRequest,
): Promise<ConfirmedBy | undefined> {
  const question = await rt.store.readSnapshot(async (db, queryRow) => {
    const { project, replay } = await admit(action, input, caller, caller.studioId, db, queryRow, req.surface);
    if (replay) return null;
    const ctx = { db, queryRow, caller, studioId: caller.studioId, ...(project ? { project } : {}) };
    return action.confirmation!.ask(ctx, stripControls(input, action));
  });
  return question === null ? undefined : obtainConfirmation(question, input[CONFIRM_FIELD], req.confirmer);
}

async function execute(
  rt: Runtime,
  action: AnyAction,
  input: Record<string, unknown>,
  caller: Caller | null,
  requestId: string,
  db: Kysely<Database>,
  queryRow: RowReader,
  memo: GroupMemo | undefined,
  later: SendLater | undefined,
  surface: Surface | undefined,
  prepared: unknown,
  committed: Array<() => void>,
  confirmedBy: ConfirmedBy | undefined,
): Promise<unknown> {
  const write = action.effect === 'mutation';
  // A run again (a repeatable write whose group undid it) starts from nothing: only its own afterCommit work stands.
  committed.length = 0;
  const now = nowIso();
  // A capability action acts in the studio its capability opens, checked on this connection before anything else.
  const grant = action.capability
    ? await action.capability.open(queryRow, input[action.capability.field] as string, now)
    : undefined;
  const studioId = caller?.studioId ?? grant?.studioId ?? '';
  // The handler's first read, when the action names it, leaves with the ownership reads (one round trip on PostgreSQL),
  // and stands in for the ownership read of the record it answers.
  const ahead = caller && action.readAhead ? readingAhead(queryRow, action.readAhead(input)) : undefined;
  const handlerRow = ahead?.queryRow ?? queryRow;
  const { project, replay } = await admit(action, input, caller, studioId, db, queryRow, surface, ahead?.known);
  if (replay) return replay.response;
  const controls = CONTROL_FIELDS[action.kind];
  const key = action.keyed ? (input[controls.key] as string | undefined) : undefined;

  const events: AuditInput[] = [];
  let unchanged = false;
  const ctx: ActionContext = {
    db,
    queryRow: handlerRow,
    config: rt.config,
    caller,
    studioId,
    project,
    ...(grant ? { capability: grant } : {}),
    ...(later ? { later } : {}),
    now,
    requestId,
    prepared,
    afterCommit: (fn) => void committed.push(fn),
    audit: (e) => void events.push(e),
    unchanged: () => {
      unchanged = true;
    },
  };
  if (action.etagFrom) await requireCurrentTag(action, input, ctx);
  const raw = await action.handler(ctx, stripControls(input, action));
  const checked = action.output.safeParse(raw);
  if (!checked.success) {
    rt.log?.(`output of ${action.name} does not match its schema`, checked.error);
    throw new ServiceError('INTERNAL');
  }
  const output = checked.data;
  if (write) {
    // A write that changed nothing (and said so) leaves the audit feed as it was; any other write is recorded.
    if (!events.length && !unchanged)
      events.push({
        targetKind: 'studio',
        targetId: studioId,
        summary: action.summary,
        projectId: project?.id ?? null,
      });
    // An act the person confirmed says how, in each event it records: the person asked directly, or confirm: true.
    const recorded = confirmedBy ? events.map((e) => ({ ...e, changes: { ...e.changes, confirmedBy } })) : events;
    // Nothing in this write reads the audit rows or the idempotency record back: both are sent without waiting.
    await appendQueuedEvents(db, studioId, actorOf(caller), action.name, now, recorded, memo, later);
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
        requestHash(action.name, input, hashIgnores(action)),
        kept,
        now,
        later,
      );
    }
  }
  return output;
}

/**
 * Sends `read` now and answers the first identical read (same SQL, same parameters) from it; every other read goes
 * through. Its failure, if nobody asks for it, is nobody's: the handler never got that far. When the read names the
 * record it answers, the ownership check takes its row from it too (`known`).
 */
function readingAhead(queryRow: RowReader, read: ReadAhead): { queryRow: RowReader; known?: KnownRecord } {
  const sent = queryRow(read.sql, ...read.params) as Promise<Record<string, unknown> | undefined>;
  sent.catch(() => undefined);
  let pending: Promise<unknown> | undefined = sent;
  const reader: RowReader = (sqlText, ...params) => {
    if (
      pending &&
      sqlText === read.sql &&
      params.length === read.params.length &&
      params.every((p, i) => p === read.params[i])
    ) {
      const answer = pending;
      pending = undefined;
      return answer as never;
    }
    return queryRow(sqlText, ...params);
  };
  return { queryRow: reader, ...(read.record ? { known: { ...read.record, row: sent } } : {}) };
}

function keyRequired(action: AnyAction, surface: Surface | undefined): ServiceError {
  const name = controlFieldName(action, 'key', surface);
  return new ServiceError(
    'IDEMPOTENCY_KEY_REQUIRED',
    name === 'Idempotency-Key'
      ? 'This create needs an Idempotency-Key header: a fresh UUID for this act (the same key retries it safely).'
      : `This create needs ${name}: a fresh UUID for this act (the same ${name} retries it safely).`,
  );
}

/** Handlers never see the control fields; `invoke` has already acted on them. */
function stripControls(input: Record<string, unknown>, action: AnyAction): Record<string, unknown> {
  const controls = CONTROL_FIELDS[action.kind];
  const drop = [
    ...(action.versioned ? [controls.version] : []),
    ...(action.keyed ? [controls.key] : []),
    ...(action.confirmation ? [CONFIRM_FIELD] : []),
  ];
  if (!drop.length) return input;
  return Object.fromEntries(Object.entries(input).filter(([field]) => !drop.includes(field)));
}

/**
 * The fields a keyed request's identity leaves out: the key itself, and `confirm` (how the person agreed is not what
 * was asked for: a retry with confirm: true after the person was asked directly is the same request).
 */
function hashIgnores(action: AnyAction): readonly string[] {
  const key = CONTROL_FIELDS[action.kind].key;
  return action.confirmation ? [key, CONFIRM_FIELD] : [key];
}

const NO_REFS: { refs: ResolvedRef[]; project: ProjectsTable | undefined } = { refs: [], project: undefined };

/**
 * What a caller sent to guard a write: a procedure's version (an integer), or the entity-tags of If-Match / ifMatch
 * (RFC 9110 syntax, quotes included). `*` (which would skip the check this API exists to make) answers
 * PRECONDITION_REQUIRED; text that is not an entity-tag (a tag without its quotes), or a weak tag (If-Match compares
 * strongly), is malformed input, not a conflict: nothing changed the record.
 */
export function parsePrecondition(value: unknown, field = 'If-Match'): { version: number } | { tags: string[] } {
  if (typeof value === 'number') return { version: value };
  const text = typeof value === 'string' ? value.trim() : '';
  const problem = (message: string) =>
    new ServiceError(
      'VALIDATION_FAILED',
      `${message} Send the ETag exactly as your last read returned it, quotes included (like "4-1c9e0a7b").`,
      { errors: [{ path: 'ifMatch', message }] },
    );
  if (text === '*') {
    throw new ServiceError(
      'PRECONDITION_REQUIRED',
      `${field === 'If-Match' ? 'If-Match: *' : `${field} "*"`} is not accepted: every write names the version it was made against. Send the ETag from your last read.`,
    );
  }
  const tags = entityTags(text);
  if (!tags) throw problem(`${JSON.stringify(text.slice(0, 40))} is not an ETag: an ETag is quoted text.`);
  if (tags.some((t) => t.weak)) throw problem(`A weak ETag cannot guard a write (${field} compares strongly).`);
  return { tags: tags.map((t) => t.tag) };
}

/**
 * The expected-version check: a procedure's version must be the record's; If-Match must hold a tag of the record's
 * version (answered here, before any body is read), and the write then compares it whole (`requireCurrentTag`).
 */
async function checkVersion(
  queryRow: RowReader,
  action: AnyAction,
  input: Record<string, unknown>,
  caller: Caller | null,
  studioId: string,
  surface: Surface | undefined,
  refs: readonly ResolvedRef[],
) {
  const versioning = action.versioned!;
  const info = versioning.entity;
  const entity = info.name;
  const sent = input[CONTROL_FIELDS[action.kind].version];
  let row: { version: number } | undefined;
  if ('versionOf' in versioning) {
    // A record found by more than one id (the caller's own layout of a table): nothing saved yet is its defaults, at 1.
    if (!caller) throw new ServiceError('INTERNAL', `${action.name} reads its version for a caller, and has none.`);
    row = { version: (await versioning.versionOf(queryRow, input, caller)) ?? 1 };
  } else {
    // idField 'studioId' names the caller's own studio: a token acts in exactly one studio, so the id is never sent.
    const id = versioning.idField === 'studioId' ? studioId : (input[versioning.idField] as string);
    // Ownership has read the record with its version when the input names it; otherwise (the caller's own studio) read it.
    const resolved = refs.find((r) => r.entity === info && r.id === id && typeof r.row.version === 'number');
    row = resolved
      ? { version: resolved.row.version as number }
      : await queryRow<{ version: number }>(`SELECT version FROM ${info.table} WHERE id = ?`, id);
  }
  if (!row) throw new ServiceError('NOT_FOUND');
  const field = controlFieldName(action, 'version', surface);
  if (sent === undefined) {
    throw new ServiceError(
      'PRECONDITION_REQUIRED',
      action.kind !== 'resource'
        ? `Send ${field}: the ${entity}'s version from your last read.`
        : field === 'If-Match'
          ? `Send the ETag from your last read of this ${entity} in the If-Match header.`
          : `Send ${field}: the etag from your last read of this ${entity}, exactly as returned, quotes included (e.g. "4-1c9e0a7b").`,
    );
  }
  const expected = parsePrecondition(sent, field);
  const matches =
    'version' in expected
      ? expected.version === row.version
      : expected.tags.some((tag) => versionInTag(tag) === row.version);
  if (!matches) throw versionConflict(entity, row.version);
}

function versionConflict(entity: string, currentVersion: number): ServiceError {
  return new ServiceError(
    'VERSION_CONFLICT',
    `The ${entity} has changed since you read it (it is at version ${currentVersion}); read it again, reapply your change and report.`,
    { extra: { currentVersion } },
  );
}

/**
 * If-Match compared whole (RFC 9110's strong comparison): one of the sent tags must be the ETag the record's read
 * (`etagFrom`) answers now, as this caller sees it, on the write's own connection. The version already matched, so a
 * mismatch here is another record's tag, a forged digest, or a body that changed without the version moving.
 */
async function requireCurrentTag(action: AnyAction, input: Record<string, unknown>, ctx: ActionContext) {
  const read = action.etagFrom!;
  const sent = input[CONTROL_FIELDS[action.kind].version];
  if (typeof sent !== 'string') return;
  const readInput = read.fullInput.parse(
    Object.fromEntries(Object.keys(read.fullInput.shape).flatMap((f) => (f in input ? [[f, input[f]]] : []))),
  );
  const current = etagOf(shownTo(ctx.caller, read, read.output.parse(await read.handler(ctx, readInput as never))));
  const { tags } = parsePrecondition(sent) as { tags: string[] };
  if (current === undefined || !tags.includes(current)) {
    throw versionConflict(action.versioned!.entity.name, (current ? versionInTag(current) : undefined) ?? 0);
  }
}

/** An action's output as `caller` may see it: without pricing for a caller who may not read prices. */
function shownTo(caller: Caller | null, action: AnyAction, output: unknown): unknown {
  return caller && action.plan.redaction && !caller.permissions.has('pricing:read')
    ? withoutPricing(output, action.plan.redaction)
    : output;
}
