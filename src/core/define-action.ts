import { z } from 'zod';
import type { ErrorCode } from './errors.js';
import type { ActionScope } from './permissions.js';
import type { ActionContext } from './context.js';
import type { EntityKind } from './entities.js';

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
}

export interface ActionSpec<I extends z.ZodObject, O extends z.ZodType> {
  name: string;
  kind: ActionKind;
  effect: ActionEffect;
  domain: string;
  summary: string;
  description: string;
  scope: ActionScope;
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
  versioned?: { entity: EntityKind; idField: string };
  /** Non-idempotent create: `Idempotency-Key` (resource, required) or `commandKey` (procedure, optional). */
  keyed?: boolean;
  /**
   * Top-level output fields shown once (secrets such as a new API token). They are stored as null in the idempotency
   * record, so a keyed replay answers the same record without the secret; the schema must allow null for them.
   */
  shownOnce?: readonly string[];
  /**
   * Writes under an archived project are refused with ARCHIVED by `invoke` (its schedule is frozen until restored).
   * Actions about the project's own lifecycle or access (archive, restore, duplicate, grants) opt out here.
   */
  archivedProjectWritable?: true;
  http?: HttpBinding;
  mcp?: { advertised: true; title: string };
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
  /** `<domain>.<camelName>` for procedures. */
  trpcPath?: string;
}

export const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The fields `invoke` reads for concurrency and idempotency, named per surface family. */
export const CONTROL_FIELDS = {
  resource: { version: 'ifMatch', key: 'idempotencyKey' },
  procedure: { version: 'expectedVersion', key: 'commandKey' },
  file: { version: 'expectedVersion', key: 'commandKey' },
} as const;

const etagSchema = z
  .string()
  .max(64)
  .describe('The exact ETag from your last read of this record, quotes included, e.g. "\\"3\\"".');
const versionSchema = z.int().min(1).describe('The version from your last read of this record.');
const idempotencyKeySchema = z
  .string()
  .min(8)
  .max(200)
  .describe('A fresh UUID per intended act; repeat the same key with identical input to retry safely.');

export function defineAction<I extends z.ZodObject, O extends z.ZodType>(spec: ActionSpec<I, O>): Action<I, O> {
  const fields = CONTROL_FIELDS[spec.kind];
  const extra: Record<string, z.ZodType> = {};
  if (spec.versioned) extra[fields.version] = (spec.kind === 'resource' ? etagSchema : versionSchema).optional();
  // Optional in the schema so that `invoke` can answer a missing key or version with its own precise code
  // (IDEMPOTENCY_KEY_REQUIRED, PRECONDITION_REQUIRED) rather than a generic validation failure.
  if (spec.keyed) extra[fields.key] = idempotencyKeySchema.optional();
  const fullInput = Object.keys(extra).length ? spec.input.extend(extra) : spec.input;
  return {
    ...spec,
    consequential: spec.consequential ?? spec.effect === 'mutation',
    fullInput,
    trpcPath: spec.kind === 'procedure' ? `${spec.domain}.${camelCase(spec.name)}` : undefined,
  };
}

export type AnyAction = Action<z.ZodObject, z.ZodType>;
