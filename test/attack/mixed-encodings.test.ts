/**
 * A CSV mixing UTF-8 and Windows-1252 bytes (issue 29, item 7), as when rows pasted from two programs end up in one
 * file: read as Windows-1252 it would silently turn "Café chair" into "CafÃ© chair". It is refused, naming a line of
 * each, with what to do; a file wholly in one encoding still reads.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSpreadsheet } from '../../src/files/spreadsheet/read.js';
import { callTool } from '../helpers/calls.js';
import { createTestApp, type TestApp } from '../helpers/in-process.js';

let app: TestApp;
let mcp: Client;
beforeAll(async () => {
  app = await createTestApp();
  mcp = await app.mcp();
});
afterAll(async () => app?.close());

/** Line 1 in ASCII, line 2 in UTF-8 ("é" as C3 A9), line 3 in Windows-1252 ("£" as A3). */
const MIXED = Buffer.concat([
  Buffer.from('Item,Net\n', 'ascii'),
  Buffer.from('Café chair,95\n', 'utf8'),
  Buffer.from('Oak table,£120\n', 'latin1'),
]);

async function upload(bytes: Buffer) {
  const out = await callTool(mcp, 'call_action', {
    name: 'upload_import_file',
    arguments: {
      projectId: app.projectId,
      data: bytes.toString('base64'),
      filename: 'schedule.csv',
      mediaType: 'text/csv',
      commandKey: crypto.randomUUID(),
    },
  });
  return out.error ? out : { result: out.result.result };
}

describe('a CSV mixing UTF-8 and Windows-1252', () => {
  it('is refused as unreadable, naming a line of each and how to save it, not read as "CafÃ© chair"', async () => {
    const out = await upload(MIXED);
    expect(out.code, JSON.stringify(out)).toBe('IMPORT_UNREADABLE');
    const message = String(out.error?.message);
    expect(message).toMatch(/line 2/i);
    expect(message).toMatch(/line 3/i);
    expect(message).toContain('UTF-8');
    expect(message).toContain('Windows-1252');
    expect(message).not.toContain('Ã');
    await expect(readSpreadsheet(MIXED, { name: 'x', maxRows: 100 })).rejects.toMatchObject({
      message: expect.stringMatching(/CSV UTF-8/),
    });
  });

  it('either encoding alone still reads', async () => {
    const utf8 = await readSpreadsheet(Buffer.from('Item,Net\nCafé chair,£95\n', 'utf8'), { name: 'x', maxRows: 9 });
    expect(utf8.sheets[0]!.rows[1]).toEqual(['Café chair', '£95']);
    const cp1252 = await readSpreadsheet(Buffer.from('Item,Net\nCafé chair,£95\n', 'latin1'), {
      name: 'x',
      maxRows: 9,
    });
    expect(cp1252.encoding).toBe('windows-1252');
    expect(cp1252.sheets[0]!.rows[1]).toEqual(['Café chair', '£95']);
  });
});
