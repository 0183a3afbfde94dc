import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import sharp from 'sharp';
import { createProjectWithLines } from './api.js';
import { memoryOf, startStudio, type ServerProcess } from './processes.js';
import type { Check } from './report.js';

const log = (s: string) => process.stderr.write(`${s}\n`);

/** Runs a file tool over Streamable HTTP MCP with a progress token: answered when its operation has ended. */
async function runTool(s: ServerProcess, name: string, args: Record<string, unknown>) {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', s.url), {
      requestInit: { headers: { authorization: `Bearer ${s.token}` } },
    }),
  );
  try {
    const t = performance.now();
    const res = await client.callTool(
      { name: 'call_action', arguments: { name, arguments: { commandKey: crypto.randomUUID(), ...args } } },
      undefined,
      { onprogress: () => {}, timeout: 600_000 },
    );
    const op = (res.structuredContent as { result?: { status: string; result?: Record<string, unknown> } }).result;
    if (op?.status !== 'succeeded') throw new Error(`${name}: ${JSON.stringify(res.structuredContent).slice(0, 400)}`);
    return { ms: performance.now() - t, result: op.result! };
  } finally {
    await client.close();
  }
}

function upload(s: ServerProcess, projectId: string, lineId: string, bytes: Buffer) {
  return new Promise<number>((resolve, reject) => {
    const req = http.request(
      new URL(`/v1/projects/${projectId}/items/${lineId}/photographs?filename=bench.jpg`, s.url),
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${s.token}`,
          'content-type': 'image/jpeg',
          'content-length': String(bytes.length),
          'idempotency-key': crypto.randomUUID(),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(bytes);
  });
}

/**
 * Issue 12's document figures, through the real server's operation workers: the client-schedule PDF of a project of
 * `projectId` (450 pieces with photographs, minted), and a package of about 1 GB of photograph originals on a fresh
 * server, whose resident memory must not grow with the package.
 */
export async function measureDocuments(s: ServerProcess, projectId: string): Promise<Check[]> {
  log('client-schedule PDF of 450 pieces with photographs, through generate_document');
  const pdf = await runTool(s, 'generate_document', { projectId, kind: 'client_schedule' });

  log('a package of about 1 GB of photograph originals, on a fresh server');
  const fresh = await startStudio();
  let growth = 0;
  let packageMs = 0;
  let packageBytes = 0;
  try {
    const target = await createProjectWithLines(fresh.url, fresh.token, 'Bench package', 50);
    const twenty = await sharp({
      create: {
        width: 6000,
        height: 4000,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 98 })
      .toBuffer();
    for (const line of target.lines) {
      const status = await upload(fresh, target.projectId, line.id, twenty);
      if (status !== 201) throw new Error(`package upload answered ${status}`);
    }
    const before = memoryOf(fresh.pid).rssMb;
    const made = await runTool(fresh, 'create_project_package', { projectId: target.projectId });
    packageMs = made.ms;
    packageBytes = Number(made.result.byteSize);
    growth = memoryOf(fresh.pid).peakMb - before;
  } finally {
    await fresh.stop();
  }
  return [
    {
      name: 'client-schedule PDF, 450 pieces with photographs',
      value: pdf.ms / 1000,
      unit: 's',
      target: { atMost: 5 },
      note: `generate_document over MCP, answered when its operation ended; ${pdf.result.pageCount} pages, ${(Number(pdf.result.byteSize) / 1e6).toFixed(1)} MB`,
    },
    {
      name: `package of ${(packageBytes / 1e9).toFixed(2)} GB, server RSS growth`,
      value: growth,
      unit: 'MB',
      target: { atMost: 100 },
      note: `peak RSS during create_project_package minus RSS before it; ${(packageMs / 1000).toFixed(1)} s`,
    },
  ];
}
