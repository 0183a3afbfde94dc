import { z } from 'zod';
import { defineRecord, field, type TableOf } from '../kit/record.js';

/** A supplier: studio-level reference data that lines name. Name is the only field a create needs. */
export const SUPPLIER_RECORD = defineRecord({
  name: 'Supplier',
  description: 'A supplier: studio-level reference data that lines name.',
  table: 'suppliers',
  owner: 'studio',
  archivable: true,
  fields: {
    name: field(z.string().trim().min(1).max(200).describe('As the studio knows them, e.g. "Loaf & Linen Co.".'), {
      write: 'always',
      required: true,
    }),
    email: field(z.string().trim().max(320).nullable().describe('Where orders and enquiries go.'), { write: 'always' }),
    phone: field(z.string().trim().max(60).nullable(), { write: 'always' }),
    website: field(z.string().trim().max(2000).nullable(), { write: 'always' }),
    accountReference: field(z.string().trim().max(100).nullable().describe("The studio's account number with them."), {
      write: 'always',
    }),
    notes: field(z.string().max(20_000).describe('Trade terms, contacts, anything the studio wants to remember.'), {
      write: 'always',
      default: '',
    }),
  },
  computed: {
    lineCount: z.int().min(0).describe('Active schedule lines naming this supplier, in any project.'),
  },
});

export type SupplierRow = TableOf<typeof SUPPLIER_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    suppliers: SupplierRow;
  }
}
