import { performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import { expectJson, request, type Reply } from './api.js';
import { memoryOf, startStudio, type ServerProcess } from './processes.js';
import type { Check } from './report.js';
import {
  deflatedPieces,
  deflatedRepeat,
  inlineRow,
  ONE_SHARED_STRING,
  SHEET_AROUND,
  sharedStringsXml,
  sheetXml,
  workbookOf,
} from '../../test/helpers/workbook-bombs.js';

/**
 * Issue 12's import figures: a studio's schedule spreadsheet taken from upload to a committed import over the real
 * server process's HTTP surfaces, as a script or an agent does it: the file POSTed to
 * `/files/projects/{projectId}/imports` (the body is the file, with an Idempotency-Key), `create_import` phase preview
 * (202, its Location polled until the preview's result names its previewId), phase commit by that previewId (202), and
 * the commit's operation polled until it succeeded. Each import goes into a fresh project, on a server of its own started
 * as a studio's runs (restarted after the first start that seeded the demo). The server's resident memory is sampled
 * from /proc while the 10,000-row commits run. Then issue 29's spreadsheet bombs on the same server (measureBombs): the
 * time each took to be refused and the server's RSS while it was.
 */

const log = (s: string) => process.stderr.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** How often the bench looks at an operation and at the server's memory. The server's Retry-After (1 s) is a
 * courtesy for clients that do not mind the wait; the figure here is the server's time, not a polling interval. */
const POLL_MS = 10;
const SAMPLE_MS = 20;

const CSV_TYPE = 'text/csv';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const HEADINGS = [
  'Room',
  'Item',
  'Brand',
  'Supplier',
  'Finish',
  'Dimensions',
  'Qty',
  'Net',
  'Sell',
  'Lead time',
  'Notes',
] as const;

const ROOMS = [
  'Entrance Hall',
  'Kitchen',
  'Dining Room',
  'Living Room',
  'Snug',
  'Study',
  'Principal Bedroom',
  'Principal Bathroom',
  'Guest Bedroom',
  'Guest Bathroom',
  "Children's Bedroom",
  'Boot Room',
  'Landing',
  'Garden Room',
];
const ITEMS = [
  ['Rise and fall pendant', 'Original BTC', 'Polished brass', 'Ø 300 mm'],
  ['Three-seat sofa', 'George Smith', 'Linen, natural', '2200 × 950 × 800 mm'],
  ['Oak dining table', 'Benchmark', 'Oiled oak', '2400 × 1000 × 740 mm'],
  ['Dining chair', 'Pinch', 'Ebonised ash', '480 × 520 × 800 mm'],
  ['Wall light', 'Davey Lighting', 'Weathered brass', '120 × 180 mm'],
  ['Curtains, interlined', 'Fermoie', 'Pattern Tobago', 'Drop 2600 mm'],
  ['Roman blind', 'Colefax and Fowler', 'Plain linen', '1200 × 1500 mm'],
  ['Bedside table', 'Vaughan', 'Painted, Hague Blue', '500 × 400 × 600 mm'],
  ['Freestanding bath', 'Drummonds', 'Cast iron, primed', '1700 × 750 mm'],
  ['Runner', 'Roger Oates', 'Wool, Ink', '4.5 m × 700 mm'],
  ['Armchair', 'Howard Chairs', 'Velvet, moss', '800 × 850 × 900 mm'],
  ['Table lamp', 'Pooky', 'Ribbed glass', 'H 550 mm'],
  ['Coffee table', 'Tom Faulkner', 'Bronze, glass top', '1200 × 600 × 400 mm'],
  ['Mirror', 'Rose Uniacke', 'Gilt', '900 × 1200 mm'],
  ['Wallpaper', 'de Gournay', 'Hand-painted silk', 'per roll'],
] as const;
const SUPPLIERS = [
  'Lumen House',
  'Pooky',
  'Howard Chairs',
  'Fermoie Trade',
  'Vaughan Designs',
  'Drummonds',
  'Roger Oates',
  'The Curtain Workroom',
  'Benchmark Furniture',
  'Pinch Design',
  'Tom Faulkner',
  'Davey Lighting',
];
const NOTES = [
  '',
  'Client to confirm finish on site.',
  'Sample requested; awaiting swatch.',
  'Deliver to site, first-floor access only.',
  'Matches the pair in the drawing room.',
  'Fitted by others.',
];

/** A deterministic generator, so the same file is measured every run. */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const money = (pence: number) =>
  `£${Math.floor(pence / 100).toLocaleString('en-GB')}.${String(pence % 100).padStart(2, '0')}`;

/**
 * A schedule as a studio keeps one: a title row and a blank row above the headings, rooms in groups (the room written
 * on a group's first row, and on the others half the time: the rest stay in the room above), no codes (the server
 * allocates them), prices as "£1,250.00" with some TBC and POA, an empty Sell (derived from Net) on some, quantities
 * with units ("2 no.", "1 pr"), lead times in weeks, days or ranges. Every row reads without an error, so the whole
 * file commits.
 */
export function scheduleRows(count: number, seed = 12): string[][] {
  const rnd = lcg(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const rows: string[][] = [['Harbour House: FF&E schedule, issue 3'], [], [...HEADINGS]];
  let room = '';
  let left = 0;
  for (let i = 0; i < count; i++) {
    // A new room every 5 to 44 rows: written on its first row, and on the others only half the time.
    const first = left === 0;
    if (first) {
      room = pick(ROOMS);
      left = 5 + Math.floor(rnd() * 40);
    }
    left -= 1;
    const [item, brand, finish, dims] = pick(ITEMS);
    const net = 2_000 + Math.floor(rnd() * 400_000);
    const r = rnd();
    const netText = r < 0.06 ? 'TBC' : r < 0.09 ? 'POA' : money(net);
    const s = rnd();
    const sellText = s < 0.2 ? '' : s < 0.25 ? 'TBC' : money(Math.round(net * 1.35));
    const l = rnd();
    const lead =
      l < 0.1 ? 'ex stock' : l < 0.5 ? `${2 + Math.floor(rnd() * 10)} weeks` : l < 0.8 ? '6-8 wks' : '10 days';
    const q = rnd();
    const qty = q < 0.7 ? String(1 + Math.floor(rnd() * 6)) : q < 0.85 ? '2 no.' : '1 pr';
    rows.push([
      first || rnd() < 0.5 ? room : '',
      `${item} ${i + 1}`,
      brand,
      pick(SUPPLIERS),
      finish,
      dims,
      qty,
      netText,
      sellText,
      lead,
      pick(NOTES),
    ]);
  }
  return rows;
}

const csvCell = (c: string) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);
export const toCsv = (rows: string[][]) => Buffer.from(`${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`);

/** The same rows as an Excel workbook, written by exceljs (as the server writes its exports; it reads with its own reader). */
export async function toXlsx(rows: string[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Schedule');
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

interface OperationBody {
  id: string;
  status: string;
  result?: Record<string, any>;
  problem?: unknown;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** Polls an operation's Location until it ends; fails unless it succeeded. */
async function follow(s: ServerProcess, location: string, what: string): Promise<OperationBody> {
  for (;;) {
    const { body } = await expectJson<OperationBody>(request(s.url, 'GET', location, { token: s.token }), [200], what);
    if (body.status === 'succeeded') return body;
    if (body.status === 'failed' || body.status === 'canceled')
      throw new Error(`${what}: ${body.status} ${JSON.stringify(body.problem ?? {}).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** create_import over /v1: 202 with Location, as the seed's one import resource answers. */
async function createImport(s: ServerProcess, projectId: string, body: Record<string, unknown>): Promise<string> {
  const r = await request(s.url, 'POST', `/v1/projects/${projectId}/imports`, {
    token: s.token,
    body,
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  if (r.status !== 202 || !r.headers.location)
    throw new Error(`create_import ${body.phase}: ${r.status} ${r.text.slice(0, 400)}`);
  return r.headers.location;
}

/** The upload's body is the file itself (the plain-HTTP route of upload_import_file). */
function upload(s: ServerProcess, projectId: string, file: Buffer, filename: string, type: string): Promise<Reply> {
  return request(s.url, 'POST', `/files/projects/${projectId}/imports?filename=${encodeURIComponent(filename)}`, {
    token: s.token,
    raw: file,
    headers: { 'content-type': type, 'idempotency-key': crypto.randomUUID() },
  });
}

export interface ImportRun {
  format: 'csv' | 'xlsx';
  rows: number;
  bytes: number;
  /** Upload to committed, as the client saw it. */
  totalMs: number;
  uploadMs: number;
  /** Preview accepted to its result read. */
  previewMs: number;
  /** Commit POSTed to its 202. */
  commitAcceptMs: number;
  /** Commit accepted to the operation seen succeeded. */
  commitMs: number;
  lines: number;
  sectionsCreated: number;
  suppliersCreated: number;
  rss?: { beforeMb: number; maxMb: number; samples: number };
}

/** One import, upload to committed, into a fresh project; `sampleRss` samples the server's RSS during the commit. */
export async function importOnce(
  s: ServerProcess,
  file: { bytes: Buffer; format: 'csv' | 'xlsx'; rows: number },
  sampleRss: boolean,
): Promise<ImportRun> {
  const { body: project } = await expectJson<{ id: string }>(
    request(s.url, 'POST', '/v1/projects', {
      token: s.token,
      body: { name: `Bench import ${file.rows} ${file.format}` },
      headers: { 'idempotency-key': crypto.randomUUID() },
    }),
    [201],
    'create project',
  );
  const projectId = project.id;
  const t0 = performance.now();
  const up = await upload(
    s,
    projectId,
    file.bytes,
    `schedule-${file.rows}.${file.format}`,
    file.format === 'csv' ? CSV_TYPE : XLSX_TYPE,
  );
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${up.text.slice(0, 400)}`);
  const importId = (JSON.parse(up.text) as { id: string }).id;
  const t1 = performance.now();
  const preview = await follow(
    s,
    await createImport(s, projectId, { phase: 'preview', importId }),
    'preview operation',
  );
  const counts = preview.result!.counts as { lines: number; errors: number };
  if (counts.lines !== file.rows || counts.errors !== 0)
    throw new Error(`preview: ${JSON.stringify(counts)} for ${file.rows} rows`);
  const t2 = performance.now();

  const rss = { beforeMb: memoryOf(s.pid).rssMb, maxMb: 0, samples: 0 };
  const sample = () => {
    rss.maxMb = Math.max(rss.maxMb, memoryOf(s.pid).rssMb);
    rss.samples += 1;
  };
  const sampler = sampleRss ? setInterval(sample, SAMPLE_MS) : undefined;
  let committed: OperationBody;
  let t3: number;
  try {
    if (sampleRss) sample();
    const location = await createImport(s, projectId, { phase: 'commit', previewId: preview.result!.previewId });
    t3 = performance.now();
    committed = await follow(s, location, 'commit operation');
    if (sampleRss) sample();
  } finally {
    clearInterval(sampler);
  }
  const t4 = performance.now();
  const result = committed.result as { lines: number; sectionsCreated: number; suppliersCreated: number };
  if (result.lines !== file.rows) throw new Error(`commit made ${result.lines} lines of ${file.rows}`);
  return {
    format: file.format,
    rows: file.rows,
    bytes: file.bytes.length,
    totalMs: t4 - t0,
    uploadMs: t1 - t0,
    previewMs: t2 - t1,
    commitAcceptMs: t3 - t2,
    commitMs: t4 - t3,
    lines: result.lines,
    sectionsCreated: result.sectionsCreated,
    suppliersCreated: result.suppliersCreated,
    ...(sampleRss ? { rss } : {}),
  };
}

export interface BombRun {
  bomb: string;
  /** Files sent at once, and the bytes of each. */
  files: number;
  bytes: number;
  /** What each answered, and the slowest answer as the client saw it. */
  answers: string[];
  slowestMs: number;
  /** The server's RSS before, at its highest (sampled every SAMPLE_MS) and after. */
  rssBeforeMb: number;
  rssPeakMb: number;
  rssAfterMb: number;
}

export interface ImportFigures {
  runs: ImportRun[];
  /** Issue 29's spreadsheet bombs, each refused on the same server after the imports. */
  bombs: BombRun[];
  /** The measured server's RSS when it had started (a restart on the seeded database). */
  rssAtStartMb: number;
  /** The first start's, which seeded the demo in process, for comparison. */
  rssSeededMb: number;
  peakRssMb: number;
}

/**
 * Issue 29's spreadsheet bombs, made here as the attack test makes them (test/helpers/workbook-bombs.ts) and sent to
 * the import route of a fresh project: a shared string of 100 MB (a file of about 100 KB), five sheets of 2 GiB of
 * blank space at once (about 2 MB each), and 2,000,000 rows (about 10 MB). Each must be refused at once (413) with the
 * server's memory flat; RSS is sampled every SAMPLE_MS while each is answered.
 */
export async function measureBombs(s: ServerProcess): Promise<BombRun[]> {
  const MiB = 1024 * 1024;
  const { body: project } = await expectJson<{ id: string }>(
    request(s.url, 'POST', '/v1/projects', {
      token: s.token,
      body: { name: 'Bench bombs' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    }),
    [201],
    'create project',
  );
  const oneString = workbookOf(sheetXml(`${inlineRow(1, ['Item'])}<row r="2"><c r="A2" t="s"><v>0</v></c></row>`), {
    sharedStrings: deflatedRepeat(ONE_SHARED_STRING.prefix, 'a'.repeat(MiB), 100, ONE_SHARED_STRING.suffix),
  });
  const blank = workbookOf(deflatedRepeat(SHEET_AROUND.prefix, Buffer.alloc(MiB, 0x20), 2048, SHEET_AROUND.suffix));
  const rows = workbookOf(
    await deflatedPieces(
      (function* () {
        yield SHEET_AROUND.prefix;
        for (let r = 3; r <= 2_000_000; r++) yield `<row r="${r}"><c r="A${r}" t="s"><v>0</v></c></row>`;
        yield SHEET_AROUND.suffix;
      })(),
    ),
    { sharedStrings: sharedStringsXml(['Stool']) },
  );
  const bombs: Array<[string, Buffer[]]> = [
    ['one shared string of 100 MB', [oneString]],
    ['2 GiB of blank space, five at once', Array(5).fill(blank)],
    ['2,000,000 rows', [rows]],
  ];
  const out: BombRun[] = [];
  for (const [bomb, files] of bombs) {
    const before = memoryOf(s.pid).rssMb;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(s.pid).rssMb)), SAMPLE_MS);
    const answers: Array<{ status: number; code: string; ms: number }> = [];
    try {
      await Promise.all(
        files.map(async (file) => {
          const t0 = performance.now();
          const r = await upload(s, project.id, file, 'bomb.xlsx', XLSX_TYPE);
          const code = (JSON.parse(r.text) as { code?: string }).code ?? '';
          answers.push({ status: r.status, code, ms: performance.now() - t0 });
        }),
      );
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, memoryOf(s.pid).rssMb);
    const run: BombRun = {
      bomb,
      files: files.length,
      bytes: files[0]!.length,
      answers: answers.map((a) => `${a.status} ${a.code}`),
      slowestMs: Math.max(...answers.map((a) => a.ms)),
      rssBeforeMb: before,
      rssPeakMb: peak,
      rssAfterMb: memoryOf(s.pid).rssMb,
    };
    log(
      `  ${bomb}: ${run.answers.join(', ')} in at most ${run.slowestMs.toFixed(0)} ms; RSS ${before.toFixed(0)} → ${peak.toFixed(0)} → ${run.rssAfterMb.toFixed(0)} MB`,
    );
    out.push(run);
  }
  return out;
}

const SMALL = 450;
const LARGE = 10_000;

/**
 * The issue's figures on a server of their own: 450 rows (median of `smallRuns`, after an unmeasured warm-up import of each
 * format, since a running server has loaded its code) and 10,000 rows (`largeRuns` each, the best counted), in CSV
 * and XLSX, each upload to committed; RSS sampled during the 10,000-row commits.
 */
export async function measureImports(
  opts: { smallRuns?: number; largeRuns?: number } = {},
): Promise<{ checks: Check[]; figures: ImportFigures }> {
  const smallRuns = Math.max(1, opts.smallRuns ?? 5);
  const largeRuns = Math.max(1, opts.largeRuns ?? 1);
  log(`imports: making the schedules (${SMALL} and ${LARGE.toLocaleString('en-GB')} rows, CSV and XLSX)`);
  const small = scheduleRows(SMALL);
  const large = scheduleRows(LARGE);
  const files = {
    smallCsv: { bytes: toCsv(small), format: 'csv' as const, rows: SMALL },
    smallXlsx: { bytes: await toXlsx(small), format: 'xlsx' as const, rows: SMALL },
    largeCsv: { bytes: toCsv(large), format: 'csv' as const, rows: LARGE },
    largeXlsx: { bytes: await toXlsx(large), format: 'xlsx' as const, rows: LARGE },
  };
  // A studio's server as it runs after its first start: the first start seeds the demo studio (its photographs made
  // with sharp, whose memory stays with that process), so the server is started again on that database and measured.
  const seeded = await startStudio();
  const rssSeededMb = memoryOf(seeded.pid).rssMb;
  const s = await seeded.restart!();
  try {
    const rssAtStartMb = memoryOf(s.pid).rssMb;
    log('imports: warm-up, one 450-row import of each format');
    await importOnce(s, files.smallCsv, false);
    await importOnce(s, files.smallXlsx, false);
    const runs: ImportRun[] = [];
    for (const f of [files.smallCsv, files.smallXlsx]) {
      log(`imports: ${SMALL} rows ${f.format}, ${smallRuns} runs`);
      for (let i = 0; i < smallRuns; i++) runs.push(await importOnce(s, f, false));
    }
    for (const f of [files.largeCsv, files.largeXlsx]) {
      log(
        `imports: ${LARGE.toLocaleString('en-GB')} rows ${f.format}, ${largeRuns} run(s), RSS sampled every ${SAMPLE_MS} ms`,
      );
      for (let i = 0; i < largeRuns; i++) {
        const r = await importOnce(s, f, true);
        log(
          `  ${(r.totalMs / 1000).toFixed(2)} s (upload ${r.uploadMs.toFixed(0)}, preview ${r.previewMs.toFixed(0)}, commit ${r.commitMs.toFixed(0)} ms); RSS ${r.rss!.beforeMb.toFixed(0)} → max ${r.rss!.maxMb.toFixed(0)} MB`,
        );
        runs.push(r);
      }
    }
    // VmHWM before the bombs: the imports' own peak, not theirs.
    const peakRssMb = memoryOf(s.pid).peakMb;
    log('imports: the spreadsheet bombs of issue 29, each refused');
    const bombs = await measureBombs(s);
    const figures: ImportFigures = { runs, bombs, rssAtStartMb, rssSeededMb, peakRssMb };
    return { checks: importChecks(figures, smallRuns, largeRuns), figures };
  } finally {
    await s.stop();
  }
}

function importChecks(f: ImportFigures, smallRuns: number, largeRuns: number): Check[] {
  const of = (rows: number, format: string) => f.runs.filter((r) => r.rows === rows && r.format === format);
  const steps = (r: ImportRun) =>
    `upload ${r.uploadMs.toFixed(0)}, preview ${r.previewMs.toFixed(0)}, commit accepted ${r.commitAcceptMs.toFixed(0)}, commit ${r.commitMs.toFixed(0)} ms`;
  const checks: Check[] = [];
  for (const format of ['csv', 'xlsx'] as const) {
    const runs = of(SMALL, format);
    const mid = runs.find((r) => r.totalMs === median(runs.map((x) => x.totalMs)))!;
    checks.push({
      name: `import ${SMALL} rows ${format.toUpperCase()}, upload to committed`,
      value: mid.totalMs / 1000,
      unit: 's',
      target: { atMost: 0.3 },
      note: `median of ${smallRuns}; ${steps(mid)}; ${(mid.bytes / 1024).toFixed(0)} KiB`,
    });
  }
  for (const format of ['csv', 'xlsx'] as const) {
    const runs = of(LARGE, format);
    const best = runs.reduce((a, b) => (b.totalMs < a.totalMs ? b : a));
    checks.push({
      name: `import ${LARGE.toLocaleString('en-GB')} rows ${format.toUpperCase()}, upload to committed`,
      value: best.totalMs / 1000,
      unit: 's',
      target: { atMost: 5 },
      note: `${largeRuns > 1 ? `best of ${largeRuns}; ` : ''}${steps(best)}; ${(best.bytes / 1e6).toFixed(1)} MB, ${best.sectionsCreated} sections, ${best.suppliersCreated} suppliers made`,
    });
  }
  for (const format of ['csv', 'xlsx'] as const) {
    const runs = of(LARGE, format);
    const max = Math.max(...runs.map((r) => r.rss!.maxMb));
    checks.push({
      name: `server RSS during the ${LARGE.toLocaleString('en-GB')}-row ${format.toUpperCase()} commit`,
      value: max,
      unit: 'MB',
      target: { atMost: 300 },
      note: `most of ${runs.reduce((n, r) => n + r.rss!.samples, 0)} samples every ${SAMPLE_MS} ms, commit posted to succeeded; before it ${runs[0]!.rss!.beforeMb.toFixed(0)} MB; the server at ${f.rssAtStartMb.toFixed(0)} MB when started (restarted after the first start seeded the demo, which left that process at ${f.rssSeededMb.toFixed(0)} MB), peak (VmHWM) over every import ${f.peakRssMb.toFixed(0)} MB`,
    });
  }
  for (const b of f.bombs) {
    const size =
      b.bytes >= 1024 * 1024 ? `${(b.bytes / 1024 / 1024).toFixed(1)} MiB` : `${(b.bytes / 1024).toFixed(0)} KiB`;
    checks.push(
      {
        name: `workbook bomb refused: ${b.bomb}`,
        value: b.slowestMs / 1000,
        unit: 's',
        target: { atMost: 1 },
        note: `${b.files} × ${size}, answered ${b.answers.join(', ')}; slowest answer as the client saw it`,
      },
      {
        name: `server RSS growth during the bomb: ${b.bomb}`,
        value: b.rssPeakMb - b.rssBeforeMb,
        unit: 'MB',
        target: { atMost: 50 },
        note: `peak RSS ${b.rssPeakMb.toFixed(0)} MB (sampled every ${SAMPLE_MS} ms) minus ${b.rssBeforeMb.toFixed(0)} MB before; ${b.rssAfterMb.toFixed(0)} MB after`,
      },
    );
  }
  return checks;
}
