/**
 * A list's `limit` says the page it returns. Every list in the catalog publishes "Page size; default N." from the page
 * size its listing declares (defineListing's pageSize) or, for a list paged by hand, the one its query uses; and a
 * real client that leaves limit out gets exactly N items while more exist. That is proven through the typed tRPC client
 * (MCP would hand a page this size back as a result_page) for a list at the default (list_suppliers) and for each list
 * that declares another (list_operations, search_specifications); the rest share their listing's code path (a
 * listing's `page`, or keysetPage's default).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ACTIONS } from '../../actions/index.js';
import { buildActionsDocument } from '../../src/contract/actions-json.js';
import { newId } from '../../src/core/ids.js';
import { DEFAULT_PAGE_SIZE } from '../../src/core/values.js';
import { SEARCH_PAGE_SIZE } from '../../src/domain/specifications/search.js';
import { SUPPLIER_RECORD } from '../../src/domain/suppliers/record.js';
import { OPERATION_RECORD } from '../../src/jobs/record.js';
import type { Trpc } from '../helpers/clients.js';
import { uuid } from '../helpers/ids.js';
import { openTestApp, type TestApp } from '../helpers/in-process.js';

/** Lists paged by hand (not through defineListing) whose page is not DEFAULT_PAGE_SIZE, with the size they use. */
const HAND_PAGED: Record<string, number> = { search_specifications: SEARCH_PAGE_SIZE };

type Properties = Record<string, { description?: string }>;
const PUBLISHED = new Map(
  buildActionsDocument(ACTIONS).actions.map((a) => [a.name, (a.input as { properties?: Properties }).properties ?? {}]),
);

/** The default an action's published `limit` states, or undefined when it takes no limit. */
function statedDefault(name: string): number | undefined {
  const limit = PUBLISHED.get(name)?.limit;
  if (!limit) return undefined;
  const stated = /^Page size; default (\d+)\.$/.exec(limit.description ?? '');
  if (!stated) throw new Error(`${name}'s limit says "${limit.description}", not the words pageLimit publishes.`);
  return Number(stated[1]);
}

interface Page {
  items: unknown[];
  nextCursor: string | null;
}

interface Listing {
  input: z.ZodObject;
  pageSize: number;
}

/** Every listing declared in src (an export of a module that calls defineListing), by its limit field's schema. */
async function declaredListings(): Promise<Map<unknown, Listing>> {
  const listings = new Map<unknown, Listing>();
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
    );
  const declaring = walk('src').filter((f) => /\bdefineListing\(\{/.test(readFileSync(f, 'utf8')));
  for (const file of declaring) {
    for (const value of Object.values(await import(pathToFileURL(file).href))) {
      const l = value as Partial<Listing> & { page?: unknown };
      if (l && typeof l === 'object' && typeof l.pageSize === 'number' && l.input && typeof l.page === 'function')
        listings.set(l.input.shape.limit, l as Listing);
    }
  }
  return listings;
}

describe('every list states the page size it pages at', () => {
  const lists = ACTIONS.filter((a) => 'limit' in a.input.shape);

  it('the catalog has lists through listings and lists paged by hand', async () => {
    const listings = await declaredListings();
    expect(listings.size).toBeGreaterThanOrEqual(25);
    const byHand = lists.filter((a) => !listings.has(a.input.shape.limit)).map((a) => a.name);
    expect(byHand).toContain('search_specifications');
    expect(lists.length - byHand.length).toBeGreaterThanOrEqual(25);
  });

  it("a listing's limit states the pageSize it declares; a hand-paged list's the size its query uses", async () => {
    const listings = await declaredListings();
    for (const a of lists) {
      const listing = listings.get(a.input.shape.limit);
      const expected = listing ? listing.pageSize : (HAND_PAGED[a.name] ?? DEFAULT_PAGE_SIZE);
      expect(statedDefault(a.name), a.name).toBe(expected);
    }
    // Not every list pages at the default: the check above compares numbers that can differ.
    expect(statedDefault('list_operations')).not.toBe(DEFAULT_PAGE_SIZE);
    expect(statedDefault('search_specifications')).not.toBe(DEFAULT_PAGE_SIZE);
  });
});

describe('leaving limit out answers the stated default, while more exist', () => {
  let app: TestApp;
  let owner: Trpc;
  let studioId: string;
  let ownerId: string;
  openTestApp((opened) => ({ app, owner } = opened));
  beforeAll(async () => {
    const member = await app.rt.store.db
      .selectFrom('members')
      .select(['id', 'studio_id'])
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    ({ studio_id: studioId, id: ownerId } = member);
  });

  /** The list's first page with no limit, by its tRPC path: the stated default's worth of items, and a next page. */
  async function firstPageIsStatedDefault(name: string, input: Record<string, unknown>) {
    const size = statedDefault(name)!;
    const [domain, procedure] = ACTIONS.find((a) => a.name === name)!.trpcPath!.split('.') as [string, string];
    const list = (owner as unknown as Record<string, Record<string, { query: (i: unknown) => Promise<Page> }>>)[
      domain
    ]!;
    const first = await list[procedure]!.query(input);
    expect(first.items).toHaveLength(size);
    expect(first.nextCursor).toEqual(expect.any(String));
    return size;
  }

  it(`list_suppliers (default ${DEFAULT_PAGE_SIZE})`, async () => {
    const now = new Date().toISOString();
    const rows = Array.from({ length: DEFAULT_PAGE_SIZE + 1 }, (_, i) =>
      SUPPLIER_RECORD.newRow({ name: `Paging supplier ${i}` }, { id: newId(), ownerId: studioId, now }),
    );
    for (let i = 0; i < rows.length; i += 100)
      await app.rt.store.db
        .insertInto('suppliers')
        .values(rows.slice(i, i + 100))
        .execute();
    expect(await firstPageIsStatedDefault('list_suppliers', {})).toBe(DEFAULT_PAGE_SIZE);
  });

  it('list_operations (its listing declares 100)', async () => {
    const now = new Date().toISOString();
    const rows = Array.from({ length: 101 }, () =>
      OPERATION_RECORD.newRow(
        {
          kind: 'document_render',
          action: 'render_project_document',
          scope: 'projects:read',
          status: 'succeeded',
          result: {},
          input: '{}',
          requestedBy: ownerId,
          requestedVia: 'api_token',
          startedAt: now,
          finishedAt: now,
          updatedAt: now,
        },
        { id: newId(), ownerId: studioId, now },
      ),
    );
    await app.rt.store.db.insertInto('operations').values(rows).execute();
    expect(await firstPageIsStatedDefault('list_operations', { status: 'succeeded' })).toBe(100);
  });

  it(`search_specifications (ranked: ${SEARCH_PAGE_SIZE})`, async () => {
    for (let i = 0; i <= SEARCH_PAGE_SIZE; i++) {
      await owner.specifications.createSpecification.mutate({
        name: `Quillon stool ${i}`,
        category: 'other',
        commandKey: uuid(),
      });
    }
    expect(await firstPageIsStatedDefault('search_specifications', { q: 'quillon' })).toBe(SEARCH_PAGE_SIZE);
  });
});
