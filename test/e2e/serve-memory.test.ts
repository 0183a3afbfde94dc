import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../helpers/server.js';

// What keeps a serving process small (README, Memory): the bundle's source one-byte, the heap's growth bounded.
describe('the memory a server keeps', () => {
  it('ships a bundle V8 can keep as a one-byte string: ASCII only, in every chunk', () => {
    const files = readdirSync(join(ROOT, 'dist')).filter((f) => /^studio(-.*)?\.mjs$/.test(f));
    expect(files.length).toBeGreaterThan(1);
    for (const f of files) {
      const text = readFileSync(join(ROOT, 'dist', f), 'utf8');
      const first = text.search(/[\u0080-\uffff]/);
      expect(first, `${f}: ${text.slice(Math.max(0, first - 40), first + 40)}`).toBe(-1);
    }
  });

  it('refuses a heap growth that is not a whole number, naming the setting, before opening anything', () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-heap-'));
    try {
      const run = spawnSync(process.execPath, [CLI, 'serve'], {
        env: {
          ...process.env,
          STUDIO_DATABASE: join(dir, 'studio.sqlite'),
          STUDIO_PORT: '0',
          STUDIO_HEAP_GROWTH_PERCENT: 'half',
        },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain('STUDIO_HEAP_GROWTH_PERCENT must be a whole number');
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
