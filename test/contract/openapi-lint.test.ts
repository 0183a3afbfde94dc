import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/server.js';

describe('generated/openapi.json', () => {
  it('keeps the strictest lint configuration: recommended-strict, examples checked, parameters described', () => {
    const config = readFileSync(join(ROOT, 'redocly.yaml'), 'utf8');
    expect(config).toMatch(/extends:\s*\n\s*- recommended-strict/);
    for (const rule of [
      'no-invalid-media-type-examples',
      'no-invalid-parameter-examples',
      'no-invalid-schema-examples',
      'parameter-description',
    ])
      expect(config).toMatch(new RegExp(`${rule}:`));
  });

  it('lints clean with @redocly/cli (redocly.yaml: recommended-strict plus examples and descriptions)', () => {
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
