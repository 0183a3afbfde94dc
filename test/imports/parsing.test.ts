/**
 * Reading spreadsheets as studios keep them, without a store: the file formats (delimiters, byte order marks,
 * Windows-1252, XLSX numeric cells, formulas with cached results, merged heading rows, blank rows), exact numbers and
 * prices, value-state words, the other cells of a line, the headings a studio writes, and the plan's rows: heading
 * rows as sections, a room written once per group, totals rows, and every bad cell named by row and column.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readLeadTime, readMarkup, readQuantity, readStatus, readUrl } from '../../src/domain/imports/cells.js';
import { fieldForHeading, findHeaderRow, proposeMapping } from '../../src/domain/imports/headings.js';
import type { ImportLookups } from '../../src/domain/imports/lookups.js';
import { readNumber } from '../../src/domain/imports/numbers.js';
import { planImport } from '../../src/domain/imports/plan.js';
import { readPrice } from '../../src/domain/imports/prices.js';
import { detectDelimiter } from '../../src/files/spreadsheet/delimited.js';
import { readSpreadsheet } from '../../src/files/spreadsheet/read.js';
import { columnIndex, columnLetter } from '../../src/files/spreadsheet/table.js';
import { cellNumberText } from '../../src/files/spreadsheet/xlsx-numbers.js';
import { sharedStringsXml, sheetXml, workbookOf, zipOf } from '../helpers/workbook-bombs.js';

const read = (bytes: Buffer | string, maxRows = 100) => readSpreadsheet(Buffer.from(bytes), { name: 'sheet', maxRows });

describe('delimited text', () => {
  it.each([
    [',', 'Item,Qty,Net\nSofa,2,"1,250.00"\n'],
    [';', 'Item;Qty;Net\nSofa;2;1.250,00\n'],
    ['\t', 'Item\tQty\tNet\nSofa\t2\t1250\n'],
    ['|', 'Item|Qty|Net\nSofa|2|1250\n'],
  ])('finds the delimiter %j', async (delimiter, text) => {
    expect(detectDelimiter(text)).toBe(delimiter);
    const file = await read(text);
    expect(file).toMatchObject({ format: 'csv', delimiter, encoding: 'utf-8' });
    expect(file.sheets[0]!.rows[1]![0]).toBe('Sofa');
  });

  it('keeps quoted delimiters and line breaks in one cell, bare quotes as text, and blank rows for row numbers', async () => {
    const file = await read(
      'Item,Notes\r\n"Sofa, 3 seat","Two lines:\r\nfirst, second"\r\n\r\nCushion 12" square,ok\r\n',
    );
    expect(file.sheets[0]!.rows).toEqual([
      ['Item', 'Notes'],
      ['Sofa, 3 seat', 'Two lines:\nfirst, second'],
      [],
      ['Cushion 12" square', 'ok'],
    ]);
  });

  it('refuses a file whose quoted cell is never closed, naming its row', async () => {
    await expect(read('Item,Notes\nSofa,"open\nStool,ok\n')).rejects.toMatchObject({
      reason: 'damaged',
      message: expect.stringContaining('row 2'),
    });
  });

  it('reads UTF-8 with a BOM, UTF-16 (Excel "Unicode text") and Windows-1252 "£" and "é"', async () => {
    const bom = await read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Item,Net\nCafé table,£95\n')]));
    expect(bom.encoding).toBe('utf-8');
    expect(bom.sheets[0]!.rows[0]![0]).toBe('Item');
    expect(bom.sheets[0]!.rows[1]).toEqual(['Café table', '£95']);

    const utf16 = await read(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Item\tNet\r\nCafé\t£95\r\n', 'utf16le')]),
    );
    expect(utf16).toMatchObject({ encoding: 'utf-16le', delimiter: '\t' });
    expect(utf16.sheets[0]!.rows[1]).toEqual(['Café', '£95']);

    const cp1252 = await read(Buffer.from('Item,Net\nCafé table,£95\n', 'latin1'));
    expect(cp1252.encoding).toBe('windows-1252');
    expect(cp1252.sheets[0]!.rows[1]).toEqual(['Café table', '£95']);
  });

  it('stops at the row limit and says so; refuses .xls and binary files', async () => {
    const file = await read(`Item\n${'x\n'.repeat(10)}`, 5);
    expect(file.sheets[0]).toMatchObject({ truncated: true });
    expect(file.sheets[0]!.rows).toHaveLength(5);
    await expect(read(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0]))).rejects.toMatchObject({ reason: 'legacy-xls' });
    await expect(read(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]))).rejects.toMatchObject({
      reason: 'not-a-spreadsheet',
    });
    await expect(read(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))).rejects.toMatchObject({ reason: 'damaged' });
  });
});

describe('XLSX', () => {
  async function workbook(build: (wb: ExcelJS.Workbook) => void) {
    const wb = new ExcelJS.Workbook();
    build(wb);
    return read(Buffer.from(await wb.xlsx.writeBuffer()));
  }

  it('reads numeric cells as the exact decimals their author sees, never through a float product', async () => {
    const file = await workbook((wb) => {
      const ws = wb.addWorksheet('Prices');
      ws.addRow(['Item', 'Net', 'Sell', 'Markup', 'When', 'Made']);
      ws.addRow([
        'Pendant',
        1250.5,
        { formula: 'B2*1.35', result: 1250.5 * 1.35 },
        0.35,
        new Date(Date.UTC(2026, 2, 1)),
        'x',
      ]);
      ws.addRow([
        'Clips',
        { formula: '0.1+0.2', result: 0.1 + 0.2 },
        { formula: 'B3*3', result: 0.30000000000000004 * 3 },
      ]);
      ws.addRow(['Tiny', 1.5e-7, 1e21, { formula: 'B2/3' }]);
      ws.addRow(['Flag', true, { richText: [{ text: 'Rich ' }, { text: 'text' }] }, { error: '#REF!' }]);
      ws.getCell('D2').numFmt = '0%';
      ws.getCell('E2').numFmt = 'yyyy-mm-dd';
    });
    const rows = file.sheets[0]!.rows;
    expect(rows[1]).toEqual(['Pendant', '1250.5', '1688.175', '35%', '2026-03-01', 'x']);
    // =0.1+0.2 is stored as 0.30000000000000004; Excel's 15 digits show 0.3.
    expect(rows[2]).toEqual(['Clips', '0.3', '0.9']);
    // A formula saved without its result shows as the formula, so a person sees what is there.
    expect(rows[3]).toEqual(['Tiny', '0.00000015', '1000000000000000000000', '=B2/3']);
    expect(rows[4]).toEqual(['Flag', 'TRUE', 'Rich text', '#REF!']);
  });

  it('keeps blank rows, reads a merged heading row as its first cell only, and lists every sheet', async () => {
    const file = await workbook((wb) => {
      const ws = wb.addWorksheet('Schedule');
      ws.addRow(['Item', 'Qty']);
      ws.addRow([]);
      ws.addRow(['KITCHEN']);
      ws.mergeCells('A3:B3');
      ws.addRow(['Stool', 3]);
      wb.addWorksheet('Notes').addRow(['Prices ex VAT']);
    });
    expect(file.sheets.map((s) => s.name)).toEqual(['Schedule', 'Notes']);
    expect(file.sheets[0]!.rows).toEqual([['Item', 'Qty'], [], ['KITCHEN'], ['Stool', '3']]);
  });
});

describe('XLSX as other writers save it, and within its bounds', () => {
  const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
  const sheet = (rows: string, before = '') => workbookOf(sheetXml(rows, before));
  const rowsOf = async (file: Buffer) => (await read(file)).sheets[0]!.rows;

  it('joins rich text runs, leaves out a phonetic guide, and never splits a character across inflated chunks', async () => {
    // Each long cell starts at a different byte offset, so some 'é' falls across a 16 KiB chunk of the inflated sheet.
    const long = (n: number) => 'é'.repeat(9_000 + n);
    const file = workbookOf(
      sheetXml(
        `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>` +
          `<c r="C1" t="inlineStr"><is><r><t>In</t></r><r><rPr><b/></rPr><t>line</t></r></is></c></row>` +
          `<row r="2">${cell('A2', long(0))}${cell('B2', long(1))}${cell('C2', long(2))}${cell('D2', long(3))}</row>`,
      ),
      {
        sharedStrings:
          '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><r><t>Rich </t></r><r><rPr><i/></rPr><t>text</t></r></si>' +
          '<si><t>漢字</t><rPh sb="0" eb="2"><t>カンジ</t></rPh></si></sst>',
      },
    );
    const rows = await rowsOf(file);
    expect(rows[0]).toEqual(['Rich text', '漢字', 'Inline']);
    expect(rows[1]).toEqual([long(0), long(1), long(2), long(3)]);
  });

  it('numbers rows and cells the file leaves unnumbered, and reads elements under a namespace prefix', async () => {
    const file = workbookOf(
      '<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>' +
        '<x:row><x:c t="inlineStr"><x:is><x:t>Item</x:t></x:is></x:c><x:c><x:v>2</x:v></x:c></x:row>' +
        '<x:row r="4"><x:c r="B4"><x:v>7</x:v></x:c><x:c><x:v>8</x:v></x:c></x:row>' +
        '<x:row><x:c t="b"><x:v>1</x:v></x:c></x:row>' +
        '</x:sheetData></x:worksheet>',
    );
    expect(await rowsOf(file)).toEqual([['Item', '2'], [], [], ['', '7', '8'], ['TRUE']]);
  });

  it('reads dates in either date system, formula results in date and percent formats, and sheets in the workbook order', async () => {
    const workbook = (date1904: boolean) =>
      zipOf([
        {
          name: 'xl/workbook.xml',
          content: `<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">${date1904 ? '<workbookPr date1904="1"/>' : ''}<sheets><sheet name="Second" sheetId="2" r:id="rId2"/><sheet name="First" sheetId="1" r:id="rId1"/></sheets></workbook>`,
        },
        {
          name: 'xl/_rels/workbook.xml.rels',
          content:
            '<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
            '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/xl/worksheets/other.xml"/>' +
            '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
        },
        {
          name: 'xl/styles.xml',
          content:
            '<styleSheet><numFmts><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/></numFmts>' +
            '<cellStyleXfs><xf numFmtId="10"/></cellStyleXfs><cellXfs><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="9"/><xf numFmtId="14"/></cellXfs></styleSheet>',
        },
        { name: 'xl/worksheets/sheet1.xml', content: sheetXml(`<row r="1">${cell('A1', 'first')}</row>`) },
        {
          name: 'xl/worksheets/other.xml',
          content: sheetXml(
            '<row r="1"><c r="A1" s="1"><v>46082</v></c><c r="B1" s="3"><f>TODAY()</f><v>46082</v></c>' +
              '<c r="C1" s="2"><f>B2/4</f><v>0.35</v></c><c r="D1" s="0"><v>46082</v></c></row>',
          ),
        },
      ]);
    const in1900 = await read(workbook(false));
    expect(in1900.sheets.map((s) => s.name)).toEqual(['Second', 'First']);
    expect(in1900.sheets[0]!.rows[0]).toEqual(['2026-03-01', '2026-03-01', '35%', '46082']);
    expect(in1900.sheets[1]!.rows).toEqual([['first']]);
    expect((await read(workbook(true))).sheets[0]!.rows[0]!.slice(0, 2)).toEqual(['2030-03-02', '2030-03-02']);
  });

  it('reads no further than column 200: column widths out to 100,000,000 and a cell past column XFD cost nothing', async () => {
    const file = sheet(
      `<row r="1">${cell('A1', 'Item')}${cell('GR1', 'last read')}${cell('GS1', 'not read')}${cell('XFD1', 'x')}${cell('ZZZZZZZZ1', 'y')}</row>`,
      '<cols><col min="1" max="100000000" width="12" customWidth="1"/></cols>',
    );
    const row = (await rowsOf(file))[0]!;
    expect(row).toHaveLength(200);
    expect([row[0], row[199]]).toEqual(['Item', 'last read']);
  });

  it('takes a cell of 32,767 characters and refuses one longer, naming it, in a workbook and in CSV', async () => {
    const most = 'x'.repeat(32_767);
    expect(
      (await rowsOf(sheet(`<row r="1">${cell('A1', 'Item')}</row><row r="2">${cell('B2', most)}</row>`)))[1],
    ).toEqual(['', most]);
    const refused = { status: 413, code: 'PAYLOAD_TOO_LARGE', extra: { maxCellCharacters: 32_767 } };
    await expect(read(sheet(`<row r="2">${cell('B2', `${most}x`)}</row>`))).rejects.toMatchObject({
      ...refused,
      detail: expect.stringContaining('Cell B2 of the sheet "Schedule" holds more than 32,767 characters'),
    });
    // A shared string that long is refused where a cell uses it, and not where none does.
    const shared = (used: boolean) =>
      workbookOf(sheetXml(`<row r="1">${cell('A1', 'Item')}${used ? '<c r="C1" t="s"><v>0</v></c>' : ''}</row>`), {
        sharedStrings: sharedStringsXml([`${most}y`]),
      });
    await expect(read(shared(true))).rejects.toMatchObject({ ...refused, detail: expect.stringContaining('Cell C1') });
    expect(await rowsOf(shared(false))).toEqual([['Item']]);
    expect((await read(`Item,Notes\nStool,${most}\n`)).sheets[0]!.rows[1]![1]).toBe(most);
    await expect(read(`Item,Notes\nStool,${most}z\n`)).rejects.toMatchObject({
      ...refused,
      detail: expect.stringContaining('row 2, column B'),
    });
  });

  it('refuses what no workbook holds: a DTD, a tag of 64 KiB, a part larger than its ZIP says, a cut-off part', async () => {
    await expect(read(workbookOf(`<!DOCTYPE worksheet [<!ENTITY a "b">]>${sheetXml('')}`))).rejects.toMatchObject({
      reason: 'damaged',
    });
    await expect(read(sheet(`<row r="1" x="${'y'.repeat(70_000)}"/>`))).rejects.toMatchObject({ status: 413 });
    const rows = `<row r="1">${cell('A1', 'Item')}</row>`;
    await expect(read(workbookOf(sheetXml(rows), { sheetDeclaredSize: 20 }))).rejects.toMatchObject({
      reason: 'damaged',
    });
    await expect(read(sheet(rows).subarray(0, 600))).rejects.toMatchObject({ reason: 'damaged' });
    await expect(read(workbookOf(sheetXml(rows).slice(0, -20)))).rejects.toMatchObject({ reason: 'damaged' });
  });

  it('stops a sheet at the first row past the limit that holds anything, and says which', async () => {
    const file = sheet(
      `<row r="1">${cell('A1', 'Item')}</row><row r="150" ht="30"/><row r="160">${cell('A160', '')}</row><row r="170">${cell('C170', 'x')}</row><row r="180">${cell('A180', 'y')}</row>`,
    );
    expect((await read(file)).sheets[0]).toMatchObject({ truncated: true, beyondRow: 170 });
    expect((await read(file)).sheets[0]!.rows).toHaveLength(1);
  });
});

describe('numbers and prices', () => {
  it.each([
    [0.1 + 0.2, '0.3'],
    [1250.5, '1250.5'],
    [1500.6000000000001, '1500.6'],
    [-0.30000000000000004, '-0.3'],
    [416.8333333333333, '416.833333333333'],
    [99999.99999999999, '100000'],
    [123456789012345680, '123456789012346000'],
  ])('an XLSX number %s reads as %s', (n, text) => {
    expect(cellNumberText(n)).toBe(text);
  });

  it.each([
    ['£1,250.00', '12500000'],
    ['1250', '12500000'],
    ['1,250.5', '12505000'],
    ['1.250,50', '12505000'],
    ['1 250,50 €', undefined],
    ['1,250', '12500000'],
    ['12,5', '125000'],
    ['1.250', '12500'],
    ['1,250,000.25', '12500002500'],
    ['GBP 95', '950000'],
    ['95 GBP', '950000'],
    ['£95 + VAT', '950000'],
    ['.5', '5000'],
    ['0', '0'],
    ['free', '0'],
    ['FOC', '0'],
  ])('the price %j is exactly %s', (text, amount4) => {
    const p = readPrice(text, 'GBP');
    if (amount4 === undefined) {
      expect(p.ok).toBe(false);
      return;
    }
    expect(p).toEqual({ ok: true, price: { state: 'set', amount4 } });
  });

  it('reads "1.250,50 €" in a euro project, and the European separators by the stated rule', () => {
    expect(readPrice('1 250,50 €', 'EUR')).toEqual({ ok: true, price: { state: 'set', amount4: '12505000' } });
    expect(readNumber("1'250.50")).toEqual({ ok: true, decimal: '1250.50', negative: false });
    expect(readNumber('1.250.000')).toEqual({ ok: true, decimal: '1250000', negative: false });
    expect(readNumber('(5)')).toMatchObject({ ok: true, negative: true });
    expect(readNumber('1,25,0')).toEqual({ ok: false });
    expect(readNumber('1.2.3,4')).toEqual({ ok: false });
  });

  it.each([
    ['TBC', 'tbc'],
    ['t.b.c.', 'tbc'],
    ['To be confirmed', 'tbc'],
    ['', 'tbc'],
    ['-', 'tbc'],
    ['POA', 'poa'],
    ['P.O.A.', 'poa'],
    ['incl.', 'included'],
    ['Included', 'included'],
    ['inc', 'included'],
    ['by others', 'by_others'],
    ['By Others', 'by_others'],
    ['client supply', 'by_others'],
  ])('the word %j is the value state %s', (text, state) => {
    expect(readPrice(text, 'GBP')).toEqual({ ok: true, price: { state } });
  });

  it.each([
    ['-5', 'never negative'],
    ['(5.00)', 'never negative'],
    ['12.34567', 'more than four decimal places'],
    ['$40', 'priced in GBP'],
    ['€40', 'priced in GBP'],
    ['100000000000', 'at most'],
    ['about 40', 'not a price'],
    ['n/a', 'not a price'],
  ])('refuses the price %j with a reason (%s)', (text, reason) => {
    const p = readPrice(text, 'GBP');
    expect(p.ok).toBe(false);
    expect(p.ok ? '' : p.message).toContain(reason);
  });
});

describe('the other cells of a line', () => {
  it('reads quantities with their unit words', () => {
    expect(readQuantity('2')).toEqual({ ok: true, value: { amount4: '20000' } });
    expect(readQuantity('2.5 m')).toEqual({ ok: true, value: { amount4: '25000', unit: 'm' } });
    expect(readQuantity('1,000 no.')).toEqual({ ok: true, value: { amount4: '10000000', unit: 'no.' } });
    expect(readQuantity('x2')).toEqual({ ok: true, value: { amount4: '20000' } });
    expect(readQuantity('two').ok).toBe(false);
    expect(readQuantity('-1').ok).toBe(false);
    expect(readQuantity('1.23456').ok).toBe(false);
  });

  it('reads lead times in days, weeks and months, taking the longer end of a range', () => {
    expect(readLeadTime('6 weeks', 'Lead time')).toEqual({ ok: true, value: 42 });
    expect(readLeadTime('6-8 wks', 'Lead time')).toEqual({ ok: true, value: 56 });
    expect(readLeadTime('10 days', 'Lead time (weeks)')).toEqual({ ok: true, value: 10 });
    expect(readLeadTime('4', 'Lead time (weeks)')).toEqual({ ok: true, value: 28 });
    expect(readLeadTime('4', 'Lead time')).toEqual({ ok: true, value: 4 });
    expect(readLeadTime('2 months', 'Lead')).toEqual({ ok: true, value: 60 });
    expect(readLeadTime('Ex stock', 'Lead')).toEqual({ ok: true, value: 0 });
    expect(readLeadTime('TBC', 'Lead')).toEqual({ ok: true, value: null });
    expect(readLeadTime('soon', 'Lead').ok).toBe(false);
  });

  it('reads statuses, markups and links', () => {
    expect(readStatus('On hold')).toEqual({ ok: true, value: 'on_hold' });
    expect(readStatus('On order')).toEqual({ ok: true, value: 'ordered' });
    expect(readStatus('Signed off')).toEqual({ ok: true, value: 'approved' });
    expect(readStatus('Maybe').ok).toBe(false);
    expect(readMarkup('35%')).toEqual({ ok: true, value: '3500' });
    expect(readMarkup('35')).toEqual({ ok: true, value: '3500' });
    expect(readMarkup('0.35')).toEqual({ ok: true, value: '3500' });
    expect(readMarkup('35.25%')).toEqual({ ok: true, value: '3525' });
    expect(readMarkup('2000%').ok).toBe(false);
    expect(readUrl('www.pooky.com/pendant')).toEqual({ ok: true, value: 'https://www.pooky.com/pendant' });
    expect(readUrl('not a link').ok).toBe(false);
  });
});

describe('headings and mapping', () => {
  it.each([
    ['Item', 'heading'],
    ['Description', 'description'],
    ['Notes', 'description'],
    ['Qty', 'quantity'],
    ['QUANTITY', 'quantity'],
    ['Unit', 'unit'],
    ['Room', 'section'],
    ['Area', 'section'],
    ['Section', 'section'],
    ['Supplier', 'supplier'],
    ['Brand', 'brand'],
    ['Manufacturer', 'brand'],
    ['Code', 'code'],
    ['Ref.', 'code'],
    ['Product code', 'productCode'],
    ['SKU', 'productCode'],
    ['Trade', 'tradePrice'],
    ['Net (£)', 'tradePrice'],
    ['Unit cost ex VAT', 'tradePrice'],
    ['Cost', 'tradePrice'],
    ['RRP', 'retailPrice'],
    ['Retail price', 'retailPrice'],
    ['Sell', 'clientPrice'],
    ['Client price', 'clientPrice'],
    ['Price each', 'clientPrice'],
    ['Delivery', 'deliveryPrice'],
    ['Lead time (weeks)', 'leadTimeDays'],
    ['Lead-time', 'leadTimeDays'],
    ['Finish', 'finish'],
    ['Colour', 'finish'],
    ['Dimensions', 'dimensions'],
    ['W x D x H', 'dimensions'],
    ['Status', 'status'],
    ['Link', 'url'],
    ['Mark-up', 'markup'],
  ])('%j maps to %s', (heading, field) => {
    expect(fieldForHeading(heading)).toBe(field);
  });

  it('finds the headings below title rows and proposes a mapping; totals are left out, a lone description is the heading', () => {
    const rows = [['Harbour House schedule'], ['Rev B'], [], ['Description', 'Qty', 'Net', 'Total', 'Notes']];
    expect(findHeaderRow(rows)).toBe(4);
    const mapping = proposeMapping(rows);
    expect(mapping.columns.map((c) => [c.column, c.field])).toEqual([
      ['A', 'heading'],
      ['B', 'quantity'],
      ['C', 'tradePrice'],
      ['D', null],
      ['E', 'description'],
    ]);
    // The first column wins where two name one field.
    expect(proposeMapping([['Item', 'Net', 'Cost']]).columns.map((c) => c.field)).toEqual([
      'heading',
      'tradePrice',
      null,
    ]);
  });

  it('letters columns as spreadsheets do', () => {
    expect([0, 25, 26, 701, 702].map(columnLetter)).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA']);
    expect(['A', 'Z', 'AA', 'ZZ', 'AAA', 'a1'].map(columnIndex)).toEqual([0, 25, 26, 701, 702, undefined]);
  });
});

describe('the plan', () => {
  const lookups: ImportLookups = {
    currency: 'GBP',
    sections: new Map([['kitchen', { id: 'S-kitchen', title: 'Kitchen' }]]),
    suppliers: new Map([['pooky', { id: 'P-pooky', name: 'Pooky' }]]),
    units: new Map([
      ['each', { id: 'U-each', name: 'each' }],
      ['no', { id: 'U-each', name: 'each' }],
      ['m', { id: 'U-m', name: 'metre' }],
    ]),
    defaultUnit: { id: 'U-each', name: 'each' },
  };
  const rows = [
    ['Lighting schedule'],
    ['Ref', 'Item', 'Room', 'Qty', 'Unit', 'Supplier', 'Net', 'Sell'],
    ['L01', 'Pendant', 'kitchen', '2', 'no.', 'POOKY', '£1,250.00', ''],
    ['L02', 'Strip', '', '4.5', 'm', 'Pooky', '1250.5', 'POA'],
    [],
    ['GARDEN'],
    ['', 'Spike', '', 'lots', 'furlong', 'New Co', '-5', '=B2*2'],
    ['', 'Total', '', '', '', '', '2500'],
    ['', '', 'Hall'],
    ['', 'Mirror', '', '', '', '', 'TBC', 'by others'],
  ];
  const plan = planImport(rows, proposeMapping(rows), lookups);

  it('places lines by room (written once per group) and by heading rows, matching existing sections and suppliers', () => {
    expect(plan.lines.map((l) => [l.row, l.heading, l.sectionKey])).toEqual([
      [3, 'Pendant', 'kitchen'],
      [4, 'Strip', 'kitchen'],
      [7, 'Spike', 'garden'],
      [10, 'Mirror', 'hall'],
    ]);
    expect(plan.sections.map((s) => [s.title, s.id, s.row])).toEqual([
      ['Kitchen', 'S-kitchen', 3],
      ['GARDEN', null, 6],
      ['Hall', null, 9],
    ]);
    expect(plan.suppliers.map((s) => [s.name, s.id, s.lines])).toEqual([
      ['Pooky', 'P-pooky', 2],
      ['New Co', null, 1],
    ]);
    expect(plan.counts).toMatchObject({
      rows: 7,
      lines: 4,
      linesWithErrors: 1,
      headingRows: 1,
      blankRows: 1,
      skippedRows: 1,
    });
  });

  it('reads each line exactly, and names each bad cell by row, column and heading', () => {
    expect(plan.lines[0]).toMatchObject({
      code: 'L01',
      quantity4: '20000',
      unitId: 'U-each',
      tradePrice: { state: 'set', amount4: '12500000' },
    });
    expect(plan.lines[0]).not.toHaveProperty('clientPrice');
    expect(plan.lines[1]).toMatchObject({ unitId: 'U-m', quantity4: '45000', clientPrice: { state: 'poa' } });
    expect(plan.lines[3]).toMatchObject({ tradePrice: { state: 'tbc' }, clientPrice: { state: 'by_others' } });
    expect(plan.problems.map((p) => [p.row, p.column, p.heading, p.severity])).toEqual([
      [7, 'D', 'Qty', 'error'],
      [7, 'E', 'Unit', 'warning'],
      [7, 'G', 'Net', 'error'],
      [7, 'H', 'Sell', 'error'],
      [8, null, null, 'warning'],
    ]);
    expect(plan.problems[3]!.message).toContain('formula whose result was not saved');
    expect(plan.problems[1]!.message).toContain('create_unit');
  });

  it('turns heading rows off when asked, and refuses text longer than a line field takes', () => {
    const flat = planImport(
      [['Item'], ['Stool'], ['Bench']],
      { ...proposeMapping([['Item']]), headingRows: false },
      lookups,
    );
    expect(flat.lines.map((l) => l.heading)).toEqual(['Stool', 'Bench']);
    const long = planImport(
      [
        ['Item', 'Brand'],
        ['Stool', 'x'.repeat(201)],
      ],
      proposeMapping([['Item', 'Brand']]),
      lookups,
    );
    expect(long.problems[0]).toMatchObject({ row: 2, column: 'B', severity: 'error' });
  });
});
