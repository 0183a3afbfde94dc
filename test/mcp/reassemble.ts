import type { PageEntry, ResultPage } from '../../src/surfaces/result-pages/paging.js';

/** Reads one page: of the node `path` (the root when undefined), from `offset`. */
export type FetchPage = (path: string | undefined, offset: number) => Promise<ResultPage> | ResultPage;

/** What reassembly reads of a page: a whole page, or a cut-off reference opened with its first entries. */
type Part = Pick<ResultPage, 'node' | 'type' | 'entries' | 'chunk' | 'value' | 'nextOffset'> & { offset: number };

/**
 * What a client does with result pages: follow nextOffset for the selected node and every cut-off `node`/`keyNode`
 * reference, and put the value back together. A reference that arrives opened (with `entries` and `nextOffset`) is
 * the first page of its node: its entries are used and its next page is read from its `nextOffset`. Written only from
 * the page format, never from the server's code.
 */
export async function reassemble(fetch: FetchPage, path?: string, budget = { pages: 100_000 }): Promise<unknown> {
  return assemble(fetch, await fetch(path, 0), budget);
}

async function assemble(fetch: FetchPage, first: Part, budget: { pages: number }): Promise<unknown> {
  let page = first;
  const next = async () => {
    if (--budget.pages < 0) throw new Error('too many pages: paging does not progress');
    const before = page.nextOffset!;
    page = await fetch(page.node, before);
    if (page.offset !== before) throw new Error(`page starts at ${page.offset}, asked ${before}`);
  };
  if (page.type === 'string') {
    let s = page.chunk!;
    while (page.nextOffset !== null) {
      await next();
      s += page.chunk!;
    }
    return s;
  }
  if (page.type !== 'object' && page.type !== 'array') return page.value;
  const out: unknown[] | Record<string, unknown> = page.type === 'array' ? [] : {};
  for (;;) {
    if (Array.isArray(out) && out.length !== page.offset)
      throw new Error(`a page from item ${page.offset} follows ${out.length} items`);
    for (const e of page.entries!) {
      const value = 'value' in e ? e.value : await cutValue(fetch, e, budget);
      if (Array.isArray(out)) {
        // Items are consecutive; a cut-off one names its position, which must agree.
        if (e.index !== undefined && e.index !== out.length)
          throw new Error(`item ${e.index} arrived at position ${out.length}`);
        out.push(value);
      } else {
        const key = e.keyNode !== undefined ? ((await reassemble(fetch, e.keyNode, budget)) as string) : e.key!;
        // defineProperty: a "__proto__" key is data, not the prototype.
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      }
    }
    if (page.nextOffset === null) return out;
    await next();
  }
}

/** A cut-off entry's value: from its opened first entries when it carries them, else read from its first page. */
function cutValue(fetch: FetchPage, e: PageEntry, budget: { pages: number }): Promise<unknown> {
  if (!e.entries) return reassemble(fetch, e.node!, budget);
  return assemble(
    fetch,
    { node: e.node!, type: e.type!, entries: e.entries, nextOffset: e.nextOffset ?? null, offset: 0 },
    budget,
  );
}
