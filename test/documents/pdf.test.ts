/**
 * The client schedule and spec sheet PDFs, read back the way a person would, with pdf.js (test/helpers/pdf.ts): their
 * words (headings, prices and their state words, totals, removed pieces, "Page n of N") and their pages as images
 * (every page drawn, the photographs on them). And, above all, the absence of every trade price, markup and margin
 * of a project priced with distinctive figures: a PDF is drawn from the client document only.
 */
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { ONE, roundToPlaces } from '../../src/core/money.js';
import { moneyText } from '../../src/domain/documents/figures.js';
import { generateDocument, retainClientLinkPdf } from '../../src/domain/documents/generate.js';
import type { Trpc } from '../helpers/clients.js';
import { openTestApp, type TestApp } from '../helpers/in-process.js';
import { pdfPageImages } from '../helpers/pdf.js';
import { HAND_CLIENT4, pdfPages, pricedProject, QUANTITY4, secretForms, TRADE4, MARKUP4 } from './fixture.js';
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
    pages = pdfPages(pdfPath(doc.sha256));
    // Words as a reader takes them, wherever a line wrapped.
    text = pages.join('\n').replace(/\s+/g, ' ');
    // Progress was told piece by piece: six pieces drawn twice (schedule rows and spec sheets).
    expect(work.progressed.at(-1)).toEqual([12, 12]);
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

  it('has a cover, the schedule, then one spec sheet page per piece, each page numbered "of N"', () => {
    const n = pages.length;
    // Cover, one or more schedule pages, six spec sheets.
    expect(n).toBeGreaterThanOrEqual(1 + 1 + 6);
    for (const [i, page] of pages.entries()) expect(page).toContain(`Page ${i + 1} of ${n}`);
    expect(pages[0]).toContain('CLIENT SCHEDULE');
    expect(pages[0]).toContain('Harbour House');
    expect(pages[0]).toContain('Version 1, minted');
    expect(pages[0]).toContain('Our selection for the salon and the dining room');
    expect(pages[1]).toContain('Schedule');
    const sheets = pages.slice(-6);
    const headings = ['Gilded console', 'Murano chandelier', 'Silk rug', 'Dining table', 'Dining chairs', 'Curtains'];
    for (const [i, page] of sheets.entries()) expect(page).toContain(headings[i]);
    expect(sheets[0]).toMatch(/SALON/);
    expect(sheets[3]).toMatch(/DINING ROOM/);
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
    const consolePage = pngs[pngs.length - 6]!;
    const chandelierPage = pngs[pngs.length - 5]!;
    expect(await reddish(consolePage, 'red')).toBeGreaterThan(0.1);
    expect(await reddish(chandelierPage, 'green')).toBeGreaterThan(0.1);
    expect(await reddish(pngs[pngs.length - 4]!, 'red')).toBe(0);
  });
});

describe('other PDFs', () => {
  it('spec sheets alone: a cover and one page per piece', async () => {
    const doc = await generateDocument(await workFor(app), { projectId: project.id, kind: 'spec_sheets' });
    const pages = pdfPages(pdfPath(doc.sha256));
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
      const text = pdfPages(pdfPath(doc.sha256)).join('\n');
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
    const pages = pdfPages(pdfPath(kept.sha256));
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
    expect(pdfPages(pdfPath(doc.sha256))).toHaveLength(7);
  });
});
