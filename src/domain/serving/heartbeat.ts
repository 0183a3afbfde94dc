import { sql } from 'kysely';
import type { Config } from '../../config.js';
import { newId } from '../../core/ids.js';
import type { RowReader, Store } from '../../../db/store.js';

/** How often a serving process beats, and how long a beat counts as proof that something serves. */
export const BEAT_SECONDS = 20;
export const FRESH_SECONDS = 60;

/**
 * The configurations of processes serving HTTP right now, in this process: a server answering a request knows it is
 * up without reading its own beat. Keyed by the runtime's config object, so several servers in one process (tests)
 * each know only themselves.
 */
const servingHere = new WeakSet<Config>();

/**
 * Beats for an HTTP server that has started listening: one row in serving_heartbeats naming its base URL, renewed
 * every BEAT_SECONDS and removed on stop, so a `studio mcp` over stdio beside it can give links that open. The timer
 * never keeps the process alive; a failed beat is logged and tried again at the next.
 */
export function startHeartbeat(
  store: Store,
  config: Config,
  log?: (msg: string, err?: unknown) => void,
): { stop(): Promise<void> } {
  const processId = newId();
  const startedAt = new Date().toISOString();
  servingHere.add(config);
  let running: Promise<void> | undefined;
  const beat = () => {
    running ??= store
      .write(async (tx) => {
        const now = new Date().toISOString();
        await sql`INSERT INTO serving_heartbeats (process_id, base_url, started_at, beat_at)
          VALUES (${processId}, ${config.baseUrl}, ${startedAt}, ${now})
          ON CONFLICT (process_id) DO UPDATE SET base_url = excluded.base_url, beat_at = excluded.beat_at`.execute(tx);
        // Rows of processes that died without saying so go after a day: nothing reads a beat that old.
        const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
        await sql`DELETE FROM serving_heartbeats WHERE beat_at < ${dayAgo}`.execute(tx);
      })
      .catch((err) => log?.('heartbeat failed', err))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  void beat();
  const timer = setInterval(beat, BEAT_SECONDS * 1000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      servingHere.delete(config);
      await running;
      await store
        .write(async (tx) => {
          await sql`DELETE FROM serving_heartbeats WHERE process_id = ${processId}`.execute(tx);
        })
        .catch((err) => log?.('heartbeat removal failed', err));
    },
  };
}

/** Where a link an answer gives points, and whether anything is known to serve it. */
export interface LinkBase {
  baseUrl: string;
  /** True when this process serves HTTP, or another beat within FRESH_SECONDS. */
  served: boolean;
  /** Present only when nothing is known to serve: what to run so that the link opens. */
  linkNote?: string;
}

/**
 * The base URL links are built on: the configured one (STUDIO_BASE_URL) when it was set or this process serves it;
 * otherwise the one a live `studio serve` beside this process reported, so a stdio server with default settings hands
 * out the address the HTTP server really listens at. With no live server, the configured one and a sentence saying so.
 */
export async function linkBase(queryRow: RowReader, config: Config, now = new Date()): Promise<LinkBase> {
  if (servingHere.has(config)) return { baseUrl: config.baseUrl, served: true };
  const cutoff = new Date(now.getTime() - FRESH_SECONDS * 1000).toISOString();
  const live = await queryRow<{ base_url: string }>(
    'SELECT base_url FROM serving_heartbeats WHERE beat_at > ? ORDER BY beat_at DESC LIMIT 1',
    cutoff,
  );
  if (live) return { baseUrl: config.baseUrlSet ? config.baseUrl : live.base_url, served: true };
  return {
    baseUrl: config.baseUrl,
    served: false,
    linkNote: `No HTTP server is known to be serving this studio (no \`studio serve\` has reported in the last ${FRESH_SECONDS} s), so this link opens only once \`studio serve\` runs at ${config.baseUrl} (STUDIO_BASE_URL names the address it is served at).`,
  };
}
