import { hostname } from 'node:os';
import type { Config } from './config.js';

/** What the server's own failures (a worker's, an unhandled request's) are written through. */
export type ProcessLog = (msg: string, err?: unknown) => void;

/**
 * The process's error lines, in the same shape as the request log so one collector reads both: at `STUDIO_LOG_FORMAT=json`
 * a pino-style JSON object (`level` 50, `time`, `pid`, `hostname`, `msg`, `err` with its type, message and stack), at
 * `text` one line a person reads. Always on stderr: under `studio mcp` stdout is the MCP channel, and a stray line
 * there would break the client's parser. Only `silent` turns it off: every level logs errors.
 */
export function processLog(config: Pick<Config, 'logLevel' | 'logFormat'>): ProcessLog {
  if (config.logLevel === 'silent') return () => {};
  if (config.logFormat === 'text') {
    return (msg, err) => {
      const when = new Date().toISOString().slice(11, 19);
      const cause =
        err === undefined ? '' : `: ${err instanceof Error ? (err.stack ?? err.message) : JSON.stringify(err)}`;
      process.stderr.write(`${when} error ${msg}${cause}\n`);
    };
  }
  const host = hostname();
  return (msg, err) => {
    const line = {
      level: 50,
      time: Date.now(),
      pid: process.pid,
      hostname: host,
      msg,
      ...(err === undefined ? {} : { err: described(err) }),
    };
    process.stderr.write(`${JSON.stringify(line)}\n`);
  };
}

/** An error as pino's standard serializer gives it; anything else thrown, as itself. */
function described(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  return { type: err.name, message: err.message, stack: err.stack };
}
