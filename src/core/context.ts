import type { Kysely } from 'kysely';
import type { RowReader, SendLater } from '../../db/store.js';
import type { Database } from '../../db/schema.js';
import type { Role, StudioPermission } from './permissions.js';
import type { Config } from '../config.js';
import type { ActorChannel } from '../../db/vocabulary.js';
import type { AuditTargetKind } from './audit-kinds.js';
import type { CapabilityGrant } from './capability.js';

/** Who is acting: a studio member through one of their API tokens, or an OAuth connection's access token (MCP). */
export interface Caller {
  userId: string;
  memberId: string;
  studioId: string;
  role: Role;
  /** The API token's id, or the OAuth access token's. */
  tokenId: string;
  /** How the caller reached the server; audit events record it beside the member. */
  via: ActorChannel;
  permissions: ReadonlySet<StudioPermission>;
}

export interface AuditInput {
  targetKind: AuditTargetKind;
  targetId: string;
  projectId?: string | null;
  summary: string;
  changes?: Record<string, unknown>;
  /** Defaults to the action's name. */
  action?: string;
  /**
   * For an event that belongs to another studio's feed (accepting an invitation records the new membership in the
   * studio joined, not in the one the caller's token acts in): that studio, and the caller's membership there, which
   * the event names as its actor.
   */
  elsewhere?: { studioId: string; memberId: string };
}

export interface ActionContext {
  /** The write transaction for mutations; the reader's snapshot for queries. */
  db: Kysely<Database>;
  /**
   * A raw one-row read on the same connection as `db` (so it sees the same transaction or snapshot), for hot paths
   * where the query builder costs more than the query. Portable SQL with `?` placeholders.
   */
  queryRow: RowReader;
  config: Config;
  /** Null only for capability (share token) actions. */
  caller: Caller | null;
  /** The caller's studio (a capability action's: the one its capability opens); every query is bounded by it. */
  studioId: string;
  /** What the capability in the input opened, for actions of scope `capability` (see ActionSpec.capability). */
  capability?: CapabilityGrant;
  /** Resolved by `invoke` when the input names a `projectId` the caller may reach. */
  project?: Database['projects'];
  /** One timestamp per request, so every row a request writes agrees. */
  now: string;
  requestId: string;
  /**
   * In a write: sends a statement whose result the handler does not read, without waiting for it (see SendLater);
   * statements after it see its effect. Absent in queries.
   */
  later?: SendLater;
  /** Queues an audit event; `invoke` writes it in the same transaction as the change. */
  audit(event: AuditInput): void;
  /** What the action's `prepare` step made before the transaction opened (an upload, stored), if it has one. */
  prepared?: unknown;
  /** Runs `fn` once the write's transaction has committed (never if it rolls back): wake a worker, send a mail. */
  afterCommit(fn: () => void): void;
  /** Says the write changed nothing: no audit event is recorded for it (a version is not bumped either). */
  unchanged(): void;
}
