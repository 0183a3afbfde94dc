import type { Trpc } from '../helpers/clients.js';
import type { TestApp } from '../helpers/in-process.js';
import { sidewaysCameraJpeg, solid } from '../helpers/images.js';
import { uuid } from '../helpers/ids.js';
import { marginForms } from '../helpers/leaks.js';
import { createLine } from '../helpers/schedule.js';
import { photographsPath, postFile } from '../helpers/uploads.js';

/**
 * A project as a studio sends it to a client, built through the real API: two sections of priced pieces (a trade
 * price of 98,765.4321 at a markup of 271.83%, a hand-set client price over a trade price of 12,312.3123, and pieces
 * to be confirmed, on application and included), real photographs uploaded over HTTP (made with sharp, one a sideways
 * camera JPEG), settings with a title, an introduction, columns and an accent colour, a mint, and a share.
 * After the mint one piece is removed and one photograph is added, so the shared document differs from the schedule
 * exactly as the spec says: pieces live, photographs as minted.
 */

export const TRADE4 = 987_654_321n;
export const MARKUP4 = 27_183n;
export const QUANTITY4 = 20_000n;
export const HAND_TRADE4 = 123_123_123n;
export const HAND_CLIENT4 = 200_000_000n;
export const ACCENT = '#7a4b2a';

/**
 * Every formatting of every amount the studio keeps to itself: trade prices, markups and margins, raw and as
 * decimals at 4, 2 and 1 places, with and without thousands separators. Forms shorter than 5 digits would match by
 * chance (a quantity, a year), so they are left out; these are long enough to mean a leak.
 */
export const secretForms = (): string[] =>
  marginForms({
    trade4: TRADE4,
    markup4: MARKUP4,
    quantity4: QUANTITY4,
    handTrade4: HAND_TRADE4,
    handClient4: HAND_CLIENT4,
  });

export interface SharedProject {
  projectId: string;
  /** Line ids by name. */
  lines: Record<'sofa' | 'lamp' | 'sideTable' | 'chandelier' | 'rug' | 'wallpaper' | 'curtains', string>;
  /** Photographs the latest mint froze and the document shows, and ones it must not serve. */
  photographs: { shown: string[]; addedAfterMint: string; onRemovedPiece: string };
  /** The share's token, and its page's path on the test app. */
  token: string;
  path: string;
}

/** An HTTP upload of a photograph onto a line, as a studio's app makes it; answers the photograph's id. */
export async function uploadPhotograph(app: TestApp, projectId: string, lineId: string, bytes: Buffer, type: string) {
  const res = await postFile(app, photographsPath(projectId, lineId, 'photo'), bytes, type);
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** A fresh share of the project's client document: its token and the page's path. */
export async function issueShare(owner: Trpc, projectId: string, expiresInDays?: number) {
  const share = await owner.shares.issueProjectShare.mutate({
    projectId,
    commandKey: crypto.randomUUID(),
    confirm: true,
    ...(expiresInDays ? { expiresInDays } : {}),
  });
  const path = new URL(share.url!).pathname;
  return { token: share.token!, path, shareId: share.id };
}

export async function buildSharedProject(app: TestApp, owner: Trpc): Promise<SharedProject> {
  const project = await owner.projects.createStudioProject.mutate({
    name: 'Marsden townhouse',
    sections: ['Drawing room', 'Principal bedroom'],
    commandKey: uuid(),
  });
  const projectId = project.id;
  const [drawing, bedroom] = project.sections.map((s) => s.id) as [string, string];
  const line = async (sectionId: string, fields: Record<string, unknown>) =>
    (await createLine(owner, { projectId, sectionId, ...(fields as { heading: string }) })).id;
  const derived = {
    tradePrice: { state: 'set', amount4: TRADE4.toString() },
    markup: { ratio4: MARKUP4.toString() },
  } as const;
  const lines = {
    sofa: await line(drawing, {
      heading: 'Three-seat sofa in washed linen',
      description: 'Deep seat, feather-wrapped cushions, loose covers.',
      brand: 'Howe & Co',
      finish: 'Washed linen, oatmeal',
      dimensions: 'W 2400 × D 1000 × H 850 mm',
      leadTimeDays: 56,
      quantity: { amount4: QUANTITY4.toString() },
      ...derived,
    }),
    lamp: await line(drawing, { heading: 'Alabaster table lamp', brand: 'Lumen Atelier', ...derived }),
    sideTable: await line(drawing, { heading: 'Walnut side table', ...derived }),
    chandelier: await line(bedroom, {
      heading: 'Murano glass chandelier',
      tradePrice: { state: 'set', amount4: HAND_TRADE4.toString() },
      clientPrice: { state: 'set', amount4: HAND_CLIENT4.toString() },
    }),
    rug: await line(bedroom, { heading: 'Hand-knotted wool rug', clientPrice: { state: 'tbc' } }),
    wallpaper: await line(bedroom, { heading: 'Hand-painted silk wallpaper', clientPrice: { state: 'poa' } }),
    curtains: await line(bedroom, { heading: 'Interlined curtains', clientPrice: { state: 'included' } }),
  };
  const settings = await owner.clientDocument.getClientDocumentSettings.query({ projectId });
  await owner.clientDocument.updateClientDocumentSettings.mutate({
    projectId,
    expectedVersion: settings.version,
    title: 'Marsden townhouse: furniture and lighting',
    introduction:
      'Dear Ann and Tom,\n\nHere is the furniture and lighting we discussed, with photographs of each piece.',
    columns: ['brand', 'finish', 'dimensions', 'leadTime'],
    branding: { accentColour: ACCENT },
  });

  const shown = [
    await uploadPhotograph(app, projectId, lines.sofa, await solid('jpeg', 1200, 800, '#b08d57'), 'image/jpeg'),
    await uploadPhotograph(app, projectId, lines.sofa, await sidewaysCameraJpeg(), 'image/jpeg'),
    await uploadPhotograph(app, projectId, lines.lamp, await solid('png', 800, 800, '#e8e2d0'), 'image/png'),
    await uploadPhotograph(app, projectId, lines.chandelier, await solid('webp', 900, 1200, '#5d7a8c'), 'image/webp'),
  ];
  const onRemovedPiece = await uploadPhotograph(
    app,
    projectId,
    lines.sideTable,
    await solid('jpeg', 640, 480, '#6b4226'),
    'image/jpeg',
  );
  await owner.clientDocument.mintClientDocument.mutate({ projectId, commandKey: uuid() });

  // After the mint: a piece removed (its frozen photograph is no longer shown) and a photograph added (not minted).
  const side = await owner.schedule.getScheduleLine.query({ projectId, lineId: lines.sideTable });
  await owner.schedule.archiveScheduleLine.mutate({ projectId, lineId: side.id, expectedVersion: side.version });
  const addedAfterMint = await uploadPhotograph(
    app,
    projectId,
    lines.lamp,
    await solid('jpeg', 300, 300, '#000000'),
    'image/jpeg',
  );
  const { token, path } = await issueShare(owner, projectId, 30);
  return { projectId, lines, photographs: { shown, addedAfterMint, onRemovedPiece }, token, path };
}
