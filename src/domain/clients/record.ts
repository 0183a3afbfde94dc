import { z } from 'zod';
import { defineRecord, field, type TableOf } from '../kit/record.js';

/** A client: studio-level reference data that projects name. Name is the only field a create needs. */
export const CLIENT_RECORD = defineRecord({
  name: 'Client',
  description: 'A client: studio-level reference data that projects name.',
  table: 'clients',
  owner: 'studio',
  archivable: true,
  fields: {
    name: field(
      z.string().trim().min(1).max(200).describe('As the studio addresses them, e.g. "The Marsden family".'),
      {
        write: 'always',
        required: true,
      },
    ),
    email: field(z.string().trim().max(320).nullable(), { write: 'always' }),
    phone: field(z.string().trim().max(60).nullable(), { write: 'always' }),
    billingAddress: field(
      z
        .string()
        .trim()
        .max(2000)
        .nullable()
        .describe('Plain text, one line per address line, as invoices should show it.'),
      { write: 'always' },
    ),
    notes: field(z.string().max(20_000).describe('Preferences, contacts, anything the studio wants to remember.'), {
      write: 'always',
      default: '',
    }),
  },
});

export type ClientRow = TableOf<typeof CLIENT_RECORD>;

declare module '../../../db/schema.js' {
  interface Database {
    clients: ClientRow;
  }
}
