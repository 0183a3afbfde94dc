import type { SpecificationClientField } from '../../../db/vocabulary.js';
import { clientWords } from '../documents/client-words.js';
import { quantityText } from '../documents/figures.js';
import type { ClientSpecification } from './client-view.js';
import type { SpecificationDimensions } from './record.js';

/** "W 2,000 × D 950 × H 740 mm": the measures given, in their unit, never through a float. */
export function dimensionsText(d: SpecificationDimensions): string {
  const parts = [
    ['W', d.width4],
    ['D', d.depth4],
    ['H', d.height4],
  ].flatMap(([label, v]) => (v ? [`${label} ${quantityText(v)}`] : []));
  return `${parts.join(' × ')} ${d.unit}`;
}

/** How each client-visible field is headed where a client reads it, and its value in words. */
const SHOWN: { [K in SpecificationClientField]: [string, (v: NonNullable<ClientSpecification[K]>) => string] } = {
  category: ['Category', (v) => v.charAt(0).toUpperCase() + v.slice(1).replace(/_/g, ' ')],
  manufacturer: ['Manufacturer', (v) => v],
  model: ['Model', (v) => v],
  sku: ['Product code', (v) => v],
  description: ['Description', (v) => v],
  dimensions: ['Dimensions', dimensionsText],
  materials: ['Materials', (v) => v.join(', ')],
  finishes: ['Finishes', (v) => v.join(', ')],
  colours: ['Colours', (v) => v.join(', ')],
  careNotes: ['Care', (v) => v],
  installationNotes: ['Installation', (v) => v],
  leadTimeDays: ['Lead time', (v) => clientWords().leadTime(v)],
  links: ['Links', (v) => v.map((l) => `${l.label}: ${l.url}`).join('; ')],
};

/**
 * A specification on a piece as label/value rows for a document or the share page: only what the client projection
 * carries (the fields the studio marked client-visible), in the vocabulary's order.
 */
export function specificationRows(s: ClientSpecification): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  for (const [field, [label, text]] of Object.entries(SHOWN) as Array<
    [SpecificationClientField, [string, (v: never) => string]]
  >) {
    const value = s[field];
    if (value !== undefined) rows.push([label, text(value as never)]);
  }
  return rows;
}
