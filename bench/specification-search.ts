/**
 * What building a specification index per request costs: search_specifications builds MiniSearch over the studio's
 * specifications on every call (nothing cached, nothing stale). This times building and searching libraries of 40 to
 * 5,000 synthetic specifications, the median of 20 runs each. Run: npx tsx bench/specification-search.ts
 */
import { performance } from 'node:perf_hooks';
import { SPECIFICATION_CATEGORIES } from '../db/vocabulary.js';
import type { PresentedSpecification } from '../src/domain/specifications/record.js';
import { specificationIndex } from '../src/domain/specifications/search.js';

const WOODS = ['oak', 'walnut', 'ash', 'teak', 'beech', 'elm'];
const KINDS = ['dining table', 'sideboard', 'wall light', 'pendant', 'rug', 'sofa', 'armchair', 'basin', 'tap', 'bed'];
const FINISHES = ['brushed brass', 'aged brass', 'matt black', 'oiled', 'lacquered', 'painted'];

function synthetic(i: number): PresentedSpecification {
  const wood = WOODS[i % WOODS.length]!;
  const kind = KINDS[(i * 7) % KINDS.length]!;
  const finish = FINISHES[(i * 3) % FINISHES.length]!;
  return {
    id: String(i).padStart(26, '0'),
    name: `${wood} ${kind} ${i}`,
    category: SPECIFICATION_CATEGORIES[i % SPECIFICATION_CATEGORIES.length]!,
    manufacturer: `Maker ${i % 40}`,
    model: `Model ${i}`,
    sku: `SKU-${i}`,
    description: `A ${kind} in ${wood}, ${finish}, made to order in the workshop; seats or serves a family.`,
    dimensions: { unit: 'mm', width4: String((800 + (i % 20) * 100) * 10_000), depth4: '9000000', height4: '7400000' },
    materials: [wood, 'steel'],
    finishes: [finish],
    colours: ['natural'],
    careNotes: 'Wipe with a damp cloth; re-oil yearly.',
    installationNotes: '',
    leadTimeDays: 42,
    links: [{ label: 'Product page', url: `https://example.com/${i}` }],
    clientFields: ['dimensions'],
    notes: 'Trade terms: 30 days.',
    lineCount: 0,
    version: 1,
    createdAt: '2026-11-27T10:00:00.000Z',
    updatedAt: '2026-11-27T10:00:00.000Z',
    archived_at: null,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const rows: Array<Record<string, string | number>> = [];
for (const n of [40, 500, 2000, 5000]) {
  const specs = Array.from({ length: n }, (_, i) => synthetic(i));
  const build: number[] = [];
  const search: number[] = [];
  for (let run = 0; run < 20; run++) {
    const t0 = performance.now();
    const index = specificationIndex(specs);
    const t1 = performance.now();
    index.search('oak dining table 2 m');
    build.push(t1 - t0);
    search.push(performance.now() - t1);
  }
  rows.push({ specifications: n, 'build ms': median(build).toFixed(1), 'search ms': median(search).toFixed(2) });
}
console.table(rows);
