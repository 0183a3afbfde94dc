import { performance } from 'node:perf_hooks';
import type { ResultPage } from '../../src/surfaces/result-pages/paging.js';
import { reassemble } from '../../test/mcp/reassemble.js';
import { request } from './api.js';

export interface AgentPagingFigures {
  lines: number;
  pages: number;
  passes: number;
  ms: { median: number; min: number; max: number };
}

/**
 * Reads a large list_lines through `GET /api/agent-results` to its end, as an agent over HTTP does: the first page,
 * then every node and nextOffset the pages name, with the snapshot of the first. Each pass is checked against the
 * REST body, byte for byte, so a fast but wrong answer fails the bench.
 */
export async function measureAgentResultsPaging(
  s: { url: string; token: string },
  projectId: string,
  expectedLines: number,
  passes: number,
): Promise<AgentPagingFigures> {
  // The whole list in one read (a list answers 500 lines unless asked for more).
  const rest = await request(s.url, 'GET', `/v1/projects/${projectId}/items?limit=${expectedLines}`, {
    token: s.token,
  });
  if (rest.status !== 200) throw new Error(`list for comparison: ${rest.status}`);
  const input = encodeURIComponent(JSON.stringify({ projectId, limit: expectedLines }));
  let pages = 0;
  const pass = async () => {
    let snapshot: string | undefined;
    let n = 0;
    const started = performance.now();
    const whole = await reassemble(async (path, offset) => {
      n++;
      const selection = encodeURIComponent(
        JSON.stringify({ ...(snapshot ? { snapshot } : {}), ...(path ? { path } : {}), offset }),
      );
      const res = await request(
        s.url,
        'GET',
        `/api/agent-results?name=list_lines&input=${input}&selection=${selection}`,
        {
          token: s.token,
        },
      );
      const body = JSON.parse(res.text) as { result_page?: ResultPage };
      if (res.status !== 200 || !body.result_page)
        throw new Error(`agent-results: ${res.status} ${res.text.slice(0, 300)}`);
      snapshot = body.result_page.snapshot;
      return body.result_page;
    });
    const ms = performance.now() - started;
    const items = (whole as { items: unknown[] }).items;
    if (items.length !== expectedLines) throw new Error(`paging: ${items.length} items, expected ${expectedLines}`);
    if (JSON.stringify(whole) !== rest.text)
      throw new Error('paging: the reassembled result differs from the REST body');
    pages = n;
    return ms;
  };
  await pass(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < passes; i++) times.push(await pass());
  times.sort((a, b) => a - b);
  return {
    lines: expectedLines,
    pages,
    passes,
    ms: { median: times[Math.floor(times.length / 2)]!, min: times[0]!, max: times.at(-1)! },
  };
}
