/**
 * Reading a PDF the way a person would, with pdf.js from npm (pdfjs-dist): its words in Node, its pages as pictures in
 * the test Chromium (test/helpers/browser.ts). Nothing from the operating system.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { launchBrowser } from './browser.js';

/**
 * The worker reading PDFs' text (test/helpers/pdf-text.mjs), started when this module is imported so pdf.js is loaded
 * while the test prepares its documents, and left to the process (unref).
 */
const reader = new Worker(new URL('./pdf-text.mjs', import.meta.url));
reader.unref();
/** Why the worker stopped, if it did (pdf.js failing to load): told by the next read rather than left unhandled. */
let readerFailure: Error | undefined;
reader.on('error', (err) => {
  readerFailure = err;
});

/** How long a read may take before the test is told, rather than waiting for ever. */
const READ_TIMEOUT_MS = 120_000;

/**
 * The text of a PDF, page by page: each line rebuilt from the runs on one baseline, left to right. Synchronous, so a
 * test reads a document in one expression: pdf.js runs in a worker thread with the module loaded, while this thread
 * waits the fraction of a second a read takes (a thread blocked for seconds would let the in-process server close a
 * keep-alive socket the client is about to reuse: ECONNRESET).
 */
export function pdfText(path: string): string[] {
  if (readerFailure) throw new Error(`The PDF text reader stopped: ${readerFailure.message}`);
  const done = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  try {
    reader.postMessage({ path, port: port2, done }, [port2]);
    if (Atomics.wait(done, 0, 0, READ_TIMEOUT_MS) === 'timed-out') {
      throw new Error(`Reading the text of ${path} took over ${READ_TIMEOUT_MS / 1000} s.`);
    }
    const reply = receiveMessageOnPort(port1)?.message as { pages?: string[]; error?: string } | undefined;
    if (!reply?.pages) throw new Error(`Reading the text of ${path} failed: ${reply?.error ?? 'no answer'}`);
    return reply.pages;
  } finally {
    port1.close();
  }
}

/** A made-up origin the browser never resolves: every request to it is answered from the PDF and pdf.js's files. */
const ORIGIN = 'http://pdf.invalid';

/** Draws every page into a canvas and answers each as a PNG data URL (runs in the page). */
const DRAW_PAGES = `(async (scale) => {
  const pdfjs = await import('/pdf.mjs');
  pdfjs.GlobalWorkerOptions.workerSrc = '/pdf.worker.mjs';
  const pdf = await pdfjs.getDocument('/document.pdf').promise;
  const pictures = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const viewport = page.getViewport({ scale });
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(viewport.width);
    canvas.height = Math.ceil(viewport.height);
    await page.render({ canvas, viewport }).promise;
    pictures.push(canvas.toDataURL('image/png'));
  }
  return pictures;
})`;

/** Each page of a PDF as a PNG, drawn by pdf.js in Chromium at `dpi` dots per inch (a page is 72 points per inch). */
export async function pdfPageImages(path: string, dpi: number): Promise<Buffer[]> {
  const build = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/build/pdf.mjs'));
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.route(`${ORIGIN}/**`, (route) => {
      const name = new URL(route.request().url()).pathname;
      if (name === '/document.pdf') return route.fulfill({ body: readFileSync(path), contentType: 'application/pdf' });
      if (name === '/pdf.mjs' || name === '/pdf.worker.mjs') {
        return route.fulfill({ path: join(build, name), contentType: 'text/javascript' });
      }
      return route.fulfill({ body: '<!doctype html><title>PDF</title>', contentType: 'text/html' });
    });
    await page.goto(`${ORIGIN}/`);
    const urls = await page.evaluate<string[]>(`${DRAW_PAGES}(${dpi / 72})`);
    return urls.map((url) => Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'));
  } finally {
    await browser.close();
  }
}
