import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { IMPORT_RECORD } from './record.js';
import type { ImportFormat } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import type { PrepareEnv } from '../../core/define-action.js';
import { ServiceError } from '../../core/errors.js';
import { newId, sha256 } from '../../core/ids.js';
import type { StagedBlob } from '../../files/blob-store.js';
import { readSpreadsheet, UnreadableSpreadsheet } from '../../files/spreadsheet/read.js';
import type { Row, SheetTable } from '../../files/spreadsheet/table.js';
import { findHeaderRow } from './headings.js';
import { dataRowCount, MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, MAX_KEPT_CELLS, ROWS_READ, tooManyRows } from './limits.js';
import { assertUploadRoom } from '../storage/quota.js';
import { getImport } from './records.js';

/** The types a spreadsheet is sent as. The bytes decide the format; a type outside these is refused as not a sheet. */
export const SPREADSHEET_TYPES = [
  'text/csv',
  'text/plain',
  'text/tab-separated-values',
  'application/csv',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/octet-stream',
] as const;

export interface UploadInput {
  data?: string | undefined;
  filename: string;
  mediaType: string;
  sheet?: string | undefined;
}

/** A file read and kept, ready for its record: what `prepare` hands the handler. */
export interface PreparedImportFile {
  sha256: string;
  byteSize: number;
  filename: string;
  mediaType: string;
  format: ImportFormat;
  encoding: string | null;
  delimiter: string | null;
  /** The sheet chosen for the import. */
  sheet: string;
  sheets: Array<{ name: string; rowCount: number; tooLarge: boolean; rows: Row[] | null }>;
}

/**
 * Before the write transaction: the base64 decoded (at most 24 MiB), the file read as a spreadsheet (its format from
 * its bytes), the sheet to import chosen (the one named, else the first with anything in it) and checked against the
 * row limit, so an oversized file is refused before any work is done on it; then the original is kept byte-exact in
 * the blob store under its SHA-256.
 */
export async function prepareImportFile(
  env: PrepareEnv,
  input: UploadInput,
  upload?: StagedBlob,
): Promise<PreparedImportFile> {
  const mediaType = input.mediaType.split(';')[0]!.trim().toLowerCase();
  if (!(SPREADSHEET_TYPES as readonly string[]).includes(mediaType)) {
    throw new ServiceError(
      'UNSUPPORTED_MEDIA_TYPE',
      `${input.mediaType.slice(0, 100)} is not a spreadsheet type; send a CSV file (text/csv) or an Excel workbook (application/vnd.openxmlformats-officedocument.spreadsheetml.sheet).`,
    );
  }
  // An HTTP upload arrives staged on disk (at most 24 MiB, its route's limit), and so does an MCP call's base64 read
  // out of its body as it arrived (held to the same 24 MiB here); tRPC's arrives base64 in the input.
  if (upload && upload.size > MAX_IMPORT_BYTES) throw tooLargeForBase64(upload.size);
  const bytes = upload ? await readFile(upload.path) : decodeBase64(input.data!);
  await assertUploadRoom(env, { size: bytes.length, sha256: upload?.sha256 ?? sha256(bytes) });
  const filename = cleanFilename(input.filename);
  let file: Awaited<ReturnType<typeof readSpreadsheet>>;
  try {
    file = await readSpreadsheet(bytes, { name: filename.replace(/\.[^.]{1,5}$/, ''), maxRows: ROWS_READ });
  } catch (err) {
    if (err instanceof UnreadableSpreadsheet) throw new ServiceError('IMPORT_UNREADABLE', err.message);
    throw err;
  }
  const chosen = chooseSheet(file.sheets, input.sheet);
  const staged =
    upload ?? (await env.files.stage(Readable.from([bytes]), MAX_IMPORT_BYTES, () => tooLargeForBase64(bytes.length)));
  await env.files.keep(staged);
  return {
    sha256: staged.sha256,
    byteSize: bytes.length,
    filename,
    mediaType,
    format: file.format,
    encoding: file.encoding ?? null,
    delimiter: file.delimiter ?? null,
    sheet: chosen.name,
    sheets: keptSheets(file.sheets, chosen),
  };
}

/** The sheet named (case and spaces aside), or the first with anything in it; refused when empty or too large. */
function chooseSheet(sheets: readonly SheetTable[], name: string | undefined): SheetTable {
  const filled = (s: SheetTable) => s.rows.some((r) => r.some((c) => c.trim() !== ''));
  const names = sheets.map((s) => `"${s.name}"`).join(', ');
  const sheet =
    name === undefined
      ? sheets.find(filled)
      : sheets.find((s) => s.name.trim().toLowerCase() === name.trim().toLowerCase());
  if (!sheet && name !== undefined) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `The workbook has no sheet "${name.slice(0, 100)}"; its sheets are ${names}.`,
      {
        errors: [{ path: 'sheet', message: `One of ${names}.` }],
      },
    );
  }
  if (!sheet || !filled(sheet)) {
    throw new ServiceError(
      'IMPORT_UNREADABLE',
      `${sheet ? `The sheet "${sheet.name}"` : 'The file'} is empty; send a spreadsheet with a row of headings and the schedule's rows below it.`,
    );
  }
  assertWithinLimit(sheet);
  return sheet;
}

/** Refuses a sheet with more rows below its headings than an import takes. */
export function assertWithinLimit(sheet: SheetTable) {
  if (sheet.truncated) throw tooManyRows(`The sheet "${sheet.name}"`, undefined, sheet.beyondRow);
  const rows = dataRowCount(sheet.rows, findHeaderRow(sheet.rows));
  if (rows > MAX_IMPORT_ROWS) throw tooManyRows(`The sheet "${sheet.name}"`, rows);
}

/** Every sheet's name and size; the cells of the chosen one, and of others while they fit within MAX_KEPT_CELLS. */
function keptSheets(sheets: readonly SheetTable[], chosen: SheetTable): PreparedImportFile['sheets'] {
  const cells = (s: SheetTable) => s.rows.reduce((n, r) => n + r.length, 0);
  let budget = MAX_KEPT_CELLS - cells(chosen);
  return sheets.map((s) => {
    const tooLarge = s.truncated;
    let keep = s === chosen;
    if (!keep && !tooLarge && cells(s) <= budget) {
      budget -= cells(s);
      keep = true;
    }
    return { name: s.name, rowCount: s.rows.length, tooLarge, rows: keep ? s.rows : null };
  });
}

function decodeBase64(data: string): Buffer {
  // A data: URL (what a browser or some agents produce) carries the same base64 after its comma.
  const text = data.replace(/^data:[^,]{0,200};base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) {
    throw new ServiceError('VALIDATION_FAILED', 'data is not base64; encode the file with standard base64.', {
      errors: [{ path: 'data', message: 'Not base64.' }],
    });
  }
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length > MAX_IMPORT_BYTES) throw tooLargeForBase64(bytes.length);
  if (!bytes.length) {
    throw new ServiceError('VALIDATION_FAILED', 'data is empty; send the spreadsheet file.', {
      errors: [{ path: 'data', message: 'Empty.' }],
    });
  }
  return bytes;
}

const tooLargeForBase64 = (size: number) =>
  new ServiceError(
    'PAYLOAD_TOO_LARGE',
    `The file is ${(size / 1048576).toFixed(1)} MiB; an import file is at most 24 MiB. Save the schedule without images or other sheets, or split it, and send it again.`,
  );

/** The name as people will see it: its last path part, no control characters, at most 200 characters. */
function cleanFilename(sent: string): string {
  const clean = basename(sent.replace(/\\/g, '/'))
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim()
    .slice(0, 200);
  return clean && clean !== '.' && clean !== '..' ? clean : 'schedule';
}

/**
 * Keeps pasted text (paste_schedule_lines) in the blob store for the worker that applies it, so the operation's own
 * record stays small; returns its SHA-256.
 */
export async function keepPastedText(env: PrepareEnv, text: string): Promise<string> {
  const bytes = Buffer.from(text, 'utf8');
  const staged = await env.files.stage(Readable.from([bytes]), bytes.length, () => tooLargeForBase64(bytes.length));
  await env.files.keep(staged);
  return staged.sha256;
}

/** The import's record, in the transaction: status uploaded, its sheets' cells kept for preview and commit. */
export async function recordUpload(ctx: ActionContext, projectId: string, file: PreparedImportFile) {
  const row = IMPORT_RECORD.newRow(
    {
      studioId: ctx.studioId,
      fileSha256: file.sha256,
      filename: file.filename,
      mediaType: file.mediaType,
      byteSize: file.byteSize,
      format: file.format,
      encoding: file.encoding,
      delimiter: file.delimiter,
      sheet: file.sheet,
      createdBy: ctx.caller!.memberId,
    },
    { id: newId(), ownerId: projectId, now: ctx.now },
  );
  await ctx.db.insertInto('imports').values(row).execute();
  for (const [i, sheet] of file.sheets.entries()) {
    await ctx.db
      .insertInto('import_sheets')
      .values({
        import_id: row.id,
        position: i + 1,
        name: sheet.name,
        row_count: sheet.rowCount,
        too_large: sheet.tooLarge ? 1 : 0,
        cells: sheet.rows ? JSON.stringify(sheet.rows) : null,
      })
      .execute();
  }
  ctx.audit({
    targetKind: 'import',
    targetId: row.id,
    projectId,
    summary: `Uploaded ${file.filename} for import`,
    changes: { created: { from: null, to: file.filename } },
  });
  return getImport(ctx, projectId, row.id);
}
