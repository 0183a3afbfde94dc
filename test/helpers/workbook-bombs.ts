import { constants, crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

/**
 * Hostile workbooks, made at run time: a ZIP written by hand (so an entry can declare a size it does not have) around
 * the parts of an .xlsx, where a part may unpack to gigabytes. A huge part is the classic deflate bomb: one unit
 * compressed once, ending on a byte boundary (a sync flush), then repeated; each copy only refers back into itself,
 * so N copies inflate to N units. 2 GiB of spaces is about 2 MB of ZIP.
 */

/** A part already deflated, with what it unpacks to. */
export interface Deflated {
  raw: Buffer;
  /** Bytes it inflates to. */
  size: number;
  crc: number;
}

export interface ZipPart {
  name: string;
  /** Deflated here, or given deflated. */
  content: string | Buffer | Deflated;
  /** The uncompressed size the ZIP declares, when it lies. */
  declaredSize?: number;
}

const isDeflated = (c: ZipPart['content']): c is Deflated => typeof c === 'object' && 'raw' in c;

/** `prefix`, `unit` `times` times, then `suffix`, deflated as a bomb is. */
export function deflatedRepeat(prefix: string, unit: string | Buffer, times: number, suffix: string): Deflated {
  const unitBytes = Buffer.from(unit);
  const sync = { finishFlush: constants.Z_SYNC_FLUSH };
  const head = deflateRawSync(Buffer.from(prefix), sync);
  const body = deflateRawSync(unitBytes, sync);
  const tail = deflateRawSync(Buffer.from(suffix));
  let crc = crc32(prefix);
  for (let i = 0; i < times; i++) crc = crc32(unitBytes, crc);
  crc = crc32(suffix, crc);
  const raw = Buffer.concat([head, ...Array.from({ length: times }, () => body), tail]);
  return { raw, size: Buffer.byteLength(prefix) + unitBytes.length * times + Buffer.byteLength(suffix), crc };
}

/** Text made piece by piece (too large to hold as one string), deflated as it is made. */
export async function deflatedPieces(pieces: Iterable<string>): Promise<Deflated> {
  const deflate = createDeflateRaw();
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  let size = 0;
  let crc = 0;
  let batch = '';
  const flush = async () => {
    const bytes = Buffer.from(batch);
    batch = '';
    size += bytes.length;
    crc = crc32(bytes, crc);
    if (!deflate.write(bytes)) await new Promise((r) => deflate.once('drain', r));
  };
  for (const piece of pieces) {
    batch += piece;
    if (batch.length > 1 << 20) await flush();
  }
  await flush();
  deflate.end();
  await ended;
  return { raw: Buffer.concat(out), size, crc };
}

/** A ZIP of `parts`, each deflated, with a central directory; sizes as declared (honestly unless told otherwise). */
export function zipOf(parts: readonly ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const deflated: Deflated = isDeflated(part.content)
      ? part.content
      : (() => {
          const bytes = Buffer.from(part.content);
          return { raw: deflateRawSync(bytes), size: bytes.length, crc: crc32(bytes) };
        })();
    const name = Buffer.from(part.name);
    const size = part.declaredSize ?? deflated.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(deflated.crc >>> 0, 14);
    local.writeUInt32LE(deflated.raw.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, deflated.raw);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4); // made by
    entry.writeUInt16LE(20, 6); // needed
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(deflated.crc >>> 0, 16);
    entry.writeUInt32LE(deflated.raw.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += local.length + name.length + deflated.raw.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOC_RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A sheet's XML around `rows` (the inside of sheetData), and `before` anything between the root and sheetData. */
export const sheetXml = (rows: string, before = '') =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN}" xmlns:r="${DOC_RELS}">${before}<sheetData>${rows}</sheetData></worksheet>`;

/** One row of inline-string cells, from column A. */
export const inlineRow = (r: number, cells: readonly string[]) =>
  `<row r="${r}">${cells.map((text, i) => `<c r="${String.fromCharCode(65 + i)}${r}" t="inlineStr"><is><t>${text}</t></is></c>`).join('')}</row>`;

/**
 * An .xlsx of one sheet "Schedule": the package's parts, then the shared strings (when given), then the sheet, in the
 * order a streaming reader meets them with everything it needs before the sheet.
 */
export function workbookOf(
  sheet: ZipPart['content'],
  opts: { sharedStrings?: ZipPart['content']; sheetDeclaredSize?: number } = {},
): Buffer {
  const shared = opts.sharedStrings !== undefined;
  return zipOf([
    {
      name: '[Content_Types].xml',
      content: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>${shared ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' : ''}</Types>`,
    },
    {
      name: '_rels/.rels',
      content: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      content: `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${DOC_RELS}"><sheets><sheet name="Schedule" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      content: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC_RELS}/worksheet" Target="worksheets/sheet1.xml"/>${shared ? `<Relationship Id="rId2" Type="${DOC_RELS}/sharedStrings" Target="sharedStrings.xml"/>` : ''}</Relationships>`,
    },
    ...(shared ? [{ name: 'xl/sharedStrings.xml', content: opts.sharedStrings! }] : []),
    {
      name: 'xl/worksheets/sheet1.xml',
      content: sheet,
      ...(opts.sheetDeclaredSize !== undefined ? { declaredSize: opts.sheetDeclaredSize } : {}),
    },
  ]);
}

/** Shared strings holding `strings` (each the inside of its <t>). */
export const sharedStringsXml = (strings: readonly string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`;

/** The start and end of a shared-strings part whose one string is put between them. */
export const ONE_SHARED_STRING = {
  prefix: `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}" count="1" uniqueCount="1"><si><t>`,
  suffix: '</t></si></sst>',
};

/** The start and end of a sheet with a heading row and one line, whose rows (or whatever) are put between them. */
export const SHEET_AROUND = {
  prefix: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN}"><sheetData>${inlineRow(1, ['Item', 'Qty'])}${inlineRow(2, ['Stool', '3'])}`,
  suffix: '</sheetData></worksheet>',
};
