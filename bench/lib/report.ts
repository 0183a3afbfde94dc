import os from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './processes.js';

/** One figure against its target. `atLeast` targets are floors, otherwise ceilings; no target: reported only. */
export interface Check {
  name: string;
  value: number;
  unit: string;
  target?: { atLeast?: number; atMost?: number };
  note?: string;
}

export const passes = (c: Check): boolean | undefined =>
  c.target === undefined
    ? undefined
    : (c.target.atLeast === undefined || c.value >= c.target.atLeast) &&
      (c.target.atMost === undefined || c.value <= c.target.atMost);

const fmt = (v: number) => (Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en-GB') : v.toFixed(2));

export function table(checks: Check[]): string {
  const rows = checks.map((c) => {
    const p = passes(c);
    const target =
      c.target?.atLeast !== undefined
        ? `≥ ${fmt(c.target.atLeast)}`
        : c.target?.atMost !== undefined
          ? `≤ ${fmt(c.target.atMost)}`
          : '';
    return [
      c.name,
      `${fmt(c.value)} ${c.unit}`,
      target && `${target} ${c.unit}`,
      p === undefined ? '' : p ? 'PASS' : 'MISS',
      c.note ?? '',
    ];
  });
  const head = ['Measure', 'Figure', 'Target', 'Result', 'Notes'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((cell, i) => (i === 1 || i === 2 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/**
 * Writes bench/results/<timestamp>.json and bench/results/latest.json; returns the first path. A run of one section
 * (`--only imports`) is `<timestamp>-imports.json` and `latest-imports.json`, so it never stands in for a whole run.
 */
export function save(report: unknown, at: Date, section?: string): string {
  const dir = join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const suffix = section ? `-${section}` : '';
  const file = join(dir, `${at.toISOString().replace(/[:.]/g, '-')}${suffix}.json`);
  const text = `${JSON.stringify(report, null, 2)}\n`;
  writeFileSync(file, text);
  writeFileSync(join(dir, `latest${suffix}.json`), text);
  return file;
}

/**
 * Saves the run of one section (`--only <section>`): when and where it ran, its configuration, its figures and its
 * checks with their verdicts, as `<timestamp>-<section>.json`; prints the path.
 */
export function saveSection(
  section: string,
  at: Date,
  machine: Record<string, unknown>,
  figures: { config?: unknown; results: unknown; checks: Check[] },
): void {
  const file = save(
    {
      at: at.toISOString(),
      machine: { ...machine, loadAverageAtEnd: os.loadavg() },
      ...(figures.config === undefined ? {} : { config: figures.config }),
      results: figures.results,
      checks: figures.checks.map((c) => ({ ...c, pass: passes(c) })),
    },
    at,
    section,
  );
  console.log(`written to ${file}`);
}
