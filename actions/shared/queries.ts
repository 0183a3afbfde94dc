/** The parts every list query takes: declared with listings in the domain kit (src/domain/kit/listing.ts). */
export { archivedFilter, pageQuery } from '../../src/domain/kit/listing.js';
