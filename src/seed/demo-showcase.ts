import { ACTIONS_BY_NAME } from '../../actions/index.js';
import { invoke, type Runtime } from '../core/invoke.js';
import { seedDemoCharges } from './demo-charges.js';
import { seedDemoOrder } from './demo-orders.js';

/**
 * What the demo studio shows a client, made on its first start through the real actions (the same path an agent
 * takes): photographs on several Harbour House lines, two custom properties with values, the client document's
 * settings, a minted version, a few charges (src/seed/demo-charges.ts), one live share of it, and a purchase order
 * issued and partly delivered. Returns the share's path, `/s/<token>`, shown once.
 * Tests seed the bare demo (seedDemo) and build these themselves, so their counts stay their own.
 */
export async function seedDemoShowcase(rt: Runtime, token: string, projectId: string): Promise<string> {
  /** An action's answer, read for the few fields the demo needs. */
  interface Answer {
    id: string;
    version: number;
    items: Array<{ id: string; heading: string }>;
    options: Array<{ id: string }>;
    url: string;
  }
  const call = async (name: string, input: Record<string, unknown>) =>
    (await invoke(rt, ACTIONS_BY_NAME.get(name)!, input, { token, surface: 'trpc' })) as Answer;
  const key = () => ({ commandKey: crypto.randomUUID() });

  const lines = (await call('list_schedule_lines', { projectId })).items;
  const pictured = lines.filter((_, i) => i % 6 === 0);
  for (const [i, line] of pictured.entries()) {
    await call('add_line_photograph', {
      projectId,
      lineId: line.id,
      data: (await demoPicture(i)).toString('base64'),
      mediaType: 'image/jpeg',
      filename: `${line.heading.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.jpg`,
      ...key(),
    });
  }

  const fire = await call('create_custom_property', {
    projectId,
    name: 'Fire rating',
    kind: 'single_choice',
    clientVisible: true,
    options: ['BS 5852 Crib 5', 'BS 5852 Ignition 0/1', 'Not applicable'],
    ...key(),
  });
  await call('create_custom_property', { projectId, name: 'Sample requested', kind: 'yes_no', ...key() });
  for (const line of lines.slice(0, 6)) {
    const current = await call('get_schedule_line', { projectId, lineId: line.id });
    await call('set_custom_property_value', {
      projectId,
      lineId: line.id,
      propertyId: fire.id,
      value: fire.options[0]!.id,
      expectedVersion: current.version,
    });
  }

  const settings = await call('get_client_document_settings', { projectId });
  await call('update_client_document_settings', {
    projectId,
    expectedVersion: settings.version,
    title: 'Harbour House: furniture, lighting and finishes',
    introduction:
      'The pieces we propose for each room, with photographs. Prices are before VAT; anything marked to be confirmed will follow.',
    columns: ['brand', 'finish', 'dimensions', 'leadTime'],
    propertyIds: [fire.id],
    branding: { accentColour: '#2f5d62' },
  });
  await call('mint_client_document', { projectId, ...key() });
  await seedDemoCharges(rt, token, projectId);
  const share = await call('issue_project_share', {
    projectId,
    recipientEmail: 'marsden.family@example.com',
    // The demo is made by whoever started the server for the first time: the share is theirs to make.
    confirm: true,
    ...key(),
  });
  await seedDemoOrder(call as never, projectId);
  return new URL(share.url).pathname;
}

const COLOURS = ['#b5835a', '#6f8f72', '#c9b79c', '#4f6d7a', '#a0522d', '#8c7aa9', '#d4a373', '#5e6472'];

/** A made-up product photograph: a soft backdrop with a simple shape, 1,200 × 900, as a camera JPEG would be. */
async function demoPicture(i: number): Promise<Buffer> {
  const colour = COLOURS[i % COLOURS.length];
  const shape =
    i % 2 === 0
      ? `<rect x="300" y="330" width="600" height="360" rx="60" fill="${colour}"/><rect x="340" y="690" width="40" height="90" fill="#3b3b3b"/><rect x="820" y="690" width="40" height="90" fill="#3b3b3b"/>`
      : `<circle cx="600" cy="380" r="170" fill="${colour}"/><rect x="585" y="550" width="30" height="230" fill="#3b3b3b"/><rect x="480" y="770" width="240" height="30" rx="10" fill="#3b3b3b"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f4efe6"/><stop offset="1" stop-color="#ddd3c4"/></linearGradient></defs><rect width="1200" height="900" fill="url(#g)"/>${shape}</svg>`;
  // Loaded here, on the first start only: no other start needs it. Without libvips' cache (as src/files/images.ts
  // runs it): the server would otherwise keep the rendered pictures' memory for its whole life (issue 27).
  const { default: sharp } = await import('sharp');
  sharp.cache(false);
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}
