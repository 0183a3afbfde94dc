import { z } from 'zod';
import { defineRecord, field, type TableOf } from '../kit/record.js';

/** A library: a studio's named collection of products. Name is the only field a create needs. */
export const LIBRARY_RECORD = defineRecord({
  name: 'Library',
  description: "A library: a studio's named collection of products it specifies again and again.",
  table: 'libraries',
  owner: 'studio',
  archivable: true,
  fields: {
    name: field(z.string().trim().min(1).max(200).describe('What the collection is, e.g. "Lighting we trust".'), {
      write: 'always',
      required: true,
    }),
    description: field(z.string().max(2000).describe('What belongs in it and when to reach for it.'), {
      write: 'always',
      default: '',
    }),
  },
  computed: {
    productCount: z.int().min(0).describe('Products in it that have not been removed.'),
  },
});

export type LibraryRow = TableOf<typeof LIBRARY_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    libraries: LibraryRow;
  }
}
