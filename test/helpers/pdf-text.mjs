/**
 * Prints the text of the PDF named by the first argument, page by page, each page ended by a form feed (as pdftotext
 * does). A separate process so test/helpers/pdf.ts can read a PDF synchronously; pdf.js (pdfjs-dist, Apache-2.0) reads
 * it in Node without a canvas. Lines are rebuilt from the text's positions: runs on one baseline, left to right, with a
 * space where a gap separates them, so words a person reads together stay together.
 */
import { readFileSync } from 'node:fs';
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

const data = new Uint8Array(readFileSync(process.argv[2]));
const pdf = await getDocument({ data, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
let out = '';
for (let n = 1; n <= pdf.numPages; n++) {
  const page = await pdf.getPage(n);
  out += `${pageText((await page.getTextContent()).items)}\f`;
}
await pdf.destroy();
process.stdout.write(out);
