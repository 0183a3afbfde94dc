import { z } from 'zod';
import { Id, named, Timestamp } from '../../src/core/values.js';

/** What a studio keeps about a client; name is the only field required to create one. */
export const ClientFields = z.strictObject({
  name: z.string().trim().min(1).max(200).describe('As the studio addresses them, e.g. "The Marsden family".'),
  email: z.string().trim().max(320).nullable(),
  phone: z.string().trim().max(60).nullable(),
  billingAddress: z
    .string()
    .trim()
    .max(2000)
    .nullable()
    .describe('Plain text, one line per address line, as invoices should show it.'),
  notes: z.string().max(20_000).describe('Preferences, contacts, anything the studio wants to remember.'),
});

export const Client = z
  .strictObject({
    id: Id,
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    billingAddress: z.string().nullable(),
    notes: z.string(),
    version: z.int().min(1),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archived_at: Timestamp.nullable().describe('Set when archived; clients are never deleted.'),
  })
  .describe('A client: studio-level reference data that projects name.');
named(Client, 'Client');
