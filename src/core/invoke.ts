import type { Database } from '../../db/schema.js';
import type { AnyAction } from './define-action.js';
import { CONTROL_FIELDS } from './define-action.js';
import type { ActionContext, AuditInput } from './context.js';
import { authenticate, forgetTokens } from './auth.js';
import type { StudioPermission } from './permissions.js';
import { missingPermission } from './scope-refusal.js';
import { checkRecordScopes } from './record-scopes.js';
import { ServiceError, StandingRefusal, toServiceError } from './errors.js';
import type { ResolvedRef } from './guards.js';
import { parseInput } from './validation.js';
import { lookupSafeCapability } from './capability.js';
import { pricedFieldSent, shownTo } from './pricing-visibility.js';
import { type KnownRecord, resolveRefs } from './ownership.js';
import { actorOf, appendQueuedEvents } from './audit.js';
import { findIdempotentReplay, type KeyedRequest, requestHash, saveIdempotentResponse } from './idempotency.js';
import { nowIso, newId, sha256 } from './ids.js';
import { allErrorsOf } from './action-errors.js';
import { CONFIRM_FIELD, obtainConfirmation } from './confirmation.js';
import type { CapabilityGrant } from './capability.js';
import {
  type Call,
  type Connection,
  controlFieldName,
  controlValue,
  type InvokeRequest,
  type Runtime,
} from './call.js';
import { checkVersion, requireCurrentTag } from './version-check.js';
import { readingAhead } from './read-ahead.js';
import { checkedOutput } from './output-check.js';

export type { InvokeRequest, Runtime, Surface } from './call.js';
export { controlFieldName } from './call.js';

/**
 * The one execution path. Every surface (REST, tRPC, MCP, agent results) calls this with the raw input and gets back
 * validated, redacted output or a ServiceError:
 * authenticate → scope → input → (a write: its key held in flight, the person's agreement where the act needs it, its
 * slow preparation) → in one transaction: ownership of the ids it names → guards → idempotent replay → expected version
 * → handler → audit → idempotency record → output validation → pricing redaction.
 * An action of scope `capability` has no caller: its capability (a share token in the input) is opened instead, on
 * the handler's own connection, and gives the studio it acts in.
 */
export async function invoke(
  rt: Runtime,
  action: AnyAction,
  rawInput: unknown,
  request: InvokeRequest = {},
): Promise<unknown> {
  const requestId = request.requestId ?? newId();
  try {
    const call = await openCall(
      rt,
      action,
      rawInput,
      request.requestId ? (request as InvokeRequest & { requestId: string }) : { ...request, requestId },
    );
    const output = action.effect === 'mutation' ? await write(call) : await read(call);
    return shownTo(call.caller, action, output);
  } catch (err) {
    throw declared(rt, action, requestId, err);
  }
}

/** Authenticates, checks the scope and validates the input: the call every later step takes. */
async function openCall(
  rt: Runtime,
  action: AnyAction,
  rawInput: unknown,
  request: InvokeRequest & { requestId: string },
): Promise<Call> {
  const caller =
    action.scope === 'capability' ? null : (request.caller ?? (await authenticate(rt.store, request.token)));
  if (caller && action.scope !== 'member' && !caller.permissions.has(action.scope as never)) {
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
  const ahead = caller && action.readAhead ? action.readAhead(input, caller) : undefined;
  return { rt, action, input, caller, request, requestId: request.requestId, afterCommit: [], ahead };
}

/**
 * A write: its key held in flight, the person's agreement and the slow preparation (an upload's decoding) before the
 * transaction, never inside it; then the transaction, shared with concurrent writes' grouped commit, and the work
 * left for after the commit.
 */
async function write(call: Call): Promise<unknown> {
  return holdingKey(call, async () => {
    const { rt, action, caller } = call;
    if (action.confirmation && caller) await confirmAct(call);
    if (action.prepare) await prepare(call);
    const written = await rt.store.write(connected(call), { repeatable: true });
    if (CHANGES_CALLERS.has(action.domain)) forgetTokens(rt.store);
    for (const fn of call.afterCommit) fn();
    if (written instanceof StandingRefusal) throw written.refusal;
    return written;
  });
}

/**
 * The domains whose writes revoke tokens, remove members or change roles: after one commits, this process reads
 * every token afresh (auth.ts keeps what it read for a moment), so the change holds from the next request.
 */
const CHANGES_CALLERS = new Set(['account', 'members', 'studio', 'invitations']);

/**
 * A read: its slow preparation (a provider asked over the network) before the snapshot opens, so no reader's
 * connection waits on it; then the snapshot.
 */
async function read(call: Call): Promise<unknown> {
  if (call.action.prepare) await prepare(call);
  const { store } = call.rt;
  // A read whose first read is usually its whole answer (one record by id) opens no snapshot for it (Store.readAlone).
  if (call.caller && call.ahead?.alone && store.readAlone) return store.readAlone(connected(call));
  return store.readSnapshot(connected(call));
}

/** Runs the action's `prepare`, if it has one, outside any transaction or snapshot; the handler sees its result. */
async function prepare(call: Call) {
  const { rt, action, caller } = call;
  if (!action.prepare) return;
  const env = { files: rt.files, store: rt.store, config: rt.config, studioId: caller?.studioId };
  call.prepared = await action.prepare(env, call.input, call.request.upload);
}

/** The store's callback for this call: it runs the call on the connection the store hands it. */
const connected =
  (call: Call) =>
  (db: Connection['db'], queryRow: Connection['queryRow'], memo?: Connection['memo'], later?: Connection['later']) =>
    execute(call, { db, queryRow, memo, later });

/** An unexpected failure is logged and answered INTERNAL; under STUDIO_STRICT_ERRORS an undeclared code is a bug. */
function declared(rt: Runtime, action: AnyAction, requestId: string, err: unknown): ServiceError {
  const se = toServiceError(err);
  if (se.code === 'INTERNAL') rt.log?.(`internal error in ${action.name} (${requestId})`, err);
  else if (!allErrorsOf(action).has(se.code) && process.env.STUDIO_STRICT_ERRORS === '1') {
    return new ServiceError('INTERNAL', `${action.name} raised undeclared code ${se.code}`);
  }
  return se;
}

/**
 * Whose keys a call's keys are: the member who calls, or for an action authorised by a capability (it has no caller)
 * the capability itself, by its digest, so two holders of different links never share a key's answer.
 */
function keyOwner(call: Call): string | undefined {
  if (call.caller) return call.caller.memberId;
  const field = call.action.capability?.field;
  return field ? `capability:${sha256(String(call.input[field]))}` : undefined;
}

/** The caller's keyed request, when the action takes a key and the caller sent one, in the studio it acts in. */
function keyedRequest(call: Call, studioId: string): KeyedRequest | undefined {
  const key = call.action.keyed ? (controlValue(call, 'key') as string | undefined) : undefined;
  const callerId = keyOwner(call);
  if (!key || !callerId) return undefined;
  const hash = requestHash(call.action.name, call.input, hashIgnores(call.action));
  return { studioId, callerId, key, action: call.action.name, hash };
}

/** Marks a keyed request in flight for its duration, so a concurrent twin answers 409 rather than running twice. */
async function holdingKey<T>(call: Call, fn: () => Promise<T>): Promise<T> {
  const keyed = keyedRequest(call, call.caller?.studioId ?? '');
  if (!keyed) return fn();
  const slot = `${keyed.studioId}\u0000${keyed.callerId}\u0000${keyed.key}`;
  const running = call.rt.inFlight.get(slot);
  if (running !== undefined) {
    throw running === keyed.hash
      ? new ServiceError('IDEMPOTENCY_IN_PROGRESS')
      : new ServiceError('IDEMPOTENCY_KEY_REUSED');
  }
  call.rt.inFlight.set(slot, keyed.hash);
  try {
    return await fn();
  } finally {
    call.rt.inFlight.delete(slot);
  }
}

/** Where a run of the call acts: its studio, its project, and the records the ownership checks read. */
interface Admitted {
  studioId: string;
  project: Database['projects'] | undefined;
  refs: readonly ResolvedRef[];
  /** The first answer, when this is a keyed retry: answered again, nothing done twice. */
  replay?: { response: unknown };
}

/**
 * The checks every call makes on the connection it reads through, before anything is written: ownership of the ids
 * it names, the action's guards, a keyed replay (answered as first answered) and the expected version. They read
 * through the connection the handler will use: inside a write, its open transaction (so earlier writes of the same
 * commit group are seen); for a query, the reader's snapshot.
 */
async function admit(call: Call, conn: Connection, studioId: string, known?: KnownRecord[]): Promise<Admitted> {
  const { action, input, caller } = call;
  const write = action.effect === 'mutation';
  const { refs, project } = caller
    ? await resolveRefs(conn.queryRow, caller, action, input, write, known)
    : { refs: [], project: undefined };
  if (caller) {
    if (action.recordScopes) await checkRecordScopes(action.recordScopes, caller, refs, conn.queryRow);
    if (action.guards)
      for (const guard of action.guards) {
        await guard.check({ actionName: action.name, caller, input, write, queryRow: conn.queryRow, refs, project });
      }
  }
  if (action.keyed && controlValue(call, 'key') === undefined) throw keyRequired(call);
  const keyed = keyedRequest(call, studioId);
  if (keyed) {
    const replay = await findIdempotentReplay(conn.db, keyed);
    if (replay.found) return { studioId, project, refs, replay };
  }
  if (action.versioned) await checkVersion(call, conn, studioId, refs);
  return { studioId, project, refs };
}

/**
 * The person's agreement to an act that needs it, obtained before the write transaction opens (nobody holds the writer
 * while a person decides): the call's checks on a read snapshot, so a person is asked only about an act that would go
 * ahead, then the question the action asks, then the surface's confirmer or the caller's `confirm: true`. A keyed
 * replay is never asked again, and an act that would change nothing is not asked at all. The transaction checks
 * everything again.
 */
async function confirmAct(call: Call): Promise<void> {
  const { rt, action, caller } = call;
  const question = await rt.store.readSnapshot(async (db, queryRow) => {
    const { project, replay } = await admit(call, { db, queryRow }, caller!.studioId);
    if (replay) return null;
    const ctx = { db, queryRow, caller: caller!, studioId: caller!.studioId, ...(project ? { project } : {}) };
    return action.confirmation!.ask(ctx, stripControls(call));
  });
  if (question !== null) {
    call.confirmedBy = await obtainConfirmation(question, call.input[CONFIRM_FIELD], call.request.confirmer);
  }
}

/** One run of the call on a connection: checks, handler, output validation, and for a write its records. */
async function execute(call: Call, conn: Connection): Promise<unknown> {
  const { rt, action, input, caller } = call;
  // The store may run this more than once for one write: writes are committed in groups, and when a group is rolled
  // back a repeatable write is run again. Only the run that commits may leave work for after the commit, so each run
  // empties the list the earlier one filled.
  call.afterCommit.length = 0;
  const now = nowIso();
  // A capability action acts in the studio its capability opens, checked on this connection before anything else.
  const grant = action.capability
    ? await action.capability.open(conn.queryRow, input[action.capability.field] as string, now)
    : undefined;
  // When the action declares its handler's first read (`readAhead`), send it now, beside the ownership reads, so on
  // PostgreSQL they share one round trip. The handler's identical read is answered from it, and the records that read
  // loads or joins (the line, its project's studio) are known to the ownership checks, which then read them no more.
  // The checks read through it too: a read of theirs that it answers (a designer's grant) is not sent again.
  const ahead = call.ahead ? readingAhead(conn.queryRow, call.ahead) : undefined;
  const reading = ahead ? { ...conn, queryRow: ahead.queryRow } : conn;
  const admitted = await admit(call, reading, caller?.studioId ?? grant?.studioId ?? '', ahead?.known);
  if (admitted.replay) return admitted.replay.response;
  const events: AuditInput[] = [];
  let unchanged = false;
  const ctx = handlerContext(call, reading, admitted, {
    now,
    grant,
    audit: (e) => void events.push(e),
    unchanged: () => {
      unchanged = true;
    },
  });
  if (action.etagFrom) await requireCurrentTag(call, ctx);
  const answer = await handled(call, ctx);
  if (answer instanceof StandingRefusal) return answer;
  const output = checkedOutput(action, answer, rt.log);
  if (action.effect === 'mutation') {
    // A write that changed nothing (and said so) leaves the audit feed as it was; any other write is recorded.
    if (!events.length && !unchanged) events.push(defaultEvent(call, admitted));
    await recordWrite(call, conn, { at: now, events, output, studioId: admitted.studioId });
  }
  return output;
}

/** The handler's answer, or for a write the StandingRefusal it raised, which commits what it wrote (see there). */
async function handled(call: Call, ctx: ActionContext): Promise<unknown> {
  try {
    return await call.action.handler(ctx, stripControls(call));
  } catch (err) {
    if (err instanceof StandingRefusal && call.action.effect === 'mutation') return err;
    throw err;
  }
}

/** What a handler is given: the connection, who acts and where, and how to report what it did. */
function handlerContext(
  call: Call,
  conn: Connection,
  admitted: Admitted,
  run: Pick<ActionContext, 'now' | 'audit' | 'unchanged'> & { grant: CapabilityGrant | undefined },
): ActionContext {
  const ctx: ActionContext = {
    db: conn.db,
    queryRow: conn.queryRow,
    config: call.rt.config,
    caller: call.caller,
    studioId: admitted.studioId,
    project: admitted.project,
    now: run.now,
    requestId: call.requestId,
    prepared: call.prepared,
    afterCommit: (fn) => void call.afterCommit.push(fn),
    audit: run.audit,
    unchanged: run.unchanged,
  };
  // Present only when there is one, set rather than spread (no copies per request).
  if (run.grant) ctx.capability = run.grant;
  if (conn.later) ctx.later = conn.later;
  return ctx;
}

/** The event a write records when its handler described none: the act itself, on the studio. */
const defaultEvent = (call: Call, admitted: Admitted): AuditInput => ({
  targetKind: 'studio',
  targetId: admitted.studioId,
  summary: call.action.summary,
  projectId: admitted.project?.id ?? null,
});

/**
 * A write's records, in its transaction: the audit events it queued (each saying how the person agreed, when they
 * had to) and, for a keyed write, the answer a retry with the same key gets. Nothing later in the write reads these
 * rows, so inside a write group they go through `later` (sent without waiting for their results).
 */
async function recordWrite(
  call: Call,
  conn: Connection,
  what: { at: string; events: AuditInput[]; output: unknown; studioId: string },
) {
  const { action, confirmedBy } = call;
  const events = confirmedBy ? what.events.map((e) => ({ ...e, changes: { ...e.changes, confirmedBy } })) : what.events;
  const actor = actorOf(call.caller);
  await appendQueuedEvents(conn, { studioId: what.studioId, actor, action: action.name, at: what.at, events });
  const keyed = keyedRequest(call, what.studioId);
  if (!keyed) return;
  // Secrets shown once (e.g. a new API token) are not kept: a replay answers the same record with them null.
  const kept = action.shownOnce?.length
    ? { ...(what.output as object), ...Object.fromEntries(action.shownOnce.map((f) => [f, null])) }
    : what.output;
  await saveIdempotentResponse(conn, keyed, kept, what.at);
}

/** The refusal of a create sent without its idempotency key, naming the key as this surface spells it. */
function keyRequired(call: Call): ServiceError {
  const name = controlFieldName(call.action, 'key', call.request.surface);
  return new ServiceError(
    'IDEMPOTENCY_KEY_REQUIRED',
    name === 'Idempotency-Key'
      ? 'This create needs an Idempotency-Key header: a fresh UUID for this act (the same key retries it safely).'
      : `This create needs ${name}: a fresh UUID for this act (the same ${name} retries it safely).`,
  );
}

/** Handlers never see the control fields; `invoke` has already acted on them. */
function stripControls({ action, input }: Call): Record<string, unknown> {
  const drop = controlsOf(action);
  if (!drop.length) return input;
  return Object.fromEntries(Object.entries(input).filter(([field]) => !drop.includes(field)));
}

/** The control fields an action's input may carry, listed once per action (every call strips them). */
const CONTROLS = new WeakMap<AnyAction, readonly string[]>();
function controlsOf(action: AnyAction): readonly string[] {
  let drop = CONTROLS.get(action);
  if (!drop) {
    const controls = CONTROL_FIELDS[action.kind];
    drop = [
      ...(action.versioned ? [controls.version] : []),
      ...(action.keyed ? [controls.key] : []),
      ...(action.confirmation ? [CONFIRM_FIELD] : []),
    ];
    CONTROLS.set(action, drop);
  }
  return drop;
}

/**
 * The fields a keyed request's identity leaves out: the key itself, and `confirm` (how the person agreed is not what
 * was asked for: a retry with confirm: true after the person was asked directly is the same request).
 */
function hashIgnores(action: AnyAction): readonly string[] {
  const key = CONTROL_FIELDS[action.kind].key;
  return action.confirmation ? [key, CONFIRM_FIELD] : [key];
}
