import type { Trpc } from '../helpers/clients.js';
import { solid } from '../helpers/images.js';
import { uuid } from '../helpers/ids.js';
import { marginForms } from '../helpers/leaks.js';
import { createLine } from '../helpers/schedule.js';

/**
 * A project priced with figures the client must never see: trade prices of 98,765.4321 and 12,312.3123 at a markup of
 * 271.83%, so a leak into a PDF or a spreadsheet shows up in any formatting. Its pieces cover every price state, a
 * hand-set client price, a quantity of 2.5, chosen columns, a client-visible property, photographs (a red and a blue
 * JPEG on the console, a green one on the chandelier) and a removed piece. Minted once, so the live document shows the
 * photographs.
 */
export const TRADE4 = 987_654_321n;
export const MARKUP4 = 27_183n;
export const HAND_TRADE4 = 123_123_123n;
export const HAND_CLIENT4 = 200_000_000n;
export const QUANTITY4 = 25_000n;

export async function pricedProject(owner: Trpc, name = 'Harbour House') {
  const p = await owner.projects.createStudioProject.mutate({
    name,
    sections: ['Salon', 'Dining Room', 'Empty'],
    // Whom the documents are for: the PDF's cover names them.
    clientName: 'Eleanor and James Whitby',
    commandKey: uuid(),
  });
  const [salon, dining] = p.sections.map((s) => s.id) as [string, string];
  const line = (sectionId: string, fields: Record<string, unknown>) =>
    createLine(owner, { projectId: p.id, sectionId, ...fields } as never);
  const console_ = await line(salon, {
    heading: 'Gilded console',
    description: 'Carved limewood, water gilded.',
    brand: 'Atelier Roux',
    finish: 'Antique gold',
    dimensions: 'W 1400 × D 420 × H 860 mm',
    leadTimeDays: 84,
    quantity: { amount4: QUANTITY4.toString() },
    tradePrice: { state: 'set', amount4: TRADE4.toString() },
    markup: { ratio4: MARKUP4.toString() },
  });
  const chandelier = await line(salon, {
    heading: 'Murano chandelier',
    tradePrice: { state: 'set', amount4: HAND_TRADE4.toString() },
    clientPrice: { state: 'set', amount4: HAND_CLIENT4.toString() },
  });
  const rug = await line(salon, { heading: 'Silk rug', clientPrice: { state: 'tbc' } });
  const table = await line(dining, { heading: 'Dining table', clientPrice: { state: 'poa' } });
  const chairs = await line(dining, { heading: 'Dining chairs', clientPrice: { state: 'included' } });
  const curtains = await line(dining, { heading: 'Curtains', clientPrice: { state: 'by_others' } });
  const gone = await line(dining, {
    heading: 'Side table',
    tradePrice: { state: 'set', amount4: TRADE4.toString() },
    markup: { ratio4: MARKUP4.toString() },
  });
  await owner.schedule.archiveScheduleLine.mutate({ projectId: p.id, lineId: gone.id, expectedVersion: gone.version });

  const fire = await owner.properties.createCustomProperty.mutate({
    projectId: p.id,
    name: 'Fire rating',
    kind: 'single_choice',
    clientVisible: true,
    options: ['Class 0', 'Class 1'],
    commandKey: uuid(),
  });
  const now = await owner.schedule.getScheduleLine.query({ projectId: p.id, lineId: console_.id });
  await owner.properties.setCustomPropertyValue.mutate({
    projectId: p.id,
    lineId: console_.id,
    propertyId: fire.id,
    value: fire.options[1]!.id,
    expectedVersion: now.version,
  } as never);
  const settings = await owner.clientDocument.getClientDocumentSettings.query({ projectId: p.id });
  await owner.clientDocument.updateClientDocumentSettings.mutate({
    projectId: p.id,
    expectedVersion: settings.version,
    introduction: 'Our selection for the salon and the dining room, for your approval.',
    columns: ['brand', 'finish', 'dimensions', 'leadTime'],
    propertyIds: [fire.id],
  });

  const photo = async (lineId: string, colour: string) =>
    owner.photographs.addLinePhotograph.mutate({
      projectId: p.id,
      lineId,
      data: (await solid('jpeg', 800, 600, colour)).toString('base64'),
      mediaType: 'image/jpeg',
      filename: `${colour.slice(1)}.jpg`,
      commandKey: uuid(),
    });
  await photo(console_.id, '#d62828');
  await photo(console_.id, '#1d4ed8');
  await photo(chandelier.id, '#15803d');
  await owner.clientDocument.mintClientDocument.mutate({ projectId: p.id, commandKey: uuid() });
  return { id: p.id, salon, dining, lines: { console_, chandelier, rug, table, chairs, curtains, gone } };
}

/** Each amount the studio keeps to itself, in every formatting a leak could take (as the margin-leak test does). */
export const secretForms = (): string[] =>
  marginForms(
    { trade4: TRADE4, markup4: MARKUP4, quantity4: QUANTITY4, handTrade4: HAND_TRADE4, handClient4: HAND_CLIENT4 },
    [4, 2, 1, 0],
  );
