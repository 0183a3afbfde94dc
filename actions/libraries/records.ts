import { LIBRARY_PRODUCT_RECORD, LIBRARY_RECORD } from '../../src/domain/libraries/record.js';

/** A library as the API answers it (declared once, in src/domain/libraries/record.ts). */
export const Library = LIBRARY_RECORD.output;

/** A library product as the API answers it (declared once, in src/domain/libraries/record.ts). */
export const LibraryProduct = LIBRARY_PRODUCT_RECORD.output;
