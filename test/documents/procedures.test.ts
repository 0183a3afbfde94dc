/**
 * The documents domain (5 procedures) through the typed tRPC client and MCP call_action, and the download links of
 * download_document and download_project_package: a project's documents listed newest first, filtered, read and
 * archived (never deleted); their deliveries listed and read; links that serve exactly one document for minutes and
 * answer every link that does not work with one identical 403.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../src/core/auth.js';
import { newId } from '../../src/core/ids.js';
import { requestDelivery } from '../../src/domain/documents/deliveries.js';
import { exportClientSchedule, generateDocument } from '../../src/domain/documents/generate.js';
import { mintDownloadPath } from '../../src/domain/documents/links.js';
import { linkSecret } from '../../src/files/server-secret.js';
import { DOWNLOAD_REFUSED } from '../../src/surfaces/downloads.js';
import { callAction, callTool, codeOf, refusal } from '../helpers/calls.js';
import { type Trpc, trpc } from '../helpers/clients.js';
import { memberWithToken } from '../helpers/fixtures.js';
import { openTestAppWithMcp, type TestApp } from '../helpers/in-process.js';
import { pricedProject } from './fixture.js';
import { workFor } from './work.js';

let app: TestApp;
let owner: Trpc;
let mcp: Client;
let project: Awaited<ReturnType<typeof pricedProject>>;
let other: Awaited<ReturnType<typeof pricedProject>>;
type Doc = Awaited<ReturnType<typeof generateDocument>>;
let pdf: Doc;
let xlsx: Doc;
let csv: Doc;
let foreign: Doc;

// Email configured (nothing is sent in this file: deliveries are only queued), so deliveries can be recorded.
openTestAppWithMcp((opened) => ({ app, owner, mcp } = opened), {
  STUDIO_SMTP_URL: 'smtp://127.0.0.1:9',
  STUDIO_MAIL_FROM: 'Studio <studio@example.test>',
});
beforeAll(async () => {
  project = await pricedProject(owner);
  other = await pricedProject(owner, 'Other house');
  const work = await workFor(app);
  pdf = await generateDocument(work, { projectId: project.id, kind: 'client_schedule' });
  xlsx = await exportClientSchedule(work, { projectId: project.id, format: 'xlsx' });
  csv = await exportClientSchedule(work, {
    projectId: project.id,
    format: 'csv',
    source: { kind: 'version', number: 1 },
  });
  foreign = await generateDocument(work, { projectId: other.id, kind: 'spec_sheets' });
});

describe('list and get project documents', () => {
  it('lists newest first, filters by kind and format, reads one; MCP answers the same', async () => {
    const list = await owner.documents.listProjectDocuments.query({ projectId: project.id });
    expect(list.items.map((d) => d.id)).toEqual([csv.id, xlsx.id, pdf.id]);
    expect(list.nextCursor).toBeNull();
    expect(list.items[2]).toEqual(pdf);
    expect(csv).toMatchObject({ kind: 'client_export', format: 'csv', source: { kind: 'version', versionNumber: 1 } });
    expect(xlsx).toMatchObject({
      kind: 'client_export',
      format: 'xlsx',
      source: { kind: 'live' },
      pageCount: null,
      mediaType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      filename: 'harbour-house-client-schedule.xlsx',
    });
    const exports = await owner.documents.listProjectDocuments.query({ projectId: project.id, kind: 'client_export' });
    expect(exports.items.map((d) => d.id)).toEqual([csv.id, xlsx.id]);
    const pdfs = await owner.documents.listProjectDocuments.query({ projectId: project.id, format: 'pdf' });
    expect(pdfs.items.map((d) => d.id)).toEqual([pdf.id]);
    const oldest = await owner.documents.listProjectDocuments.query({
      projectId: project.id,
      sort: 'createdAt',
      limit: 2,
    });
    expect(oldest.items.map((d) => d.id)).toEqual([pdf.id, xlsx.id]);
    const next = await owner.documents.listProjectDocuments.query({
      projectId: project.id,
      sort: 'createdAt',
      limit: 2,
      cursor: oldest.nextCursor!,
    });
    expect(next.items.map((d) => d.id)).toEqual([csv.id]);
    expect((await callAction(mcp, 'list_project_documents', { projectId: project.id })).result).toEqual(list);
    const one = await owner.documents.getProjectDocument.query({ projectId: project.id, documentId: pdf.id });
    expect(one).toEqual(pdf);
    expect(
      (await callAction(mcp, 'get_project_document', { projectId: project.id, documentId: pdf.id })).result,
    ).toEqual(pdf);
    // The recorded digest and size are the file's.
    const bytes = readFileSync(app.rt.files.originalPath(pdf.sha256));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(pdf.sha256);
    expect(bytes.length).toBe(pdf.byteSize);
  });

  it("answers NOT_FOUND for another project's document or an unknown id, on both surfaces", async () => {
    expect(
      await codeOf(owner.documents.getProjectDocument.query({ projectId: project.id, documentId: foreign.id })),
    ).toBe('NOT_FOUND');
    expect(await codeOf(owner.documents.getProjectDocument.query({ projectId: project.id, documentId: newId() }))).toBe(
      'NOT_FOUND',
    );
    expect(
      (await callAction(mcp, 'get_project_document', { projectId: project.id, documentId: foreign.id })).code,
    ).toBe('NOT_FOUND');
  });

  it('lets a viewer with a grant read documents but not archive them; a member without a grant sees nothing', async () => {
    const viewer = await memberWithToken(app.database, 'viewer', [{ projectId: project.id, level: 'view' }]);
    const asViewer = trpc(app.url, viewer.token);
    expect((await asViewer.documents.listProjectDocuments.query({ projectId: project.id })).items).toHaveLength(3);
    expect(
      await refusal(asViewer.documents.archiveProjectDocument.mutate({ projectId: project.id, documentId: xlsx.id })),
    ).toEqual({ code: 'FORBIDDEN', status: 403 });
    const stranger = trpc(app.url, (await memberWithToken(app.database, 'designer')).token);
    expect(await codeOf(stranger.documents.listProjectDocuments.query({ projectId: project.id }))).toBe('NOT_FOUND');
  });
});

describe('archive a document', () => {
  it('archives once: the lists leave it out unless asked, it stays readable, and a second archival is refused', async () => {
    const archived = await owner.documents.archiveProjectDocument.mutate({
      projectId: project.id,
      documentId: xlsx.id,
    });
    expect(archived).toEqual({ ...xlsx, archived_at: archived.archived_at });
    expect(archived.archived_at).not.toBeNull();
    const list = await owner.documents.listProjectDocuments.query({ projectId: project.id });
    expect(list.items.map((d) => d.id)).toEqual([csv.id, pdf.id]);
    const only = await owner.documents.listProjectDocuments.query({ projectId: project.id, archived: 'only' });
    expect(only.items.map((d) => d.id)).toEqual([xlsx.id]);
    const all = await owner.documents.listProjectDocuments.query({ projectId: project.id, archived: 'include' });
    expect(all.items).toHaveLength(3);
    expect(await owner.documents.getProjectDocument.query({ projectId: project.id, documentId: xlsx.id })).toEqual(
      archived,
    );
    const again = await callAction(mcp, 'archive_project_document', { projectId: project.id, documentId: xlsx.id });
    expect(again.code).toBe('ALREADY_ARCHIVED');
    const events = await owner.audit.listProjectAuditEvents.query({ projectId: project.id, limit: 5 } as never);
    expect(JSON.stringify(events)).toContain('Archived document');
  });
});

describe('deliveries', () => {
  let queued: Awaited<ReturnType<typeof requestDelivery>>;
  let second: Awaited<ReturnType<typeof requestDelivery>>;
  beforeAll(async () => {
    const work = await workFor(app, app.token, 'deliver_document');
    queued = await work.commit((ctx) =>
      requestDelivery(ctx, { projectId: project.id, documentId: pdf.id, recipient: 'Client@Example.com' }),
    );
    second = await work.commit((ctx) =>
      requestDelivery(ctx, {
        projectId: project.id,
        documentId: csv.id,
        recipient: 'architect@example.com',
        subject: 'The schedule as a spreadsheet',
        message: 'For your cost plan.',
      }),
    );
  });

  it('lists newest first, by document, status and recipient; reads one; MCP answers the same', async () => {
    expect(queued).toMatchObject({
      projectId: project.id,
      documentId: pdf.id,
      recipient: 'client@example.com',
      subject: 'Harbour House – Client schedule',
      message: 'Please find Harbour House – Client schedule attached.',
      status: 'queued',
      error: null,
      messageId: null,
      sentAt: null,
    });
    const list = await owner.documents.listDocumentDeliveries.query({ projectId: project.id });
    expect(list.items.map((d) => d.id)).toEqual([second.id, queued.id]);
    const forPdf = await owner.documents.listDocumentDeliveries.query({ projectId: project.id, documentId: pdf.id });
    expect(forPdf.items.map((d) => d.id)).toEqual([queued.id]);
    const toClient = await owner.documents.listDocumentDeliveries.query({
      projectId: project.id,
      recipient: 'CLIENT@example.com',
    });
    expect(toClient.items.map((d) => d.id)).toEqual([queued.id]);
    expect(
      (await owner.documents.listDocumentDeliveries.query({ projectId: project.id, status: 'sent' })).items,
    ).toEqual([]);
    expect((await callAction(mcp, 'list_document_deliveries', { projectId: project.id })).result).toEqual(list);
    const one = await owner.documents.getDocumentDelivery.query({ projectId: project.id, deliveryId: second.id });
    expect(one).toEqual(second);
    expect(
      (await callAction(mcp, 'get_document_delivery', { projectId: project.id, deliveryId: second.id })).result,
    ).toEqual(second);
  });

  it("answers NOT_FOUND for another project's delivery or document filter", async () => {
    expect(
      await codeOf(owner.documents.getDocumentDelivery.query({ projectId: other.id, deliveryId: queued.id })),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(owner.documents.listDocumentDeliveries.query({ projectId: project.id, documentId: foreign.id })),
    ).toBe('NOT_FOUND');
  });

  it('refuses to queue an archived document', async () => {
    const work = await workFor(app, app.token, 'deliver_document');
    await expect(
      work.commit((ctx) =>
        requestDelivery(ctx, { projectId: project.id, documentId: xlsx.id, recipient: 'client@example.com' }),
      ),
    ).rejects.toMatchObject({ code: 'ARCHIVED' });
  });
});

describe('download links', () => {
  const get = async (path: string) => {
    const res = await fetch(`${app.url}${path}`);
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, body, headers: res.headers };
  };

  it('download_document gives a link that serves exactly the file, as an attachment, to anyone holding it', async () => {
    const out = await callTool(mcp, 'call_action', {
      name: 'download_document',
      arguments: { projectId: project.id, documentId: pdf.id },
    });
    const link = out.result.result;
    expect(link).toMatchObject({
      documentId: pdf.id,
      filename: pdf.filename,
      mediaType: 'application/pdf',
      byteSize: pdf.byteSize,
    });
    expect(link.url.startsWith(`${app.rt.config.baseUrl}/downloads/`)).toBe(true);
    const minutes = (Date.parse(link.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10);
    const res = await get(new URL(link.url).pathname);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain(`filename="${pdf.filename}"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(createHash('sha256').update(res.body).digest('hex')).toBe(pdf.sha256);
    // An archived document still downloads; a package-only tool refuses a document that is not a package.
    const archived = await callTool(mcp, 'call_action', {
      name: 'download_document',
      arguments: { projectId: project.id, documentId: xlsx.id, minutes: 1 },
    });
    expect((await get(new URL(archived.result.result.url).pathname)).status).toBe(200);
    const notPackage = await callTool(mcp, 'call_action', {
      name: 'download_project_package',
      arguments: { projectId: project.id, packageId: pdf.id },
    });
    expect(notPackage.code).toBe('NOT_FOUND');
    const foreignLink = await callTool(mcp, 'call_action', {
      name: 'download_document',
      arguments: { projectId: project.id, documentId: foreign.id },
    });
    expect(foreignLink.code).toBe('NOT_FOUND');
  });

  it('answers expired, altered, unknown, foreign-key and malformed links with one identical 403', async () => {
    const secret = await linkSecret(app.rt.config);
    const studioId = (await owner.studio.getStudio.query({})).id;
    const caller = await authenticate(app.rt.store, app.token);
    const by = { memberId: caller.memberId, credential: `api-${caller.tokenId}`, archived: false };
    const good = mintDownloadPath(secret, { documentId: pdf.id, studioId, ...by }, new Date()).path;
    expect((await get(good)).status).toBe(200);
    const token = good.slice('/downloads/'.length);
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'a' ? 'b' : 'a') + s.slice(i + 1);
    const links = {
      expired: mintDownloadPath(secret, { documentId: pdf.id, studioId, ...by }, new Date(Date.now() - 11 * 60_000))
        .path,
      alteredSignature: `/downloads/${flip(token, token.length - 1)}`,
      alteredDocument: `/downloads/${flip(token, 3)}`,
      laterExpiry: `/downloads/${token.replace(/\.(\d+)\./, (_, e: string) => `.${Number(e) + 3600}.`)}`,
      unknownDocument: mintDownloadPath(secret, { documentId: newId(), studioId, ...by }, new Date()).path,
      otherStudio: mintDownloadPath(secret, { documentId: pdf.id, studioId: newId(), ...by }, new Date()).path,
      otherKey: mintDownloadPath(randomBytes(32), { documentId: pdf.id, studioId, ...by }, new Date()).path,
      otherMember: mintDownloadPath(secret, { documentId: pdf.id, studioId, ...by, memberId: newId() }, new Date())
        .path,
      otherToken: mintDownloadPath(
        secret,
        { documentId: pdf.id, studioId, ...by, credential: `api-${newId()}` },
        new Date(),
      ).path,
      malformed: '/downloads/not-a-link',
      empty: '/downloads/',
      badEncoding: '/downloads/%zz',
      nested: `/downloads/${token}/x`,
    };
    const answers = await Promise.all(
      Object.entries(links).map(async ([name, path]) => [name, await get(path)] as const),
    );
    const telling = (h: Headers) =>
      ['content-type', 'content-length', 'cache-control', 'referrer-policy', 'etag', 'content-disposition'].map((k) =>
        h.get(k),
      );
    const first = telling(answers[0]![1].headers);
    expect(first[0]).toMatch(/^application\/problem\+json/);
    for (const [name, res] of answers) {
      expect(res.status, name).toBe(403);
      expect(res.body.toString(), name).toBe(DOWNLOAD_REFUSED);
      expect(telling(res.headers), name).toEqual(first);
    }
  });
});
