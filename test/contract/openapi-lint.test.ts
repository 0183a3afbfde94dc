import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/server.js';

describe('generated/openapi.json', () => {
  it('lints clean with @redocly/cli (recommended rules)', () => {
    const bin = join(ROOT, 'node_modules/.bin/redocly');
    let output = '';
    let status = 0;
    try {
      output = execFileSync(bin, ['lint', 'generated/openapi.json', '--format=stylish'], {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      });
    } catch (err) {
      const e = err as { status: number; stdout: string; stderr: string };
      status = e.status;
      output = e.stdout + e.stderr;
    }
    expect(output, output).not.toMatch(/warning|error/i);
    expect(status).toBe(0);
  });
});
