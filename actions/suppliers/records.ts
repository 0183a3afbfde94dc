import { SUPPLIER_RECORD } from '../../src/domain/suppliers/record.js';

/** A supplier as the API answers it (declared once, in src/domain/suppliers/record.ts). */
export const Supplier = SUPPLIER_RECORD.output;
