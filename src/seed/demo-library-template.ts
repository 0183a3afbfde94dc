import type { Kysely } from 'kysely';
import type { Database, LibraryProductRow } from '../../db/schema.js';
import { newId } from '../core/ids.js';

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

/**
 * Seeds the demo studio's reference data for libraries: one library with a few products. Called by `seedDemo` inside
 * its transaction.
 */
export async function seedDemoLibraryAndTemplate(
  tx: Kysely<Database>,
  studio: { studioId: string; now: string; unitIds: Record<string, string>; supplierIds: Map<string, string> },
) {
  const { studioId, now } = studio;
  const libraryId = newId();
  await tx
    .insertInto('libraries')
    .values({
      id: libraryId,
      studio_id: studioId,
      name: LIGHTING.name,
      description: LIGHTING.description,
      archived_at: null,
      created_at: now,
      updated_at: now,
      version: 1,
    })
    .execute();
  const products = LIGHTING.products.map(
    (p): LibraryProductRow => ({
      id: newId(),
      studio_id: studioId,
      library_id: libraryId,
      heading: p.heading,
      description: p.description,
      supplier_id: studio.supplierIds.get(LIGHTING.supplier) ?? null,
      brand: p.brand,
      product_code: p.productCode,
      url: null,
      finish: p.finish,
      dimensions: p.dimensions,
      lead_time_days: p.leadTimeDays,
      currency: 'GBP',
      trade_state: p.trade4 === null ? 'poa' : 'set',
      trade4: p.trade4,
      retail_state: 'set',
      retail4: p.retail4,
      source_project_id: null,
      source_line_id: null,
      archived_at: null,
      created_at: now,
      updated_at: now,
      version: 1,
    }),
  );
  await tx.insertInto('library_products').values(products).execute();
}
