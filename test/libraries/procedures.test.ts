/**
 * The libraries domain (9 procedures) through the typed tRPC client, and through MCP call_action as an agent reaches
 * it: a studio's named collections of products, versioned, archived rather than deleted; products captured from a
 * schedule line (ownership of the nested line checked) or described fresh, with trade prices withheld from callers
 * without pricing:read and written only with pricing:write; and a product put back on a schedule the documented way,
 * with create_schedule_line.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestApp, openTestAppWithMcp } from '../helpers/in-process.js';
import { trpc, type Trpc } from '../helpers/clients.js';
import { allPages, callAction, codeOf } from '../helpers/calls.js';
import { demoMembers, type Member, studioOfTheirOwn } from '../helpers/fixtures.js';
import { uuid } from '../helpers/ids.js';
import { projectWithLine } from '../helpers/schedule.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let members: Record<'designer' | 'assistant' | 'viewer', Member>;
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened));
beforeAll(async () => {
  members = await demoMembers(app, ['designer', 'assistant', 'viewer']);
});

const newLibrary = (name: string, extra: Record<string, unknown> = {}) =>
  owner.libraries.createLibrary.mutate({ name, ...extra, commandKey: uuid() });

type AddInput = Parameters<Trpc['libraries']['addLibraryProduct']['mutate']>[0];
const addProduct = (input: Omit<AddInput, 'commandKey'>) =>
  owner.libraries.addLibraryProduct.mutate({ ...input, commandKey: uuid() });

/** A demo line of Harbour House, found by its heading. */
async function demoLine(heading: string) {
  const found = await owner.schedule.listScheduleLines.query({ projectId: app.projectId, q: heading });
  const line = found.items.find((l) => l.heading === heading);
  if (!line) throw new Error(`No demo line ${heading}`);
  return line;
}

describe('list_libraries and get_library', () => {
  it('lists the demo library with its product count, the same over MCP', async () => {
    const list = await owner.libraries.listLibraries.query({});
    const lighting = list.items.find((l) => l.name === 'Lighting we trust');
    expect(lighting).toMatchObject({ productCount: 4, version: 1, archived_at: null });
    const viaMcp = await callAction(mcp, 'list_libraries', {});
    expect(viaMcp.result).toEqual(list);
    const read = await owner.libraries.getLibrary.query({ libraryId: lighting!.id });
    expect(read).toEqual(lighting);
  });

  it('finds libraries by a piece of their name or description, and pages in the sort asked for', async () => {
    await newLibrary('Fabrics A', { description: 'Upholstery weaves' });
    await newLibrary('Fabrics B');
    await newLibrary('Fabrics C');
    expect((await owner.libraries.listLibraries.query({ q: 'UPHOLSTERY' })).items.map((l) => l.name)).toEqual([
      'Fabrics A',
    ]);
    const all = await allPages((cursor) =>
      owner.libraries.listLibraries.query({ q: 'fabrics', limit: 2, sort: '-name', cursor }),
    );
    expect(all.map((l) => l.name)).toEqual(['Fabrics C', 'Fabrics B', 'Fabrics A']);
  });

  it('answers NOT_FOUND for an unknown library', async () => {
    expect(await codeOf(owner.libraries.getLibrary.query({ libraryId: '0000000000000000000000000l' }))).toBe(
      'NOT_FOUND',
    );
  });
});

describe('create_library, update_library and archive_library', () => {
  it('creates once per commandKey and audits it', async () => {
    const commandKey = uuid();
    const first = await owner.libraries.createLibrary.mutate({ name: 'Tiles', commandKey });
    const again = await owner.libraries.createLibrary.mutate({ name: 'Tiles', commandKey });
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({ name: 'Tiles', description: '', productCount: 0, version: 1 });
    expect(await codeOf(owner.libraries.createLibrary.mutate({ name: 'Other tiles', commandKey }))).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
    const events = await owner.audit.listStudioAuditEvents.query({ targetKind: 'library' });
    expect(events.items.filter((e) => e.target.id === first.id).map((e) => e.action)).toEqual(['create_library']);
  });

  it('patches only the fields sent and checks the version', async () => {
    const lib = await newLibrary('Hardware', { description: 'Handles and hooks' });
    const updated = await owner.libraries.updateLibrary.mutate({
      libraryId: lib.id,
      expectedVersion: 1,
      name: 'Door hardware',
    });
    expect(updated).toMatchObject({ name: 'Door hardware', description: 'Handles and hooks', version: 2 });
    expect(
      await codeOf(owner.libraries.updateLibrary.mutate({ libraryId: lib.id, expectedVersion: 1, name: 'Late' })),
    ).toBe('VERSION_CONFLICT');
    expect(await codeOf(owner.libraries.updateLibrary.mutate({ libraryId: lib.id, name: 'No version' }))).toBe(
      'PRECONDITION_REQUIRED',
    );
    expect(await codeOf(owner.libraries.updateLibrary.mutate({ libraryId: lib.id, expectedVersion: 2 }))).toBe(
      'VALIDATION_FAILED',
    );
    const history = await owner.audit.listStudioAuditEvents.query({ targetKind: 'library' });
    const update = history.items.find((e) => e.target.id === lib.id && e.action === 'update_library');
    expect(update?.changes).toEqual({ name: { from: 'Hardware', to: 'Door hardware' } });
  });

  it('archives once: an archived library keeps its products but takes no new ones and does not change', async () => {
    const lib = await newLibrary('Retired collection');
    const kept = await addProduct({ libraryId: lib.id, heading: 'Old pendant' });
    const archived = await owner.libraries.archiveLibrary.mutate({ libraryId: lib.id, expectedVersion: 1 });
    expect(archived).toMatchObject({ version: 2, productCount: 1 });
    expect(archived.archived_at).not.toBeNull();
    expect(await codeOf(owner.libraries.archiveLibrary.mutate({ libraryId: lib.id, expectedVersion: 2 }))).toBe(
      'ALREADY_ARCHIVED',
    );
    expect(
      await codeOf(owner.libraries.updateLibrary.mutate({ libraryId: lib.id, expectedVersion: 2, name: 'Back' })),
    ).toBe('ARCHIVED');
    expect(await codeOf(addProduct({ libraryId: lib.id, heading: 'New pendant' }))).toBe('ARCHIVED');
    expect(
      await codeOf(
        owner.libraries.updateLibraryProduct.mutate({ productId: kept.id, expectedVersion: 1, finish: 'Chrome' }),
      ),
    ).toBe('ARCHIVED');
    // Left out of lists and of the search across libraries, still readable by its id.
    expect((await owner.libraries.listLibraries.query({ q: 'Retired' })).items).toEqual([]);
    expect(
      (await owner.libraries.listLibraries.query({ q: 'Retired', archived: 'only' })).items.map((l) => l.id),
    ).toEqual([lib.id]);
    expect((await owner.libraries.listLibraryProducts.query({ q: 'Old pendant' })).items).toEqual([]);
    expect((await owner.libraries.listLibraryProducts.query({ libraryId: lib.id })).items.map((p) => p.id)).toEqual([
      kept.id,
    ]);
  });
});

describe('add_library_product', () => {
  it('adds a product described fresh, with prices in the studio currency and the supplier named', async () => {
    const lib = await newLibrary('Rugs');
    const suppliers = await owner.suppliers.listSuppliers.query({ q: 'Weft' });
    const supplierId = suppliers.items[0]!.id;
    const p = await addProduct({
      libraryId: lib.id,
      heading: 'Flatweave runner',
      description: 'Wool flatweave for halls and stairs.',
      supplierId,
      brand: 'Weft',
      productCode: 'WF-RUN-80',
      url: 'https://weft.example/runner',
      finish: 'Natural',
      dimensions: 'W 800 mm',
      leadTimeDays: 42,
      tradePrice: { state: 'set', amount4: '950000' },
      retailPrice: { state: 'set', amount4: '1450000' },
    });
    expect(p).toMatchObject({
      libraryId: lib.id,
      heading: 'Flatweave runner',
      supplierId,
      supplierName: 'Weft Rugs',
      leadTimeDays: 42,
      currency: 'GBP',
      tradePrice: { state: 'set', price: { amount4: '950000', currency: 'GBP' } },
      retailPrice: { state: 'set', price: { amount4: '1450000', currency: 'GBP' } },
      capturedFrom: null,
      version: 1,
      archived_at: null,
    });
    expect((await owner.libraries.getLibrary.query({ libraryId: lib.id })).productCount).toBe(1);
    const bare = await addProduct({ libraryId: lib.id, heading: 'Jute mat', currency: 'EUR' });
    expect(bare).toMatchObject({
      description: '',
      supplierId: null,
      currency: 'EUR',
      tradePrice: { state: 'tbc', price: null },
      retailPrice: { state: 'tbc', price: null },
    });
  });

  it('refuses a fresh product without a heading, or a price sent with an amount but not "set"', async () => {
    const lib = await newLibrary('Refusals');
    expect(await codeOf(addProduct({ libraryId: lib.id, brand: 'Nameless' }))).toBe('VALIDATION_FAILED');
    expect(
      await codeOf(
        // @ts-expect-error the published type already refuses an amount on "tbc"; the server must too
        addProduct({ libraryId: lib.id, heading: 'X', retailPrice: { state: 'tbc', amount4: '100' } }),
      ),
    ).toBe('VALIDATION_FAILED');
  });

  it("captures a schedule line's fields and prices, in its project's currency, with fields sent replacing them", async () => {
    const lib = await newLibrary('Sofas we like');
    const sofa = await demoLine('Three-seat sofa');
    const captured = await addProduct({
      libraryId: lib.id,
      fromLine: { projectId: app.projectId, lineId: sofa.id },
    });
    expect(captured).toMatchObject({
      heading: sofa.heading,
      description: sofa.description,
      supplierId: sofa.supplierId,
      supplierName: sofa.supplierName,
      brand: sofa.brand,
      productCode: sofa.productCode,
      finish: sofa.finish,
      dimensions: sofa.dimensions,
      leadTimeDays: sofa.leadTimeDays,
      currency: 'GBP',
      tradePrice: sofa.tradePrice,
      retailPrice: sofa.retailPrice,
      capturedFrom: { projectId: app.projectId, lineId: sofa.id },
    });
    const renamed = await addProduct({
      libraryId: lib.id,
      fromLine: { projectId: app.projectId, lineId: sofa.id },
      heading: 'Hartwell sofa, three seats',
      finish: null,
    });
    expect(renamed).toMatchObject({ heading: 'Hartwell sofa, three seats', finish: null, brand: sofa.brand });
    // The line itself is untouched.
    const after = await owner.schedule.getScheduleLine.query({ projectId: app.projectId, lineId: sofa.id });
    expect(after.version).toBe(sofa.version);
    expect(
      await codeOf(
        addProduct({ libraryId: lib.id, fromLine: { projectId: app.projectId, lineId: sofa.id }, currency: 'EUR' }),
      ),
    ).toBe('VALIDATION_FAILED');
  });

  it('checks that the captured line belongs to the project named beside it', async () => {
    const lib = await newLibrary('Ownership');
    const sofa = await demoLine('Three-seat sofa');
    const other = await owner.projects.createStudioProject.mutate({ name: 'Other job', commandKey: uuid() });
    expect(await codeOf(addProduct({ libraryId: lib.id, fromLine: { projectId: other.id, lineId: sofa.id } }))).toBe(
      'NOT_FOUND',
    );
    expect(
      await codeOf(
        addProduct({ libraryId: lib.id, fromLine: { projectId: app.projectId, lineId: '0000000000000000000000000b' } }),
      ),
    ).toBe('NOT_FOUND');
    expect(await codeOf(addProduct({ libraryId: '0000000000000000000000000l', heading: 'Nowhere' }))).toBe('NOT_FOUND');
  });

  it('refuses an archived supplier for a product, as lines do', async () => {
    const lib = await newLibrary('Supplier rule');
    const s = await owner.suppliers.createSupplier.mutate({ name: 'Gone Lamps', commandKey: uuid() });
    await owner.suppliers.archiveSupplier.mutate({ supplierId: s.id, expectedVersion: 1 });
    expect(await codeOf(addProduct({ libraryId: lib.id, heading: 'Lamp', supplierId: s.id }))).toBe('ARCHIVED');
  });

  it('puts a product back on a schedule through create_schedule_line with its fields, over MCP', async () => {
    const lighting = (await owner.libraries.listLibraries.query({ q: 'Lighting we trust' })).items[0]!;
    const found = await callAction(mcp, 'list_library_products', { libraryId: lighting.id, q: 'globe' });
    const product = found.result.items[0];
    expect(product.heading).toBe('Opal globe pendant');
    const project = await owner.projects.getStudioProject.query({ projectId: app.projectId });
    const asInput = (f: { state: string; price: { amount4: string } | null }) =>
      f.price ? { state: f.state, amount4: f.price.amount4 } : { state: f.state };
    const made = await callAction(mcp, 'create_schedule_line', {
      projectId: app.projectId,
      sectionId: project.sections[1]!.id,
      heading: product.heading,
      description: product.description,
      supplierId: product.supplierId,
      brand: product.brand,
      productCode: product.productCode,
      url: product.url,
      finish: product.finish,
      dimensions: product.dimensions,
      leadTimeDays: product.leadTimeDays,
      tradePrice: asInput(product.tradePrice),
      retailPrice: asInput(product.retailPrice),
      commandKey: uuid(),
    });
    expect(made.result).toMatchObject({
      heading: 'Opal globe pendant',
      supplierName: 'Lumen House',
      productCode: 'LM-GLOBE-300',
      tradePrice: product.tradePrice,
      retailPrice: product.retailPrice,
      status: 'draft',
    });
  });
});

describe('list_library_products', () => {
  it("searches one library or every active library's products, by text, supplier and sort, paging without repeats", async () => {
    const lighting = (await owner.libraries.listLibraries.query({ q: 'Lighting we trust' })).items[0]!;
    const inLighting = await owner.libraries.listLibraryProducts.query({ libraryId: lighting.id });
    const headings = inLighting.items.map((p) => p.heading);
    expect(headings).toEqual([...headings].sort((a, b) => a.localeCompare(b)));
    expect(headings).toHaveLength(4);
    // q matches the supplier's name too, across libraries.
    const lumen = await owner.libraries.listLibraryProducts.query({ q: 'lumen house' });
    expect(lumen.items.length).toBeGreaterThanOrEqual(4);
    const supplierId = inLighting.items[0]!.supplierId!;
    const bySupplier = await owner.libraries.listLibraryProducts.query({ supplierId });
    expect(bySupplier.items.every((p) => p.supplierId === supplierId)).toBe(true);
    const paged = await allPages((cursor) =>
      owner.libraries.listLibraryProducts.query({ libraryId: lighting.id, limit: 3, sort: '-heading', cursor }),
    );
    expect(paged.map((p) => p.heading)).toEqual([...headings].reverse());
  });
});

describe('update_library_product and remove_library_product', () => {
  it('patches a product, checks its version and audits the change', async () => {
    const lib = await newLibrary('Edits');
    const p = await addProduct({ libraryId: lib.id, heading: 'Brass hook', brand: 'Hook & Co' });
    const updated = await owner.libraries.updateLibraryProduct.mutate({
      productId: p.id,
      expectedVersion: 1,
      brand: null,
      tradePrice: { state: 'set', amount4: '125000' },
    });
    expect(updated).toMatchObject({
      brand: null,
      heading: 'Brass hook',
      version: 2,
      tradePrice: { state: 'set', price: { amount4: '125000', currency: 'GBP' } },
    });
    expect(
      await codeOf(owner.libraries.updateLibraryProduct.mutate({ productId: p.id, expectedVersion: 1, url: null })),
    ).toBe('VERSION_CONFLICT');
    expect(await codeOf(owner.libraries.updateLibraryProduct.mutate({ productId: p.id, expectedVersion: 2 }))).toBe(
      'VALIDATION_FAILED',
    );
    const events = await owner.audit.listStudioAuditEvents.query({ targetKind: 'library_product' });
    const edit = events.items.find((e) => e.target.id === p.id && e.action === 'update_library_product');
    expect(edit?.changes).toMatchObject({
      brand: { from: 'Hook & Co', to: null },
      tradePrice: { from: { state: 'tbc', price: null }, to: { state: 'set' } },
    });
  });

  it('removes a product by archiving it, once; a removed product does not change', async () => {
    const lib = await newLibrary('Removals');
    const p = await addProduct({ libraryId: lib.id, heading: 'Discontinued sconce' });
    const removed = await owner.libraries.removeLibraryProduct.mutate({ productId: p.id, expectedVersion: 1 });
    expect(removed.version).toBe(2);
    expect(removed.archived_at).not.toBeNull();
    expect(await codeOf(owner.libraries.removeLibraryProduct.mutate({ productId: p.id, expectedVersion: 2 }))).toBe(
      'ALREADY_ARCHIVED',
    );
    expect(
      await codeOf(owner.libraries.updateLibraryProduct.mutate({ productId: p.id, expectedVersion: 2, heading: 'Y' })),
    ).toBe('ARCHIVED');
    expect((await owner.libraries.listLibraryProducts.query({ libraryId: lib.id })).items).toEqual([]);
    expect(
      (await owner.libraries.listLibraryProducts.query({ libraryId: lib.id, archived: 'only' })).items.map((x) => x.id),
    ).toEqual([p.id]);
    expect((await owner.libraries.getLibrary.query({ libraryId: lib.id })).productCount).toBe(0);
  });
});

describe('pricing and permissions', () => {
  it('never shows an assistant (no pricing:read) a trade price, over tRPC or MCP, and refuses them setting one', async () => {
    const lighting = (await owner.libraries.listLibraries.query({ q: 'Lighting we trust' })).items[0]!;
    const assistant = trpc(app.url, members.assistant.token);
    const listed = await assistant.libraries.listLibraryProducts.query({ libraryId: lighting.id });
    expect(listed.items.length).toBe(4);
    for (const p of listed.items) {
      expect(p).not.toHaveProperty('tradePrice');
      expect(p.retailPrice.state).toBe('set');
    }
    const viaMcp = await callAction(await app.mcp(members.assistant.token), 'list_library_products', {
      libraryId: lighting.id,
    });
    expect(JSON.stringify(viaMcp.result)).not.toContain('tradePrice');
    const product = listed.items[0]!;
    expect(
      await codeOf(
        assistant.libraries.updateLibraryProduct.mutate({
          productId: product.id,
          expectedVersion: product.version,
          tradePrice: { state: 'set', amount4: '1' },
        }),
      ),
    ).toBe('FORBIDDEN');
    expect(
      await codeOf(
        assistant.libraries.addLibraryProduct.mutate({
          libraryId: lighting.id,
          heading: 'Cheap lamp',
          tradePrice: { state: 'set', amount4: '1' },
          commandKey: uuid(),
        }),
      ),
    ).toBe('FORBIDDEN');
    const unchanged = await owner.libraries.listLibraryProducts.query({ libraryId: lighting.id });
    expect(unchanged.items.find((p) => p.id === product.id)).toMatchObject({ version: product.version });
  });

  it('lets a designer (reference:write, pricing:write) keep products; a viewer and an assistant only read', async () => {
    const designer = trpc(app.url, members.designer.token);
    const lib = await designer.libraries.createLibrary.mutate({ name: 'Designer picks', commandKey: uuid() });
    const p = await designer.libraries.addLibraryProduct.mutate({
      libraryId: lib.id,
      heading: 'Cane chair',
      tradePrice: { state: 'set', amount4: '2100000' },
      commandKey: uuid(),
    });
    expect(p.tradePrice).toMatchObject({ state: 'set' });
    const asViewer = await app.mcp(members.viewer.token);
    expect((await callAction(asViewer, 'get_library', { libraryId: lib.id })).result.name).toBe('Designer picks');
    for (const [name, input] of [
      ['create_library', { name: 'Nope', commandKey: uuid() }],
      ['update_library', { libraryId: lib.id, expectedVersion: 1, name: 'Nope' }],
      ['archive_library', { libraryId: lib.id, expectedVersion: 1 }],
      ['add_library_product', { libraryId: lib.id, heading: 'Nope', commandKey: uuid() }],
      ['remove_library_product', { productId: p.id, expectedVersion: 1 }],
    ] as const) {
      expect((await callAction(asViewer, name, input)).code, name).toBe('FORBIDDEN');
    }
    const assistant = trpc(app.url, members.assistant.token);
    expect(await codeOf(assistant.libraries.createLibrary.mutate({ name: 'Nope', commandKey: uuid() }))).toBe(
      'FORBIDDEN',
    );
  });
});

describe('another studio', () => {
  it('its libraries, products and lines are NOT_FOUND wherever an input names them', async () => {
    const { them } = await studioOfTheirOwn(app, owner);
    const theirLibrary = await them.libraries.createLibrary.mutate({ name: 'Their lamps', commandKey: uuid() });
    const theirProduct = await them.libraries.addLibraryProduct.mutate({
      libraryId: theirLibrary.id,
      heading: 'Their lamp',
      commandKey: uuid(),
    });
    const { project: theirProject, line: theirLine } = await projectWithLine(them);
    expect(await codeOf(owner.libraries.getLibrary.query({ libraryId: theirLibrary.id }))).toBe('NOT_FOUND');
    expect(await codeOf(owner.libraries.listLibraryProducts.query({ libraryId: theirLibrary.id }))).toBe('NOT_FOUND');
    expect(
      await codeOf(
        owner.libraries.updateLibraryProduct.mutate({
          productId: theirProduct.id,
          expectedVersion: 1,
          heading: 'Mine',
        }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(owner.libraries.removeLibraryProduct.mutate({ productId: theirProduct.id, expectedVersion: 1 })),
    ).toBe('NOT_FOUND');
    const mine = await newLibrary('Mine');
    expect(
      await codeOf(addProduct({ libraryId: mine.id, fromLine: { projectId: theirProject.id, lineId: theirLine.id } })),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(addProduct({ libraryId: mine.id, fromLine: { projectId: app.projectId, lineId: theirLine.id } })),
    ).toBe('NOT_FOUND');
    // Their product is untouched and ours do not show theirs.
    expect((await them.libraries.listLibraryProducts.query({})).items.map((p) => p.id)).toEqual([theirProduct.id]);
    expect((await owner.libraries.listLibraryProducts.query({ q: 'Their lamp' })).items).toEqual([]);
  });
});
