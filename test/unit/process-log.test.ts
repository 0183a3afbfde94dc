/**
 * The process's own error lines (a failed worker, an unhandled request) share the request log's shape, so a collector
 * reading JSON lines parses both, and they go to stderr, never to stdout (the MCP channel under `studio mcp`).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processLog } from '../../src/process-log.js';

afterEach(() => vi.restoreAllMocks());

/** Everything written to stdout and stderr while `fn` runs. */
function written(fn: () => void): { stdout: string; stderr: string } {
  const out = { stdout: '', stderr: '' };
  for (const stream of ['stdout', 'stderr'] as const) {
    vi.spyOn(process[stream], 'write').mockImplementation((chunk) => {
      out[stream] += String(chunk);
      return true;
    });
  }
  fn();
  vi.restoreAllMocks();
  return out;
}

describe('processLog', () => {
  it('writes one JSON error line on stderr, the error with its type, message and stack', () => {
    const log = processLog({ logLevel: 'info', logFormat: 'json' });
    const { stdout, stderr } = written(() => log('operation op_1 (import) failed', new RangeError('row 12 is empty')));
    expect(stdout).toBe('');
    const lines = stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({ level: 50, msg: 'operation op_1 (import) failed', pid: process.pid });
    expect(entry.err).toMatchObject({ type: 'RangeError', message: 'row 12 is empty' });
    expect(entry.err.stack).toContain('row 12 is empty');
    expect(typeof entry.time).toBe('number');
  });

  it('writes text for a terminal when asked, and nothing at all when silent', () => {
    const text = written(() => processLog({ logLevel: 'error', logFormat: 'text' })('sweep failed', 'disk full'));
    expect(text.stderr).toMatch(/^\d\d:\d\d:\d\d error sweep failed: "disk full"\n$/);
    const silent = written(() => processLog({ logLevel: 'silent', logFormat: 'json' })('sweep failed'));
    expect(silent).toEqual({ stdout: '', stderr: '' });
  });
});
