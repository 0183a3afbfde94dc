/**
 * `STUDIO_LOG_FORMAT=text`: a request's JSON line as one readable line (time, level, method, path, status, duration,
 * request id, studio), with anything else it carried kept as JSON at the end, and pino's bookkeeping left out.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { textStream } from '../../src/surfaces/request-log.js';

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
