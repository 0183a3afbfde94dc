/**
 * `STUDIO_LOG_FORMAT=text`: a request's JSON line as one readable line (time, level, method, path, status, duration,
 * request id, studio), with anything else it carried kept as JSON at the end, and pino's bookkeeping left out.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import Fastify from 'fastify';
import { requestLogger, textStream } from '../../src/surfaces/request-log.js';

afterEach(() => vi.restoreAllMocks());

function written(entry: Record<string, unknown>): string {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  textStream.write(`${JSON.stringify(entry)}\n`);
  vi.restoreAllMocks();
  return out;
}

describe('the text log format', () => {
  it('writes a request as one line a person reads', () => {
    const line = written({
      level: 30,
      time: Date.UTC(2026, 10, 27, 14, 2, 3),
      pid: 1,
      hostname: 'h',
      requestId: 'r1',
      method: 'GET',
      route: '/v1/projects',
      path: '/v1/projects',
      status: 200,
      ms: 4.1,
      studioId: 's1',
      msg: 'request',
    });
    expect(line).toBe('14:02:03 info request GET /v1/projects 200 4.1ms r1 s1\n');
  });

  it('writes any other line with its level and message, and what else it carried as JSON', () => {
    const line = written({ level: 50, time: 0, pid: 1, hostname: 'h', msg: 'worker failed', code: 'X' });
    expect(line).toBe('00:00:00 error worker failed {"code":"X"}\n');
  });
});

describe("a request's logger", () => {
  /** The server's logger as fastify makes it, writing its JSON lines here. */
  function serverLogger(level: string) {
    const lines: Array<Record<string, unknown>> = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
    return { logger: Fastify({ logger: { level, stream } }).log, lines };
  }

  it('makes no child logger for a request that logs nothing, and reads the level the child would have', () => {
    const { logger, lines } = serverLogger('warn');
    const child = vi.spyOn(logger, 'child');
    const log = requestLogger.call(undefined as never, logger, { requestId: 'r9' }, {}, undefined as never);
    expect(log.level).toBe('warn');
    const debugRoute = requestLogger.call(
      undefined as never,
      logger,
      { requestId: 'r8' },
      { level: 'debug' },
      {} as never,
    );
    expect(debugRoute.level).toBe('debug');
    expect(child).not.toHaveBeenCalled();
    log.info('not written at warn');
    expect(lines).toEqual([]);
  });

  it('writes what is logged through it with the request id bound, as a child would', () => {
    const { logger, lines } = serverLogger('warn');
    const log = requestLogger.call(undefined as never, logger, { requestId: 'r9' }, {}, undefined as never);
    log.error({ status: 500 }, 'request');
    log.child({ step: 'x' }).warn('inner');
    expect(lines.map((l) => [l.requestId, l.msg, l.status ?? l.step])).toEqual([
      ['r9', 'request', 500],
      ['r9', 'inner', 'x'],
    ]);
  });
});
