import http from 'node:http';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { deriveImage } from '../../src/files/images.js';
import { LONG_EDGE } from '../../src/domain/photographs/sizes.js';
import { createProjectWithLines, expectJson, request } from './api.js';
import { memoryOf, startStudio, type ServerProcess } from './processes.js';
import type { Check } from './report.js';

const log = (s: string) => process.stderr.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** A camera-like JPEG: noise compresses as badly as a real photograph does, so size and decoding cost are honest. */
const cameraJpeg = (width: number, height: number, quality: number) =>
  sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ quality })
    .toBuffer();

/** POSTs a file to a line as the HTTP upload does (the body is the file). */
function upload(s: ServerProcess, projectId: string, lineId: string, bytes: Buffer, type = 'image/jpeg') {
  return new Promise<number>((resolve, reject) => {
    const req = http.request(
      new URL(`/v1/projects/${projectId}/items/${lineId}/photographs?filename=bench.jpg`, s.url),
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${s.token}`,
          'content-type': type,
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
 * The client's side of issue 11: the client document of a 450-line project with a photograph on every line (p50 of
 * sequential reads), the display size of a 24-megapixel JPEG (the server's own function, in this process), and ten
 * concurrent 20 MB uploads to a fresh server, whose peak resident memory (VmHWM) is what counts.
 */
export async function measurePhotographs(
  s: ServerProcess,
  lines: number,
  runs: number,
): Promise<{ checks: Check[]; projectId: string }> {
  const { projectId, times, pictured, first } = await measureClientDocument(s, lines, runs);
  const { derive, big } = await measureDisplaySize();
  const { peak, elapsed } = await measureConcurrentUploads();
  const checks: Check[] = [
    {
      name: `client document, ${lines} lines with photographs, p50`,
      value: percentile(times, 50),
      unit: 'ms',
      target: { atMost: 50 },
      note: `${runs} sequential after 10 warm-up; p95 ${percentile(times, 95).toFixed(1)} ms; ${pictured} pieces with photographs, ${(first.text.length / 1024).toFixed(0)} KiB`,
    },
    {
      name: 'display size of a 24-megapixel JPEG',
      value: median(derive) / 1000,
      unit: 's',
      target: { atMost: 1.5 },
      note: `median of 3 (in process, the server's own function); original ${(big.length / 1e6).toFixed(1)} MB`,
    },
    {
      name: 'ten concurrent 20 MB uploads, server peak RSS',
      value: peak,
      unit: 'MB',
      target: { atMost: 350 },
      note: `a fresh server; all ten kept with display and thumbnail sizes in ${(elapsed / 1000).toFixed(1)} s`,
    },
  ];
  return { checks, projectId };
}

// The document is read with a photograph on every line, so its figure includes every piece's pictures.
async function measureClientDocument(s: ServerProcess, lines: number, runs: number) {
  log(`client document: a ${lines}-line project with a photograph on every line`);
  const fixture = await createProjectWithLines(s.url, s.token, 'Bench client document', lines);
  const small = await cameraJpeg(640, 480, 80);
  for (let i = 0; i < fixture.lines.length; i += 10) {
    const statuses = await Promise.all(
      fixture.lines.slice(i, i + 10).map((l) => upload(s, fixture.projectId, l.id, small)),
    );
    if (statuses.some((st) => st !== 201)) throw new Error(`photograph upload answered ${statuses.join(', ')}`);
  }
  await expectJson(
    request(s.url, 'POST', '/api/trpc/clientDocument.mintClientDocument', {
      token: s.token,
      body: { projectId: fixture.projectId, commandKey: crypto.randomUUID() },
    }),
    [200],
    'mint',
  );
  const path = `/v1/projects/${fixture.projectId}/client-document`;
  const once = async () => {
    const r = await request(s.url, 'GET', path, { token: s.token });
    if (r.status !== 200) throw new Error(`client document: ${r.status} ${r.text.slice(0, 200)}`);
    return r;
  };
  const first = await once();
  const pictured = (
    JSON.parse(first.text) as { sections: Array<{ pieces: Array<{ photographs: unknown[] }> }> }
  ).sections
    .flatMap((sec) => sec.pieces)
    .filter((p) => p.photographs.length).length;
  for (let i = 0; i < 10; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await once()).ms);
  times.sort((a, b) => a - b);
  return { projectId: fixture.projectId, times, pictured, first };
}

// The display size is made in this process by the server's own function: the figure is the work, not the transport.
async function measureDisplaySize() {
  log('display size of a 24-megapixel JPEG, in process, 1 + 3 runs');
  const big = await cameraJpeg(6000, 4000, 90);
  const { writeFile, mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = await mkdtemp(join(tmpdir(), 'bench-photo-'));
  try {
    const file = join(dir, 'big.jpg');
    await writeFile(file, big);
    await deriveImage(file, 0, { longEdge: LONG_EDGE.display, maxBytes: 1_000_000 });
    const derive: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await deriveImage(file, 0, { longEdge: LONG_EDGE.display, maxBytes: 1_000_000 });
      derive.push(performance.now() - t);
    }
    return { derive, big };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// A fresh server, so its peak resident memory (VmHWM) is the uploads' alone.
async function measureConcurrentUploads() {
  log('ten concurrent 20 MB uploads to a fresh server');
  let twenty = await cameraJpeg(6000, 4000, 98);
  if (twenty.length < 20e6) twenty = Buffer.concat([twenty, Buffer.alloc(20e6 - twenty.length)]); // trailing bytes after EOI
  const fresh = await startStudio();
  let peak = 0;
  let elapsed = 0;
  try {
    const target = await createProjectWithLines(fresh.url, fresh.token, 'Bench uploads', 10);
    const before = memoryOf(fresh.pid).rssMb;
    const t = performance.now();
    const statuses = await Promise.all(target.lines.map((l) => upload(fresh, target.projectId, l.id, twenty)));
    elapsed = performance.now() - t;
    if (statuses.some((st) => st !== 201)) throw new Error(`20 MB uploads answered ${statuses.join(', ')}`);
    peak = memoryOf(fresh.pid).peakMb;
    log(`  RSS before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, ${(elapsed / 1000).toFixed(1)} s`);
  } finally {
    await fresh.stop();
  }
  return { peak, elapsed };
}
