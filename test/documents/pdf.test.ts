/**
 * The client schedule and spec sheet PDFs, read back the way a person would, with pdf.js (test/helpers/pdf.ts): their
 * words (headings, prices and their state words, totals, removed pieces, "Page n of N") and their pages as images
 * (every page drawn, the photographs on them). And, above all, the absence of every trade price, markup and margin
 * of a project priced with distinctive figures: a PDF is drawn from the client document only.
 */
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { ONE, roundToPlaces } from '../../src/core/money.js';
import { dateText, moneyText } from '../../src/domain/documents/figures.js';
import { generateDocument, retainClientLinkPdf } from '../../src/domain/documents/generate.js';
import type { Trpc } from '../helpers/clients.js';
import { openTestApp, type TestApp } from '../helpers/in-process.js';
import { pdfPageImages } from '../helpers/pdf.js';
import { pdfText } from '../helpers/pdf.js';
import { HAND_CLIENT4, pricedProject, QUANTITY4, secretForms, TRADE4, MARKUP4 } from './fixture.js';
import { workFor } from './work.js';

let app: TestApp;
let owner: Trpc;
let project: Awaited<ReturnType<typeof pricedProject>>;

openTestApp((opened) => ({ app, owner } = opened));
beforeAll(async () => {
  project = await pricedProject(owner);
});

const pdfPath = (sha256: string) => app.rt.files.originalPath(sha256);
const rate8 = TRADE4 * (ONE + MARKUP4);
const unitShown = moneyText(roundToPlaces(rate8, 8, 2).toString(), 'GBP');
const totalShown = moneyText(roundToPlaces(QUANTITY4 * rate8, 12, 2).toString(), 'GBP');

describe('the client schedule PDF of a minted version', () => {
  let doc: Awaited<ReturnType<typeof generateDocument>>;
  let pages: string[];
  let text: string;

  beforeAll(async () => {
    const work = await workFor(app);
    doc = await generateDocument(work, {
      projectId: project.id,
      kind: 'client_schedule',
      source: { kind: 'version', number: 1 },
    });
    pages = pdfText(pdfPath(doc.sha256));
    // Words as a reader takes them, wherever a line wrapped.
    text = pages.join('\n').replace(/\s+/g, ' ');
    // Progress was told piece by piece: six schedule rows, and spec sheets for the two pieces with photographs.
    expect(work.progressed.at(-1)).toEqual([8, 8]);
  });

  it('is recorded as the project document, with its page count, size and source', async () => {
    expect(doc).toMatchObject({
      projectId: project.id,
      kind: 'client_schedule',
      format: 'pdf',
      source: { kind: 'version', versionNumber: 1 },
      title: 'Harbour House – Client schedule',
      filename: 'harbour-house-client-schedule-v1.pdf',
      mediaType: 'application/pdf',
      archived_at: null,
    });
    expect(doc.byteSize).toBe(statSync(pdfPath(doc.sha256)).size);
    expect(doc.pageCount).toBe(pages.length);
    expect(await owner.documents.getProjectDocument.query({ projectId: project.id, documentId: doc.id })).toEqual(doc);
  });

  it('has a cover, the schedule, then spec sheets only for pieces with photographs to show, pages numbered "of N"', () => {
    const n = pages.length;
    // Cover, one schedule page, two spec sheets (the console and the chandelier have photographs; the rest do not).
    expect(n).toBe(1 + 1 + 2);
    for (const [i, page] of pages.entries()) expect(page).toContain(`Page ${i + 1} of ${n}`);
    expect(pages[1]).toContain('Schedule');
    const sheets = pages.slice(-2);
    expect(sheets[0]).toContain('Gilded console');
    expect(sheets[0]).toMatch(/SALON/);
    expect(sheets[1]).toContain('Murano chandelier');
    for (const bare of ['Silk rug', 'Dining table', 'Dining chairs', 'Curtains']) {
      expect(sheets.join(' ')).not.toContain(bare);
    }
  });

  it("has a cover with the studio's mark, the client's name, the date, and the note on rounded unit prices", () => {
    const cover = pages[0]!.replace(/\s+/g, ' ');
    expect(cover).toContain('CLIENT SCHEDULE');
    // The monogram of Hartley & Rowe Interiors, beside its name.
    expect(cover).toMatch(/\bHR\b/);
    expect(cover).toContain('Hartley & Rowe Interiors');
    expect(cover).toContain('Prepared for Eleanor and James Whitby');
    expect(cover).toContain(`Date ${dateText(new Date().toISOString())}`);
    expect(cover).toContain('Version 1, minted');
    expect(cover).toContain('2 rooms · 6 pieces');
    expect(cover).toContain('To be confirmed 2 pieces');
    expect(cover).toContain('Our selection for the salon and the dining room');
    expect(cover).toContain('Unit prices are rounded for display.');
    // The title says the project already: its name is not repeated under it.
    expect(cover.match(/Harbour House/g)).toHaveLength(2); // the title, and the footer
    // The schedule's totals say it again, where the figures are.
    expect(text).toContain('Totals are worked out from the unrounded figures');
  });

  it('shows sections, pieces, chosen columns and properties, client prices, state words, totals and removed pieces', () => {
    for (const words of [
      'Salon',
      'Dining Room',
      'Gilded console',
      'Carved limewood, water gilded.',
      'Brand: Atelier Roux',
      'Finish: Antique gold',
      'Lead time: 12 weeks',
      'Fire rating: Class 1',
      '2.5',
      `Unit price ${unitShown}`,
      totalShown,
      moneyText(HAND_CLIENT4.toString(), 'GBP'),
      'To be confirmed',
      'Price on application',
      'Included',
      'By others',
      'Totals',
      '6 pieces',
      '2 pieces are to be confirmed or priced on application, and not in the total.',
      'Removed from the schedule',
      'Side table',
    ]) {
      expect(text, words).toContain(words);
    }
    // The total is the client document's own, rounded once from exact factors.
    const total = roundToPlaces(QUANTITY4 * rate8, 12, 2) + HAND_CLIENT4;
    expect(text).toContain(`Total ${moneyText(total.toString(), 'GBP')}`);
    // The empty section is left out, as in the client document.
    expect(text).not.toContain('Empty');
  });

  it('carries no trade price, markup or margin in any formatting', () => {
    const squeezed = text.replace(/\s+/g, '');
    const leaks = secretForms().filter((f) => text.includes(f) || squeezed.includes(f));
    expect(leaks).toEqual([]);
    // The check is not vacuous: the schedule itself holds the figure.
    expect(secretForms()).toContain('98,765.4321');
  });

  it('renders every page to a non-empty image, with the photographs drawn on the spec sheets', async () => {
    const pngs = await pdfPageImages(pdfPath(doc.sha256), 30);
    expect(pngs).toHaveLength(pages.length);
    for (const [i, png] of pngs.entries()) {
      // Flattened on white, so a transparent page would count as blank.
      const stats = await sharp(png).flatten({ background: '#ffffff' }).stats();
      // Not a blank page: something darker than paper is on it.
      expect(Math.min(...stats.channels.map((c) => c.min)), `page ${i + 1}`).toBeLessThan(200);
    }
    // The console's spec sheet shows its red cover large; the chandelier's its green one.
    const reddish = async (png: Buffer, channel: 'red' | 'green') => {
      const { data, info } = await sharp(png)
        .flatten({ background: '#ffffff' })
        .raw()
        .toBuffer({ resolveWithObject: true });
      let count = 0;
      for (let i = 0; i < data.length; i += info.channels) {
        const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
        if (channel === 'red' ? r > 180 && g < 90 && b < 90 : g > 100 && r < 60 && b < 100) count++;
      }
      return count / (info.width * info.height);
    };
    const consolePage = pngs[pngs.length - 2]!;
    const chandelierPage = pngs[pngs.length - 1]!;
    expect(await reddish(consolePage, 'red')).toBeGreaterThan(0.1);
    expect(await reddish(chandelierPage, 'green')).toBeGreaterThan(0.1);
    expect(await reddish(chandelierPage, 'red')).toBe(0);
    // Kept to look at (docs/screenshots/ for the README) when STUDIO_SCREENSHOTS names a folder.
    const keep = process.env.STUDIO_SCREENSHOTS;
    if (keep) {
      const pictures = await pdfPageImages(pdfPath(doc.sha256), 72);
      for (const [i, png] of pictures.entries()) writeFileSync(join(keep, `client-schedule-page-${i + 1}.png`), png);
    }
  });
});

describe('other PDFs', () => {
  it('spec sheets alone: a cover and one page per piece', async () => {
    const doc = await generateDocument(await workFor(app), { projectId: project.id, kind: 'spec_sheets' });
    const pages = pdfText(pdfPath(doc.sha256));
    expect(doc).toMatchObject({ kind: 'spec_sheets', source: { kind: 'live' }, pageCount: 7 });
    expect(pages).toHaveLength(7);
    expect(pages[0]).toContain('SPEC SHEETS');
    expect(pages.join('')).not.toContain('Removed from the schedule');
  });

  it('with prices hidden by the settings, shows no price, state word or total at all', async () => {
    const settings = await owner.clientDocument.getClientDocumentSettings.query({ projectId: project.id });
    await owner.clientDocument.updateClientDocumentSettings.mutate({
      projectId: project.id,
      expectedVersion: settings.version,
      showPrices: false,
    });
    try {
      const doc = await generateDocument(await workFor(app), { projectId: project.id, kind: 'client_schedule' });
      const text = pdfText(pdfPath(doc.sha256)).join('\n');
      expect(text).toContain('Gilded console');
      expect(text).toContain('6 pieces');
      for (const words of ['£', 'Unit price', 'To be confirmed', 'Price on application', 'Total ']) {
        expect(text, words).not.toContain(words);
      }
    } finally {
      const now = await owner.clientDocument.getClientDocumentSettings.query({ projectId: project.id });
      await owner.clientDocument.updateClientDocumentSettings.mutate({
        projectId: project.id,
        expectedVersion: now.version,
        showPrices: true,
      });
    }
  });

  it("keeps what a live share's link shows now, and refuses a revoked share", async () => {
    const issued = await owner.shares.issueProjectShare.mutate({
      projectId: project.id,
      commandKey: crypto.randomUUID(),
      confirm: true,
    });
    const kept = await retainClientLinkPdf(await workFor(app), { projectId: project.id, shareId: issued.id });
    expect(kept).toMatchObject({ kind: 'client_schedule', source: { kind: 'share', shareId: issued.id } });
    const pages = pdfText(pdfPath(kept.sha256));
    expect(pages[0]).toContain("As the client's link showed it on");
    expect(pages.join(' ')).toContain('Gilded console');
    await owner.shares.revokeProjectShare.mutate({
      projectId: project.id,
      shareId: issued.id,
      commandKey: crypto.randomUUID(),
    });
    await expect(
      retainClientLinkPdf(await workFor(app), { projectId: project.id, shareId: issued.id }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('draws a placeholder for a photograph whose original is missing, and never fails for it', async () => {
    const p = await pricedProject(owner, 'Lost photographs');
    const version = await owner.clientDocument.getClientDocumentVersion.query({ projectId: p.id, number: 1 });
    const sources = version.document.sections[0]!.pieces[0]!.photographs;
    expect(sources.length).toBe(2);
    // Every original of this studio gone from the blob store (a restore without the blob folder).
    rmSync(join(app.rt.config.blobDir, 'derived'), { recursive: true, force: true });
    rmSync(join(app.rt.config.blobDir, 'originals'), { recursive: true, force: true });
    const doc = await generateDocument(await workFor(app), {
      projectId: p.id,
      kind: 'spec_sheets',
      source: { kind: 'version', number: 1 },
    });
    expect(pdfText(pdfPath(doc.sha256))).toHaveLength(7);
  });
});
