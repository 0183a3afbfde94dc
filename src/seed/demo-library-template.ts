import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { newId } from '../core/ids.js';
import { LIBRARY_PRODUCT_RECORD, LIBRARY_RECORD } from '../domain/libraries/record.js';
import { TEMPLATE_RECORD, type TemplateSection } from '../domain/templates/record.js';

/** The demo studio's library: lighting it has specified again and again, from its lighting supplier. */
const LIGHTING = {
  name: 'Lighting we trust',
  description: 'Pendants, wall lights and lamps we have specified on several jobs without trouble.',
  supplier: 'Lumen House',
  products: [
    {
      heading: 'Opal globe pendant',
      description: 'Hand-blown opal glass globe on a braided flex; soft, even light over islands and tables.',
      brand: 'Lumen',
      productCode: 'LM-GLOBE-300',
      finish: 'Opal glass, aged brass gallery',
      dimensions: 'Ø 300 mm, drop to 1500 mm',
      leadTimeDays: 28,
      trade4: '2890000',
      retail4: '4500000',
    },
    {
      heading: 'Swing-arm wall light',
      description: 'Bedside reading light with a linen shade and a switch on the arm.',
      brand: 'Lumen',
      productCode: 'LM-SWING-WL',
      finish: 'Aged brass, natural linen shade',
      dimensions: 'Reach 450–700 mm',
      leadTimeDays: 21,
      trade4: '1750000',
      retail4: '2750000',
    },
    {
      heading: 'Tripod floor lamp',
      description: 'Turned oak tripod with a drum shade; a dimmer on the flex.',
      brand: 'Lumen',
      productCode: 'LM-TRIPOD-FL',
      finish: 'Oiled oak, oatmeal linen drum',
      dimensions: 'H 1600 mm, shade Ø 450 mm',
      leadTimeDays: 35,
      trade4: '4350000',
      retail4: '6950000',
    },
    {
      heading: 'Linear chandelier',
      description: 'Five-light linear chandelier for long dining tables; dimmable.',
      brand: 'Lumen',
      productCode: 'LM-LINEAR-5',
      finish: 'Bronze',
      dimensions: 'L 1400 mm',
      leadTimeDays: 56,
      trade4: null,
      retail4: '19500000',
    },
  ],
} as const;

/** The demo studio's template: the rooms and first lines of a three-bedroom family house. */
function threeBedroomHouse(unit: (symbol: string) => string): TemplateSection[] {
  const line = (heading: string, description = '', amount4 = '10000', symbol = 'ea') => ({
    heading,
    description,
    quantity: { amount4, unitId: unit(symbol) },
    status: 'draft' as const,
  });
  return [
    {
      title: 'Living Room',
      lines: [line('Sofa', 'Three-seat'), line('Armchairs', '', '20000'), line('Rug'), line('Floor lamp')],
    },
    { title: 'Kitchen', lines: [line('Pendant lights over island', '', '30000'), line('Bar stools', '', '30000')] },
    { title: 'Dining', lines: [line('Dining table'), line('Dining chairs', '', '60000')] },
    {
      title: 'Main Bedroom',
      lines: [line('Bed'), line('Bedside tables', '', '20000'), line('Curtains', '', '60000', 'm')],
    },
    { title: 'Bedroom 2', lines: [line('Double bed'), line('Wardrobe')] },
    { title: 'Bedroom 3', lines: [line('Single bed'), line('Desk')] },
    { title: 'Bathroom', lines: [line('Basin mixer'), line('Towel rail')] },
    { title: 'Hallway', lines: [line('Console table'), line('Mirror')] },
  ];
}

/**
 * Seeds the demo studio's reference data for libraries and templates: one library with a few products and one
 * project template. Called by `seedDemo` inside its transaction.
 */
export async function seedDemoLibraryAndTemplate(
  tx: Kysely<Database>,
  studio: { studioId: string; now: string; unitIds: Record<string, string>; supplierIds: Map<string, string> },
) {
  const { studioId, now } = studio;
  const libraryId = newId();
  await tx
    .insertInto('libraries')
    .values(
      LIBRARY_RECORD.newRow(
        { name: LIGHTING.name, description: LIGHTING.description },
        { id: libraryId, ownerId: studioId, now },
      ),
    )
    .execute();
  const supplierId = studio.supplierIds.get(LIGHTING.supplier) ?? null;
  const products = LIGHTING.products.map(({ trade4, retail4, ...p }) =>
    LIBRARY_PRODUCT_RECORD.newRow(
      {
        ...p,
        libraryId,
        supplierId,
        currency: 'GBP',
        tradePrice: trade4 === null ? { state: 'poa' } : { state: 'set', amount4: trade4 },
        retailPrice: { state: 'set', amount4: retail4 },
      },
      { id: newId(), ownerId: studioId, now },
    ),
  );
  await tx.insertInto('library_products').values(products).execute();
  const unit = (symbol: string) => {
    const id = studio.unitIds[symbol];
    if (!id) throw new Error(`The demo studio has no unit ${symbol}.`);
    return id;
  };
  await tx
    .insertInto('project_templates')
    .values(
      TEMPLATE_RECORD.newRow(
        {
          name: 'Three-bedroom house',
          description: 'A family house: living, kitchen and dining, three bedrooms, a bathroom and the hallway.',
          sections: threeBedroomHouse(unit),
        },
        { id: newId(), ownerId: studioId, now },
      ),
    )
    .execute();
}
