import { z } from 'zod';
import type { ErrorCode } from './errors.js';
import type { ActionScope } from './permissions.js';
import type { ActionContext } from './context.js';
import type { Entity } from './entities.js';
import type { Guard } from './guards.js';
import type { RecordScopes } from './record-scopes.js';
import { type ActionPlan, planOf } from './action-plan.js';
import type { BlobStore, StagedBlob } from '../files/blob-store.js';
import type { CapabilityBinding } from './capability.js';
import type { Caller } from './context.js';
import type { RowReader, Store } from '../../db/store.js';
import type { Config } from '../config.js';
import { registerActionName } from './action-names.js';
import { CONFIRM_FIELD, type Confirmation, confirmSchema } from './confirmation.js';

/** How an action is reached: a `/v1` resource operation, a tRPC procedure, or an MCP file tool. */
export type ActionKind = 'resource' | 'procedure' | 'file';
export type ActionEffect = 'query' | 'mutation';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpBinding {
  method: HttpMethod;
  /** OpenAPI-style template under /v1, e.g. `/projects/{projectId}/items/{itemId}`. */
  path: string;
  /** Success status (200 unless said otherwise; creates answer 201). */
  status?: number;
  /** For creates: the member path of what was made (`{id}` is the new record's id), sent back as `Location`. */
  created?: string;
  /** The collection's named query filters, documented on the route. */
  filters?: readonly string[];
  /**
   * How a member read's ETag is formed. `version` (the default for versioned records) is the value If-Match takes.
   * `content` is a digest of the body, for records that embed others (a project with its sections and line counts
   * changes without its own version moving), so 304 never serves a stale body.
   */
  etag?: 'version' | 'content';
  /**
   * Top-level output fields an ETag leaves out. `content`: a read time that moves on every read though nothing it
   * describes changed (the client document's piecesAsOf), which would otherwise make 304 impossible. `version`: a
   * page of what the version already covers (a line's photographs, every change to which bumps the line's version),
   * so each page of the read, and the writes that take its ETag (etagFrom), answer the same tag.
   */
  etagIgnores?: readonly string[];
  /**
   * The body is the file itself (a photograph), streamed to the blob store rather than parsed as JSON, up to the
   * server's upload limit; its Content-Type fills the input's `typeField` and the query parameter named `nameField`
   * that field. Over MCP and tRPC the same file arrives base64 in the input's `field`, which is required there.
   */
  upload?: UploadBinding;
  /**
   * The output is an operation: while it is queued or running, the answer carries Retry-After (seconds to wait before
   * polling); an act answered 202 names it in Location (`/v1/operations/{id}`).
   */
  operation?: true;
}

/** Which input fields an HTTP upload fills: the file (base64 elsewhere), its type from Content-Type, its name. */
export interface UploadBinding {
  field: string;
  typeField: string;
  nameField: string;
}

/**
 * A file tool that takes a file, also reachable over plain HTTP outside `/v1` (which holds the seed's resource
 * operations only): POST `path` with the file itself as the body and its Content-Type, the other input fields as query
 * parameters, the command key as `Idempotency-Key`; streamed to the blob store up to `limit` bytes.
 */
export interface FileRoute {
  path: string;
  upload: UploadBinding;
  limit: number;
}

/** A file ready to send: where it is, its type, and a strong validator. */
export interface MediaFile {
  path: string;
  mediaType: string;
  size: number;
  /** Strong ETag (quotes included) naming exactly these bytes. */
  etag: string;
  /** The rendering these bytes belong to (see MediaBinding.tagQuery). */
  tag: string;
}

export interface MediaBinding {
  query: string;
  choices: readonly string[];
  /**
   * The query parameter naming one rendering (the record's URLs carry it): when it matches the file's `tag`, the bytes
   * behind that URL can never change, and caches may keep them for ever.
   */
  tagQuery: string;
  /** The bytes of `choice` for the record the action returned (made on first request where they are derived). */
  open: (files: BlobStore, output: unknown, choice: string) => Promise<MediaFile>;
  /** The choice MCP attaches to the tool result as image content, so a model sees it. */
  mcpImage?: string;
}

/**
 * The record whose version guards a write. Usually one input field names it (`idField`; 'studioId' names the caller's
 * own studio, which is never sent). A record no single id names (a member's own layout of one table, found by the
 * caller, the table and the project) says instead how to read its version (`versionOf`, on the request's connection):
 * undefined while nothing was saved, which is its defaults at version 1, so the first save is checked like any other.
 */
export type Versioning =
  | { entity: Entity; idField: string }
  | {
      entity: Entity;
      versionOf: (read: RowReader, input: Record<string, unknown>, caller: Caller) => Promise<number | undefined>;
    };

/** A raw one-row read (portable SQL with `?` placeholders) and its parameters. */
export interface ReadAhead {
  sql: string;
  params: readonly unknown[];
  /**
   * Which record this read loads, when it loads one whole row of a table (say the line `get_line` asks for). The
   * ownership check of that record then uses the row this read brings back (or its absence: not found) instead of
   * reading the record a second time.
   */
  record?: { table: string; id: string };
  /**
   * Records whose owner this read also answers, each as a column of its row (`shown_project_studio`): the record
   * its `via` column names (`project_id`): the line's project, joined for its currency, answers the project's studio too, so
   * the project's ownership check reads nothing. The check then has that record's owner only, never its whole row:
   * an action declaring one is given no `ctx.project` and may have no guards.
   */
  owners?: ReadonlyArray<{ table: string; column: string; via: string }>;
  /**
   * The answer usually needs this read alone (a record with nothing attached): on SQLite it then runs without opening
   * a snapshot, and again in one when the handler reads anything more (Store.readAlone).
   */
  alone?: true;
  /**
   * Other reads a check makes that this row answers too, each by its exact SQL and parameters (the caller's grant on
   * the line's project, joined into the line's read): `from` gives the answer from the row, or undefined when the row
   * cannot vouch for it (no row, another project), and the read then goes to the database as usual.
   */
  answers?: ReadonlyArray<{
    sql: string;
    params: readonly unknown[];
    from(row: Record<string, unknown>): { row: Record<string, unknown> | undefined } | undefined;
  }>;
}

/** What work before the write transaction may use: the blob store, never the database. */
export interface PrepareEnv {
  files: BlobStore;
  store: Store;
  config: Config;
  /** The caller's studio; undefined for an action a capability opens (a share link). */
  studioId: string | undefined;
}

export interface ActionSpec<I extends z.ZodObject, O extends z.ZodType> {
  name: string;
  kind: ActionKind;
  effect: ActionEffect;
  domain: string;
  summary: string;
  description: string;
  /**
   * The few ways people ask for it, in a studio's words rather than its field names ("email the PDF to the client"):
   * search_actions weighs them next to the name, so a request finds the act it means. A resource binding shares its
   * procedure's.
   */
  intents?: readonly string[];
  scope: ActionScope;
  /**
   * Required exactly when `scope` is `capability`: the input field carrying the capability (a share token) and how
   * `invoke` opens it into the studio and project the handler acts in (`ctx.capability`, `ctx.studioId`).
   */
  capability?: CapabilityBinding;
  /** Every write is consequential; reads are not. Defaults to `effect === 'mutation'`. */
  consequential?: boolean;
  input: I;
  output: O;
  /** Codes this action raises beyond the universal ones (validation, authentication, permission, limits). */
  errors: readonly ErrorCode[];
  /**
   * The record whose version guards this write: `If-Match` (resource) or `expectedVersion` (procedure) is required
   * and compared by `invoke` before the handler runs.
   */
  versioned?: Versioning;
  /**
   * For a versioned resource write: the read whose ETag the caller holds for the record it changes (update_line:
   * get_line). If-Match is compared strongly (RFC 9110) with the ETag that read would answer now, for this caller, so
   * another record's tag, a forged one or one from before the record's body changed is a conflict. Its output is the
   * write's own output schema, so a write's answer carries the tag the next write sends.
   */
  etagFrom?: Action;
  /** Non-idempotent create: `Idempotency-Key` (resource) or `commandKey` (procedure), a UUID, required. */
  keyed?: boolean;
  /**
   * Top-level output fields shown once (secrets such as a new API token). They are stored as null in the idempotency
   * record, so a keyed replay answers the same record without the secret; the schema must allow null for them.
   */
  shownOnce?: readonly string[];
  /**
   * Domain rules run by `invoke` in this order before the handler, after authentication, scope, validation and
   * ownership (a project's archived freeze, an issued revision's immutability).
   */
  guards?: readonly Guard[];
  /**
   * A permission beyond `scope` that some records the input names need, by a column of theirs (a purchase order's
   * document needs pricing:read to download): `invoke` enforces it with the scope, after ownership (src/core/record-scopes.ts).
   */
  recordScopes?: RecordScopes;
  /**
   * The person must agree to this act themselves (see src/core/confirmation.ts): `invoke` asks them through the
   * surface where it can (MCP elicitation) and otherwise requires `confirm: true`, a field this adds to the input. One
   * declaration; handlers never check it.
   */
  confirmation?: Confirmation<z.output<I>>;
  /**
   * The handler's first read, when the input alone decides it (the line an update loads): `invoke` sends it with the
   * ownership reads, so on PostgreSQL they share one round trip, and answers the handler's first identical read
   * (through `ctx.queryRow`) from it. Only a read the handler makes before it writes anything: it is taken before the
   * handler runs. Its answer reaches the handler only once every check has passed; when it names its `record`, the
   * ownership check of that record judges by it (found or not) instead of reading again.
   */
  readAhead?: (input: z.output<I>, caller: Caller) => ReadAhead;
  http?: HttpBinding;
  /** For a file tool: its plain-HTTP upload route (see FileRoute). */
  fileRoute?: FileRoute;
  mcp?: { advertised: true; title: string };
  /**
   * The answer names one document of the project in the input (its `documentId`): over MCP it also carries a
   * resource_link to the document, which the client reads through the connection itself with resources/read, with no
   * HTTP server needed (src/surfaces/mcp/document-resources.ts).
   */
  documentLink?: true;
  /**
   * The bytes behind the record a read returns (a photograph's sizes): over HTTP `?<query>=<choice>` answers them
   * instead of the record; over MCP the `mcpImage` choice travels beside the record as image content.
   */
  media?: MediaBinding;
  /**
   * The action accepts a long act and answers the operation that will do it (src/jobs): REST answers 202 with Location
   * and Retry-After; an MCP call that brought a progress token is answered when the operation ends (with progress
   * notifications meanwhile), otherwise at once with where to poll.
   */
  startsOperation?: true;
  /**
   * Slow work done before the write transaction (or a query's read snapshot) opens, so no connection is held by it (an
   * upload decoded, checked and stored; its derivatives made; a provider asked over the network): runs after authentication, scope and input validation. Its result reaches the
   * handler as `ctx.prepared`. `upload` is the file an HTTP upload streamed (see `http.upload`).
   */
  prepare?: (env: PrepareEnv, input: z.output<I>, upload?: StagedBlob) => Promise<unknown>;
  /**
   * A worked example input, as the action's own input (get_action wraps a procedure's in `input`). Required: agents
   * learn an action from it, and the contract test checks it against the input schema.
   */
  example: Record<string, unknown>;
  /** Returns the output as its schema takes it; `invoke` still validates it before anyone sees it. */
  handler: (ctx: ActionContext, input: z.output<I>) => Promise<z.input<O>> | z.input<O>;
}

export interface Action<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> extends ActionSpec<I, O> {
  consequential: boolean;
  /** The input as every surface validates it, with the version and key fields this action's flags add. */
  fullInput: z.ZodObject;
  /**
   * The input as the catalogs publish it (actions.json, OpenAPI, get_action, MCP tool schemas): `fullInput` with the
   * control fields `invoke` insists on marked required (a version where versioned; an idempotency key on keyed
   * resources, while a procedure's commandKey stays optional). `fullInput` keeps them optional, so a missing one is
   * answered with its own code (PRECONDITION_REQUIRED, IDEMPOTENCY_KEY_REQUIRED) rather than a validation failure.
   */
  publishedInput: z.ZodObject;
  /** `<domain>.<camelName>` for procedures. */
  trpcPath?: string;
  /** For a resource operation bound to a procedure: the procedure's name (the two are one behaviour). */
  twinOf?: string;
  /**
   * For a resource whose body is one procedure field (a merge patch): that field's schema, whose object-level rules
   * (at least one field) the published request body states too.
   */
  bodySchema?: z.ZodType;
  /** What `invoke` reads from the schemas' marks: references, priced input, what to withhold from the output. */
  plan: ActionPlan;
}

export const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The fields `invoke` reads for concurrency and idempotency, named per surface family. */
export const CONTROL_FIELDS = {
  resource: { version: 'ifMatch', key: 'idempotencyKey' },
  procedure: { version: 'expectedVersion', key: 'commandKey' },
  file: { version: 'expectedVersion', key: 'commandKey' },
} as const;

export const etagSchema = z
  .string()
  .max(64)
  .describe('The etag of your last read, exactly as returned, quotes included: "\\"4-1c9e0a7b\\"".');
const versionSchema = z.int().min(1).describe('The version from your last read of this record.');
export const idempotencyKeySchema = z
  .uuid('An idempotency key is a UUID, e.g. "8d0f4f5e-2b1c-4c59-9d51-0b7f4c8f6f11": make a fresh one for each act.')
  .describe('A fresh UUID per act; send it again with the same input to retry safely.');

export function defineAction<I extends z.ZodObject, O extends z.ZodType>(spec: ActionSpec<I, O>): Action<I, O> {
  const fields = CONTROL_FIELDS[spec.kind];
  const extra: Record<string, z.ZodType> = {};
  const published: Record<string, z.ZodType> = {};
  if (spec.versioned) {
    const version = spec.kind === 'resource' ? etagSchema : versionSchema;
    extra[fields.version] = version.optional();
    published[fields.version] = version;
  }
  // Optional in the parsing schema so that `invoke` can answer a missing key or version with its own precise code
  // (IDEMPOTENCY_KEY_REQUIRED, PRECONDITION_REQUIRED) rather than a generic validation failure; required where
  // published wherever `invoke` requires it.
  if (spec.keyed) {
    extra[fields.key] = idempotencyKeySchema.optional();
    published[fields.key] = idempotencyKeySchema;
  }
  // An upload's file field is optional to parse (an HTTP upload brings the bytes as the body) but published required.
  if (spec.confirmation) {
    if (spec.scope === 'capability' || spec.effect !== 'mutation')
      throw new Error(`${spec.name}: only a member's write can ask for confirmation.`);
    if (Object.hasOwn(spec.input.shape, CONFIRM_FIELD))
      throw new Error(`${spec.name}: declare confirmation rather than a ${CONFIRM_FIELD} field of its own.`);
    extra[CONFIRM_FIELD] = confirmSchema;
    published[CONFIRM_FIELD] = confirmSchema;
  }
  if (spec.kind === 'resource' && spec.versioned && spec.etagFrom?.output !== spec.output)
    throw new Error(
      `${spec.name}: a versioned resource write names the read whose ETag it takes (etagFrom), of its output.`,
    );
  const upload = (spec.http?.upload ?? spec.fileRoute?.upload)?.field;
  if (upload) extra[upload] = (spec.input.shape[upload] as z.ZodType).optional();
  const fullInput = Object.keys(extra).length ? spec.input.extend(extra) : spec.input;
  const publishedInput = Object.keys(published).length ? spec.input.extend(published) : spec.input;
  registerActionName(spec.name);
  return {
    ...spec,
    consequential: spec.consequential ?? spec.effect === 'mutation',
    fullInput,
    publishedInput,
    trpcPath: spec.kind === 'procedure' ? `${spec.domain}.${camelCase(spec.name)}` : undefined,
    plan: planOf(fullInput, spec.output),
  };
}

export type AnyAction = Action<z.ZodObject, z.ZodType>;

/**
 * How a procedure is also offered as a `/v1` resource operation. The two are one behaviour: the resource shares the
 * procedure's handler, scope, guards, rules, filters, output and errors, and differs only where it says so here.
 */
export interface ResourceBinding {
  name: string;
  http: HttpBinding;
  /** Resource field → procedure field, where the seed fixes a path name (`itemId` names what procedures call `lineId`). */
  rename?: Readonly<Record<string, string>>;
  /** The procedure field that is the whole request body (a merge patch), whose fields the resource takes at top level. */
  bodyField?: string;
  /** A declared difference: the resource checks no version (it is keyed instead, as the seed's archival is). */
  versioned?: false;
  /** A declared difference: the resource needs an Idempotency-Key though the procedure takes no command key. */
  keyed?: true;
  /** For a versioned write: the resource read whose ETag If-Match must equal (see ActionSpec.etagFrom). */
  etagFrom?: Action;
  /** Defaults to the procedure's. */
  summary?: string;
  /** Defaults to the procedure's; resource wording names headers (If-Match, Idempotency-Key) where procedures name fields. */
  description?: string;
  mcp?: { advertised: true; title: string };
  /** A worked example in the resource's own shape. */
  example: Record<string, unknown>;
}

/** The resource operation that `binding` makes of `procedure` (see ResourceBinding). */
export function bindResource<I extends z.ZodObject, O extends z.ZodType>(
  procedure: Action<I, O>,
  binding: ResourceBinding,
): Action<z.ZodObject, O> {
  if (procedure.kind !== 'procedure') throw new Error(`${binding.name}: bind a procedure, not ${procedure.name}.`);
  const toResource = new Map(Object.entries(binding.rename ?? {}).map(([res, proc]) => [proc, res]));
  const shape: Record<string, z.ZodType> = {};
  for (const [field, schema] of Object.entries(procedure.input.shape as Record<string, z.ZodType>)) {
    if (field === binding.bodyField) Object.assign(shape, (schema as z.ZodObject).shape);
    else shape[toResource.get(field) ?? field] = schema;
  }
  const bodyFields = binding.bodyField
    ? new Set(Object.keys((procedure.input.shape[binding.bodyField] as z.ZodObject).shape))
    : new Set<string>();
  // Runs on every call of the resource (twice on a read ahead): no entry pairs, and no body object where none is sent.
  const { bodyField, rename } = binding;
  const toProcedureInput = (input: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    const body: Record<string, unknown> | undefined = bodyField ? {} : undefined;
    for (const field of Object.keys(input)) {
      if (body && bodyFields.has(field)) body[field] = input[field];
      else out[rename?.[field] ?? field] = input[field];
    }
    if (body) out[bodyField!] = body;
    return out as z.output<I>;
  };
  const versioned: Versioning | undefined =
    binding.versioned === false || !procedure.versioned
      ? undefined
      : 'idField' in procedure.versioned
        ? {
            ...procedure.versioned,
            idField: toResource.get(procedure.versioned.idField) ?? procedure.versioned.idField,
          }
        : procedure.versioned;
  const { fullInput: _f, publishedInput: _pi, trpcPath: _t, plan: _p, consequential: _c, ...shared } = procedure;
  return {
    ...defineAction<z.ZodObject, O>({
      ...shared,
      name: binding.name,
      kind: 'resource',
      summary: binding.summary ?? procedure.summary,
      description: binding.description ?? procedure.description,
      input: z.strictObject(shape),
      versioned,
      keyed: binding.keyed ?? procedure.keyed,
      ...(versioned && binding.etagFrom ? { etagFrom: binding.etagFrom } : {}),
      http: binding.http,
      mcp: binding.mcp,
      example: binding.example,
      confirmation: procedure.confirmation
        ? { ask: (ctx, input) => procedure.confirmation!.ask(ctx, toProcedureInput(input as Record<string, unknown>)) }
        : undefined,
      prepare: procedure.prepare
        ? (env, input, upload) => procedure.prepare!(env, toProcedureInput(input as Record<string, unknown>), upload)
        : undefined,
      readAhead: procedure.readAhead
        ? (input, caller) => procedure.readAhead!(toProcedureInput(input as Record<string, unknown>), caller)
        : undefined,
      handler: (ctx, input) => procedure.handler(ctx, toProcedureInput(input as Record<string, unknown>)),
    }),
    twinOf: procedure.name,
    ...(binding.bodyField ? { bodySchema: procedure.input.shape[binding.bodyField] as z.ZodType } : {}),
  };
}
