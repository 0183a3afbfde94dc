/**
 * A worker thread reading the text of PDFs for test/helpers/pdf.ts, page by page, with pdf.js (pdfjs-dist, Apache-2.0),
 * which reads a PDF in Node without a canvas. Each request names a file, a port for the answer and a shared word the
 * worker sets when the answer is there: the test thread waits on that word, so its read is synchronous, and the worker
 * stays up with pdf.js loaded, so a read takes milliseconds rather than a process start. Lines are rebuilt from the
 * text's positions: runs on one baseline, left to right, with a space where a gap separates them, so words a person
 * reads together stay together.
 */
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** Runs whose baselines are this close, in points, are one line. */
const SAME_LINE = 2;

function pageText(items) {
  const runs = items
    .filter((item) => 'str' in item && item.str !== '')
    .map((item) => ({
      text: item.str,
      x: item.transform[4],
      y: item.transform[5],
      width: item.width,
      size: Math.hypot(item.transform[2], item.transform[3]),
    }))
    .sort((a, b) => b.y - a.y || a.x - b.x);
  const lines = [];
  for (const run of runs) {
    const line = lines.at(-1);
    if (line && Math.abs(line.y - run.y) <= SAME_LINE) line.runs.push(run);
    else lines.push({ y: run.y, runs: [run] });
  }
  return lines
    .map(({ runs: onLine }) => {
      onLine.sort((a, b) => a.x - b.x);
      let text = '';
      let end = Number.NEGATIVE_INFINITY;
      for (const run of onLine) {
        if (text !== '' && run.x - end > run.size * 0.1 && !text.endsWith(' ') && !run.text.startsWith(' '))
          text += ' ';
        text += run.text;
        end = run.x + run.width;
      }
      return `${text.trimEnd()}\n`;
    })
    .join('');
}

async function pdfPages(path) {
  const data = new Uint8Array(readFileSync(path));
  const pdf = await getDocument({ data, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const pages = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      pages.push(pageText((await page.getTextContent()).items));
    }
    return pages;
  } finally {
    await pdf.destroy();
  }
}

parentPort.on('message', async ({ path, port, done }) => {
  try {
    port.postMessage({ pages: await pdfPages(path) });
  } catch (err) {
    port.postMessage({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
  Atomics.store(done, 0, 1);
  Atomics.notify(done, 0);
});
