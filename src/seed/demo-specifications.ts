import type { LineRow } from '../domain/schedule/record.js';
import type { Db } from '../../db/store.js';
import { newId } from '../core/ids.js';
import { SPECIFICATION_RECORD } from '../domain/specifications/record.js';
import type { CreateFields } from '../domain/kit/record.js';

type DemoSpecification = CreateFields<typeof SPECIFICATION_RECORD.spec.fields> & {
  /** The headings of the Harbour House lines it is attached to. */
  onLines: readonly string[];
};

/** A handful of the demo studio's product sheets (invented, like everything in the demo), some on Harbour House lines. */
export const DEMO_SPECIFICATIONS: readonly DemoSpecification[] = [
  {
    name: 'Hartwell Linen Three-Seat Sofa',
    category: 'seating',
    manufacturer: 'Hartwell',
    model: 'Aldeburgh 3',
    sku: 'HW-ALD-3S',
    description: 'Deep-seated three-seat sofa with loose feather-wrapped cushions and a kiln-dried beech frame.',
    dimensions: { unit: 'mm', width4: '23000000', depth4: '10000000', height4: '8200000' },
    materials: ['kiln-dried beech', 'feather-wrapped foam', 'washed linen'],
    finishes: ['loose cover'],
    colours: ['oatmeal'],
    careNotes: 'Loose covers dry-clean only. Plump cushions weekly.',
    installationNotes: 'Feet screw on; needs a 900 mm clear doorway.',
    leadTimeDays: 70,
    links: [{ label: 'Product page', url: 'https://hartwell.example/aldeburgh' }],
    clientFields: ['description', 'dimensions', 'materials', 'colours', 'careNotes'],
    notes: 'Trade account 4471; 12% off list on orders over three pieces.',
    onLines: ['Three-seat sofa'],
  },
  {
    name: 'Round Oak Coffee Table',
    category: 'tables',
    manufacturer: 'Oak & Iron',
    model: 'Mill Round 110',
    sku: 'OI-MR-110',
    description: 'Round coffee table in solid oak on a cross base.',
    dimensions: { unit: 'mm', width4: '11000000', depth4: '11000000', height4: '3500000' },
    materials: ['solid oak'],
    finishes: ['natural oiled'],
    colours: ['natural'],
    careNotes: 'Re-oil twice a year; wipe spills at once.',
    leadTimeDays: 42,
    clientFields: ['description', 'dimensions', 'materials', 'finishes', 'careNotes'],
    notes: 'Ask for the 5% showroom discount.',
    onLines: ['Coffee table'],
  },
  {
    name: 'Aged Brass Floor Lamp',
    category: 'lighting',
    manufacturer: 'Lumen',
    model: 'Arc 185',
    sku: 'LU-ARC-185-AB',
    description: 'Floor lamp with a linen drum shade and a weighted base.',
    dimensions: { unit: 'mm', width4: null, depth4: null, height4: '18500000' },
    materials: ['brass', 'linen'],
    finishes: ['aged brass'],
    colours: ['ivory shade'],
    installationNotes: 'E27 lamp, 8 W LED maximum; inline dimmer.',
    leadTimeDays: 28,
    clientFields: ['dimensions', 'finishes', 'installationNotes'],
    onLines: ['Floor lamp'],
  },
  {
    name: 'Smoked Glass Pendant',
    category: 'lighting',
    manufacturer: 'Lumen',
    model: 'Bell 25',
    sku: 'LU-BELL-25-SG',
    description: 'Blown smoked-glass pendant with brass gallery and adjustable drop.',
    dimensions: { unit: 'mm', width4: '2500000', depth4: '2500000', height4: '3000000' },
    materials: ['blown glass', 'brass'],
    finishes: ['smoked glass', 'brass fittings'],
    colours: ['smoke'],
    installationNotes: 'Needs a ceiling rose with a strain-relief cord grip.',
    leadTimeDays: 35,
    onLines: ['Pendant lights over island'],
  },
  {
    name: 'Aged Brass Bridge Mixer Tap',
    category: 'kitchen',
    manufacturer: 'Perrin & Rowe',
    model: 'Ionian 4319',
    sku: 'PR-4319-AB',
    description: 'Two-handle bridge mixer with a swivel spout.',
    materials: ['solid brass'],
    finishes: ['aged brass'],
    careNotes: 'Living finish: it darkens with use. Clean with warm soapy water only.',
    leadTimeDays: 21,
    clientFields: ['finishes', 'careNotes'],
    onLines: ['Kitchen tap'],
  },
  {
    name: 'Zellige Splashback Tile',
    category: 'tiles',
    manufacturer: 'Zellige Co.',
    sku: 'ZC-100-WW',
    description: 'Hand-cut glazed terracotta tile; every tile differs.',
    dimensions: { unit: 'mm', width4: '1000000', depth4: null, height4: '1000000' },
    materials: ['glazed terracotta'],
    colours: ['weathered white'],
    installationNotes: 'Lay with 1–2 mm joints; seal before grouting.',
    onLines: [],
  },
];

/** The demo specifications, and their attachments to the Harbour House lines they name, in order. */
export async function seedDemoSpecifications(
  tx: Db,
  at: { studioId: string; projectId: string; now: string; lines: readonly LineRow[] },
) {
  for (const { onLines, ...fields } of DEMO_SPECIFICATIONS) {
    const row = SPECIFICATION_RECORD.newRow(fields, { id: newId(), ownerId: at.studioId, now: at.now });
    await tx.insertInto('specifications').values(row).execute();
    for (const heading of onLines) {
      const line = at.lines.find((l) => l.heading === heading);
      if (!line) throw new Error(`The demo specification ${fields.name} names a line ${heading} that is not there.`);
      await tx
        .insertInto('line_specifications')
        .values({
          line_id: line.id,
          specification_id: row.id,
          project_id: at.projectId,
          position: 1,
          attached_at: at.now,
        })
        .execute();
    }
  }
}
