/**
 * search_specifications: the library ranked by what a studio types. Over a realistic catalogue of 40 specifications
 * (the six demo ones and 34 more, with near neighbours), each of a dozen everyday requests must put the specification
 * a studio means first; pages of a ranked list must be stable; filters narrow; archived ones stay out unless asked.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import type { Trpc } from '../helpers/clients.js';
import { allPages, callAction, codeOf } from '../helpers/calls.js';
import { floatsIn } from '../helpers/fixtures.js';
import { addCatalogue, CATALOGUE } from './catalogue.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => addCatalogue(owner));

const top = async (q: string, extra: Record<string, unknown> = {}) =>
  (await owner.specifications.searchSpecifications.query({ q, ...extra })).items.map((h) => h.specification.name);

/** What a studio types, and the specification it means. */
const REQUESTS: ReadonlyArray<[string, string]> = [
  ['oak dining table 2 m', 'Solid Oak Dining Table 200'],
  ['oak dining table 2.4m', 'Oak Extending Dining Table'],
  ['brushed brass wall light', 'Brushed Brass Wall Sconce'],
  ['grey wool rug', 'Grey Wool Flatweave Rug'],
  ['velvet couch', 'Emerald Velvet Sofa'],
  ['marble basin for the bathroom', 'Carrara Marble Basin'],
  ['walnut sideboard', 'Walnut Sideboard 180'],
  ['linen curtains', 'Stone Linen Curtains'],
  ['chandeleir', 'Crystal Chandelier'],
  ['teak lounger for the garden', 'Teak Sun Lounger'],
  ['oak herringbone floor', 'Oak Herringbone Parquet'],
  ['matt black tap', 'Matt Black Basin Mixer'],
  ['round table 140 cm', 'Round Ash Dining Table 140'],
  ['leather armchair', 'Tan Leather Lounge Chair'],
  ['CH24', 'Wishbone Dining Chair'],
  ['smoked glass pendant over the island', 'Smoked Glass Pendant'],
];

describe('search_specifications relevance', () => {
  it('searches a library of 40', async () => {
    const all = await allPages((cursor) => owner.specifications.listSpecifications.query({ cursor, limit: 100 }));
    expect(all.length).toBe(CATALOGUE.length + 6);
  });

  it.each(REQUESTS)('"%s" puts %s first', async (q, meant) => {
    const names = await top(q);
    expect(names[0], names.slice(0, 4).join(' | ')).toBe(meant);
  });

  it('answers in integers, with where the words were found, the same over MCP', async () => {
    const page = await owner.specifications.searchSpecifications.query({ q: 'brushed brass wall light', limit: 5 });
    expect(floatsIn(page)).toEqual([]);
    expect(page.items[0]!.score).toBe(100);
    const scores = page.items.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(page.items[0]!.matched).toEqual(expect.arrayContaining(['name', 'finishes']));
    const viaMcp = await callAction(mcp, 'search_specifications', { q: 'brushed brass wall light', limit: 5 });
    expect(viaMcp.result).toEqual(page);
  });

  it('narrows by category and manufacturer', async () => {
    expect(await top('oak', { category: 'storage' })).toEqual([
      'Oak Bookcase',
      'Walnut Sideboard 180',
      'Painted Wardrobe',
    ]);
    const benchmark = await top('dining table', { manufacturer: 'benchmark' });
    expect(benchmark.sort()).toEqual([
      'Oak Extending Dining Table',
      'Solid Oak Dining Table 200',
      'Walnut Dining Table 200',
    ]);
  });

  it('finds nothing for words no specification has', async () => {
    expect(await top('helicopter')).toEqual([]);
  });
});

describe('pages of a ranked list', () => {
  it('page through the same hits in the same order as one long page, each once', async () => {
    const whole = await owner.specifications.searchSpecifications.query({ q: 'oak', limit: 100 });
    expect(whole.items.length).toBeGreaterThan(6);
    expect(whole.nextCursor).toBeNull();
    const paged = await allPages((cursor) =>
      owner.specifications.searchSpecifications.query({ q: 'oak', limit: 3, cursor }),
    );
    expect(paged.map((h) => h.specification.id)).toEqual(whole.items.map((h) => h.specification.id));
    const byName = await allPages((cursor) =>
      owner.specifications.searchSpecifications.query({ q: 'oak', limit: 4, sort: 'name', cursor }),
    );
    const names = byName.map((h) => h.specification.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : 1)));
    expect(new Set(names).size).toBe(whole.items.length);
  });

  it('refuses a cursor carried to another search or another sort', async () => {
    const first = await owner.specifications.searchSpecifications.query({ q: 'oak', limit: 2 });
    expect(first.nextCursor).not.toBeNull();
    const cursor = first.nextCursor!;
    expect(await codeOf(owner.specifications.searchSpecifications.query({ q: 'walnut', cursor }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await codeOf(owner.specifications.searchSpecifications.query({ q: 'oak', sort: 'name', cursor }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(
      await codeOf(owner.specifications.searchSpecifications.query({ q: 'oak', category: 'tables', cursor })),
    ).toBe('VALIDATION_FAILED');
  });

  it('leaves archived specifications out unless asked', async () => {
    const [hit] = (await owner.specifications.searchSpecifications.query({ q: 'limewash' })).items;
    expect(hit!.specification.name).toBe('Limewash Paint');
    await owner.specifications.archiveSpecification.mutate({
      specificationId: hit!.specification.id,
      expectedVersion: hit!.specification.version,
    });
    expect(await top('limewash')).toEqual([]);
    expect(await top('limewash', { archived: 'include' })).toEqual(['Limewash Paint']);
  });
});
