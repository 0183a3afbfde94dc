/**
 * What the client sees of a specification: on the client document's pieces, the share page, the shared document and
 * both PDFs, a specification attached to a line shows its name and only the fields the studio marked client-visible.
 * Every hidden field carries a distinctive marker, and no marker may reach any of them; the visible ones must.
 * PDFs are read back through test/helpers/pdf.ts (pdfText).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { generateDocument } from '../../src/domain/documents/generate.js';
import type { Trpc } from '../helpers/clients.js';
import { openTestApp, type TestApp } from '../helpers/in-process.js';
import { uuid } from '../helpers/ids.js';
import { pdfText } from '../helpers/pdf.js';
import { workFor } from '../documents/work.js';
import { issueShare } from '../shares/fixture.js';

let app: TestApp;
let owner: Trpc;
openTestApp((opened) => ({ app, owner } = opened));

const HIDDEN = 'HIDDENMARK';
const hidden = (what: string) => `${HIDDEN} ${what}`;
let projectId: string;
let specificationId: string;

beforeAll(async () => {
  const project = await owner.projects.createStudioProject.mutate({
    name: 'Specified flat',
    sections: ['Dining room'],
    commandKey: uuid(),
  });
  projectId = project.id;
  const line = await owner.schedule.createScheduleLine.mutate({
    projectId,
    sectionId: project.sections[0]!.id,
    heading: 'Dining table',
    commandKey: uuid(),
  });
  const spec = await owner.specifications.createSpecification.mutate({
    name: 'Clientside Oak Table',
    category: 'tables',
    manufacturer: hidden('maker'),
    model: hidden('model'),
    sku: 'HIDDENMARK-SKU-7731',
    description: hidden('description'),
    dimensions: { unit: 'mm', width4: '20000000', depth4: '9500000', height4: '7400000' },
    materials: ['Visibleoak'],
    finishes: [hidden('finish')],
    colours: [hidden('colour')],
    careNotes: 'Visiblecare: wipe with a damp cloth.',
    installationNotes: hidden('installation'),
    leadTimeDays: 42,
    links: [{ label: 'Visiblelink guide', url: 'https://example.com/visible-guide' }],
    clientFields: ['dimensions', 'materials', 'careNotes', 'leadTimeDays', 'links'],
    notes: hidden('trade terms 40% off'),
    commandKey: uuid(),
  });
  specificationId = spec.id;
  await owner.specifications.attachSpecificationToLine.mutate({
    projectId,
    lineId: line.id,
    specificationId,
    expectedVersion: 1,
  });
});

const VISIBLE = ['Visibleoak', 'Visiblecare', 'Visiblelink guide', 'W 2,000 × D 950 × H 740 mm', '6 weeks'];

/** The words of a PDF of the live document, as a reader takes them wherever a line wrapped. */
async function documentText(kind: 'client_schedule' | 'spec_sheets') {
  const doc = await generateDocument(await workFor(app), { projectId, kind, source: { kind: 'live' } });
  return pdfText(app.rt.files.originalPath(doc.sha256)).join('\n').replace(/\s+/g, ' ');
}

describe('the client projection of a specification', () => {
  it('carries its name and the client-visible fields only', async () => {
    const doc = await owner.clientDocument.getProjectClientDocument.query({ projectId });
    const piece = doc.sections[0]!.pieces[0]!;
    expect(piece.specifications).toEqual([
      {
        name: 'Clientside Oak Table',
        dimensions: { unit: 'mm', width4: '20000000', depth4: '9500000', height4: '7400000' },
        materials: ['Visibleoak'],
        careNotes: 'Visiblecare: wipe with a damp cloth.',
        leadTimeDays: 42,
        links: [{ label: 'Visiblelink guide', url: 'https://example.com/visible-guide' }],
      },
    ]);
    expect(JSON.stringify(doc)).not.toContain(HIDDEN);
  });

  it('reaches the share page and the shared document with no hidden field', async () => {
    const share = await issueShare(owner, projectId);
    const page = await (await fetch(`${app.url}${share.path}`)).text();
    const shared = await (await fetch(`${app.url}/v1/shares/${share.token}/document`)).text();
    for (const text of [page, shared]) expect(text).not.toContain(HIDDEN);
    expect(page).toContain('<h4>Clientside Oak Table</h4>');
    for (const words of VISIBLE) expect(page).toContain(words);
  });

  it('prints on the client schedule and spec sheet PDFs with no hidden field', async () => {
    for (const kind of ['client_schedule', 'spec_sheets'] as const) {
      const text = await documentText(kind);
      expect(text, kind).not.toContain(HIDDEN);
      expect(text, kind).toContain('Clientside Oak Table');
      for (const words of ['Visibleoak', 'Visiblecare', 'W 2,000 × D 950 × H 740 mm'])
        expect(text, kind).toContain(words);
    }
  });

  it('follows what the studio marks: a field hidden later leaves the live document, and archiving keeps it on the piece', async () => {
    const spec = await owner.specifications.updateSpecification.mutate({
      specificationId,
      expectedVersion: 1,
      clientFields: ['dimensions'],
    });
    await owner.specifications.archiveSpecification.mutate({ specificationId, expectedVersion: spec.version });
    const doc = await owner.clientDocument.getProjectClientDocument.query({ projectId });
    expect(doc.sections[0]!.pieces[0]!.specifications).toEqual([
      {
        name: 'Clientside Oak Table',
        dimensions: { unit: 'mm', width4: '20000000', depth4: '9500000', height4: '7400000' },
      },
    ]);
    const text = await documentText('spec_sheets');
    expect(text).not.toContain('Visibleoak');
    expect(text).toContain('Clientside Oak Table');
  });
});
