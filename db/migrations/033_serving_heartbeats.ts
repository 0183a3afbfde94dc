/**
 * Serving heartbeats: each process that serves HTTP (`studio serve`) keeps one row, beaten every few seconds and
 * removed when it stops, saying at which base URL it serves. A process without an HTTP server of its own (`studio
 * mcp` over stdio) reads them to give links that point at a server that is really up, or to say that none is. Not a
 * studio's data: a row names a process, never a studio. Portable SQL.
 */
export const name = 'serving_heartbeats';
export const statements = [
  `CREATE TABLE serving_heartbeats (
    process_id TEXT PRIMARY KEY,
    base_url TEXT NOT NULL,
    started_at TEXT NOT NULL,
    beat_at TEXT NOT NULL
  )`,
  `CREATE INDEX serving_heartbeats_by_beat ON serving_heartbeats (beat_at)`,
];
