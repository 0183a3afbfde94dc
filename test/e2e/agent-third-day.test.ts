/**
 * The agent's third day (issue 26): ten fresh tasks through `studio mcp` over stdio (spawned as mcp.json says, on a
 * database the HTTP server seeded and serves), following every hint as written. This test checks that each task did
 * what it set out to do, on the studio itself; the bench reports the calls and bytes against the targets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startServer, type RunningServer } from '../helpers/server.js';
import { spawnStdioMcp, type StdioMcp } from '../helpers/e2e.js';
import { resourceReader, runThirdDay, thirdDayCaller, type ThirdDayFigures } from '../mcp/agent-third-day.js';
import { http } from '../helpers/clients.js';

let server: RunningServer;
let mcp: StdioMcp;
let figures: ThirdDayFigures;

beforeAll(async () => {
  server = await startServer();
  mcp = await spawnStdioMcp({ database: server.database });
  figures = await runThirdDay(thirdDayCaller(mcp.client), resourceReader(mcp.client), {
    projectName: 'Harbour House',
    root: ROOT,
  });
}, 180_000);
afterAll(async () => {
  await mcp?.close();
  await server?.stop();
});

const get = (path: string) => http(server.url, 'GET', path, { token: server.token });

describe('an agent’s third day over stdio MCP', () => {
  it('does the ten tasks, and every call written from a hint works as written', () => {
    const table = figures.tasks.map((t) => `${t.task}: ${t.calls} calls (${t.log.join('; ')})`).join('\n');
    expect(figures.tasks, table).toHaveLength(10);
    expect(figures.hints.length, table).toBeGreaterThan(0);
    expect(figures.hints.filter((h) => !h.ok)).toEqual([]);
  });

  it('left the studio as the tasks said: the photograph, the property values, the imported room', async () => {
    const { found } = figures;
    const projects = await get('/v1/projects?q=Harbour%20House');
    const projectId = (projects.body as any).items[0].id;
    const lines = (await get(`/v1/projects/${projectId}/items?limit=1000`)).body as any;
    const sofaId = lines.items.find((l: any) => /sofa/i.test(l.heading))?.id ?? lines.items[0].id;
    const photos = (await get(`/v1/projects/${projectId}/items/${sofaId}/photographs`)).body as any;
    expect(photos.items.map((p: any) => p.id)).toContain(found.photographId);
    for (const id of found.propertyLines) {
      const line = lines.items.find((l: any) => l.id === id);
      expect(line.properties.map((p: any) => p.value)).toContain('BS 5852 crib 5');
    }
    const inRoom = lines.items.filter((l: any) => l.sectionId === found.importedSection.id);
    expect(inRoom.map((l: any) => l.heading).sort()).toEqual(['Jute rug 200x300', 'Outdoor lantern', 'Teak bench']);
  });

  it('shared a link that opens, read the PDF through MCP, named who changed the price', async () => {
    const { found } = figures;
    expect(found.shareUrl.startsWith(server.url)).toBe(true);
    expect((await fetch(found.shareUrl)).status).toBe(200);
    expect(found.pdf).toMatchObject({ mimeType: 'application/pdf', firstBytes: '%PDF-' });
    expect(found.pdf.readBytes).toBe(found.pdf.byteSize);
    expect(found.priceChangedBy.length).toBeGreaterThan(0);
  });

  it('made the project from the template for the new client record, and totalled with what is left out', async () => {
    const { found } = figures;
    const project = (await get(`/v1/projects/${found.newProject.id}`)).body as any;
    expect(project.clientId).toBe(found.newProject.clientId);
    expect(project.clientId).not.toBeNull();
    expect(found.newProject.sections).toBeGreaterThan(1);
    expect(found.clientTotal).toMatch(/^\d+$/);
    // What the total leaves out is exactly the lines whose price is still tbc or poa (the demo has some).
    const projects = (await get('/v1/projects?q=Harbour%20House')).body as any;
    const open = (await get(`/v1/projects/${projects.items[0].id}/items?priceState=tbc&priceState=poa&limit=1000`))
      .body as any;
    expect(found.leftOut.length).toBeGreaterThan(0);
    expect(found.leftOut.sort()).toEqual(open.items.map((l: any) => l.heading).sort());
  });
});
