import type { ResultPage } from '../../src/core/result-paging.js';

/** Reads one page: of the node `path` (the root when undefined), from `offset`. */
export type FetchPage = (path: string | undefined, offset: number) => Promise<ResultPage> | ResultPage;

/**
 * What a client does with result pages: follow nextOffset for the selected node and every cut-off `node`/`keyNode`
 * reference, and put the value back together. Written only from the page format, never from the server's code.
 */
export async function reassemble(fetch: FetchPage, path?: string, budget = { pages: 100_000 }): Promise<unknown> {
  let page = await fetch(path, 0);
  const next = async () => {
    if (--budget.pages < 0) throw new Error('too many pages: paging does not progress');
    page = await fetch(page.node, page.nextOffset!);
  };
  if (page.type === 'string') {
    let s = page.chunk!;
    while (page.nextOffset !== null) {
      const before = page.nextOffset;
      await next();
      if (page.offset !== before) throw new Error(`page starts at ${page.offset}, asked ${before}`);
      s += page.chunk!;
    }
    return s;
  }
  if (page.type !== 'object' && page.type !== 'array') return page.value;
  const out: unknown[] | Record<string, unknown> = page.type === 'array' ? [] : {};
  for (;;) {
    for (const e of page.entries!) {
      const value = 'value' in e ? e.value : await reassemble(fetch, e.node!, budget);
      if (Array.isArray(out)) {
        if (e.index !== out.length) throw new Error(`item ${e.index} arrived at position ${out.length}`);
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
