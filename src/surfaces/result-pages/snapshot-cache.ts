import { createHash } from 'node:crypto';
import { canonicalJson } from '../../core/canonical-json.js';
import type { Caller } from '../../core/context.js';
import type { Runtime } from '../../core/call.js';

export interface CachedSnapshot {
  /** The result as sent (parsed from its JSON), and per-object node counts memoised across its pages. */
  doc: unknown;
  memo: Map<object, number>;
  bytes: number;
  expiresAt: number;
}

/**
 * Recently paged results, so that reading a large result to its end pages through one stored copy instead of
 * re-running the read for every page. Bounded in bytes (oldest first out) and in time. An entry is found only by the
 * same caller (member, token and role, since redaction depends on them) with the same action, input and snapshot; a
 * miss, such as a continuation that reaches another server process, re-runs the read and compares snapshots as
 * before, so the cache changes speed, never answers.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, CachedSnapshot>();
  private bytes = 0;

  constructor(
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly ttlMs = 120_000,
  ) {}

  static key(caller: Caller, name: string, input: unknown, snapshot: string): string {
    const who = `${caller.studioId}\u0000${caller.memberId}\u0000${caller.tokenId}\u0000${caller.role}`;
    return createHash('sha256')
      .update(`${who}\u0000${name}\u0000${canonicalJson(input ?? {})}\u0000${snapshot}`)
      .digest('base64url');
  }

  get(key: string, now = Date.now()): CachedSnapshot | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.drop(key, entry);
      return undefined;
    }
    return entry;
  }

  set(key: string, doc: unknown, bytes: number, now = Date.now()) {
    if (bytes > this.maxBytes / 4) return;
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    this.entries.set(key, { doc, memo: new Map(), bytes, expiresAt: now + this.ttlMs });
    this.bytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes && e.expiresAt > now) break;
      this.drop(k, e);
    }
  }

  /** Forgets every kept snapshot (what another server process, or an expired entry, looks like to a reader). */
  clear() {
    this.entries.clear();
    this.bytes = 0;
  }

  private drop(key: string, entry: CachedSnapshot) {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

/** One cache per runtime, shared by every agent surface of the process (MCP over stdio and HTTP, agent results). */
const CACHES = new WeakMap<Runtime, SnapshotCache>();
export function snapshotsOf(rt: Runtime): SnapshotCache {
  let cache = CACHES.get(rt);
  if (!cache) CACHES.set(rt, (cache = new SnapshotCache()));
  return cache;
}
