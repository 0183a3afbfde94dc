import type { ReadAhead } from './define-action.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { RowReader, Store, WriteChannel } from '../../db/store.js';
import type { Config } from '../config.js';
import type { BlobStore, StagedBlob } from '../files/blob-store.js';
import type { ConfirmedBy, Confirmer } from './confirmation.js';
import type { Caller } from './context.js';
import { type AnyAction, CONTROL_FIELDS } from './define-action.js';

export interface Runtime {
  store: Store;
  config: Config;
  /** Keys whose first request is running now: a second arrival answers IDEMPOTENCY_IN_PROGRESS. */
  inFlight: Map<string, string>;
  /** Where uploaded files and their derivatives are kept. */
  files: BlobStore;
  /** Stops this process's operation workers (letting a running job finish its step), then closes the store. */
  close(): Promise<void>;
  log?: (msg: string, err?: unknown) => void;
  /** This process's operation workers, for `/health/ready`: how many were asked for, and whether they run. */
  workers?: { configured: number; running(): boolean };
}

export type Surface = 'rest' | 'trpc' | 'mcp';

/** What a surface hands `invoke` besides the action and its raw input. */
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

/**
 * One call through the pipeline. `invoke` builds it once, after authentication and input validation, and every step
 * takes it (as tRPC passes one options object to each middleware): a new cross-cutting step reads what it needs here
 * instead of growing every signature.
 */
export interface Call {
  rt: Runtime;
  action: AnyAction;
  /** The input, validated against the action's full schema, control fields (version, key, confirm) included. */
  input: Record<string, unknown>;
  /** Who acts; null for an action of scope `capability`, whose capability (a share token) opens the studio instead. */
  caller: Caller | null;
  request: InvokeRequest;
  requestId: string;
  /** What the action's `prepare` step made before the transaction opened (an upload, decoded and stored). */
  prepared?: unknown;
  /** How the person agreed to an act that needed their agreement. */
  confirmedBy?: ConfirmedBy;
  /**
   * Work to run once the write has committed (wake a worker, send a mail). The group commit may run a write a second
   * time after undoing the first run; each run starts this list afresh, so only the run that committed leaves work.
   */
  afterCommit: Array<() => void>;
  /** The handler's first read, sent with the ownership reads (ActionSpec.readAhead), made once per call. */
  ahead?: ReadAhead;
}

/**
 * The connection a call runs on: a read's snapshot, or a write's transaction. Writes are committed in groups; inside
 * one, `memo` holds what the group's writes share and `later` sends a statement without waiting for its result (see
 * db/store.ts).
 */
export interface Connection extends WriteChannel {
  db: Kysely<Database>;
  queryRow: RowReader;
}

/** The name of a control field as the caller on `surface` sends it, for messages. */
export function controlFieldName(action: AnyAction, which: 'version' | 'key', surface: Surface = 'rest'): string {
  if (action.kind === 'resource' && surface === 'rest') return which === 'version' ? 'If-Match' : 'Idempotency-Key';
  return CONTROL_FIELDS[action.kind][which];
}

/** The value of a call's control field (its expected version or its idempotency key), as sent. */
export const controlValue = (call: Call, which: 'version' | 'key'): unknown =>
  call.input[CONTROL_FIELDS[call.action.kind][which]];
