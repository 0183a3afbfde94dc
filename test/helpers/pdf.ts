/**
 * Reading a PDF the way a person would, with pdf.js from npm (pdfjs-dist): nothing from the operating system.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TEXT_SCRIPT = fileURLToPath(new URL('./pdf-text.mjs', import.meta.url));

/**
 * The text of a PDF, page by page: each line rebuilt from the runs on one baseline, left to right. Synchronous (pdf.js
 * runs in a child Node process), so a test reads a document in one expression.
 */
export function pdfText(path: string): string[] {
  const text = execFileSync(process.execPath, [TEXT_SCRIPT, path], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return text.split('\f').slice(0, -1);
}
