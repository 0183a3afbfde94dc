import { z } from 'zod';
import { Id, named, Timestamp } from '../../src/core/values.js';

/** What a studio keeps about a supplier; name is the only field required to create one. */
export const SupplierFields = z.strictObject({
  name: z.string().trim().min(1).max(200).describe('As the studio knows them, e.g. "Loaf & Linen Co.".'),
  email: z.string().trim().max(320).nullable().describe('Where orders and enquiries go.'),
  phone: z.string().trim().max(60).nullable(),
  website: z.string().trim().max(2000).nullable(),
  accountReference: z.string().trim().max(100).nullable().describe("The studio's account number with them."),
  notes: z.string().max(20_000).describe('Trade terms, contacts, anything the studio wants to remember.'),
});

export const Supplier = z
  .strictObject({
    id: Id,
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    website: z.string().nullable(),
    accountReference: z.string().nullable(),
    notes: z.string(),
    lineCount: z.int().min(0).describe('Active schedule lines naming this supplier, in any project.'),
    version: z.int().min(1),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archived_at: Timestamp.nullable().describe('Set when archived; suppliers are never deleted.'),
  })
  .describe('A supplier: studio-level reference data that lines name.');
named(Supplier, 'Supplier');
