import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import * as suppliers from '../../src/domain/suppliers/suppliers.js';
import { SUPPLIER } from '../../src/domain/suppliers/entity.js';
import { SupplierId } from '../shared/refs.js';
import { page } from '../../src/core/values.js';
import { SUPPLIER_RECORD } from '../../src/domain/suppliers/record.js';
import { Supplier } from './records.js';

/** Fake ids for examples: the shape the API mints, no meaning. */
const EX = { supplierId: '0000000000000000000000000s', otherSupplierId: '0000000000000000000000000t' } as const;
const inSupplier = { supplierId: SupplierId };

export const listSuppliers = defineAction({
  name: 'list_suppliers',
  kind: 'procedure',
  effect: 'query',
  domain: 'suppliers',
  summary: "List the studio's suppliers, by name.",
  description:
    "The studio's suppliers in name order (or sort by createdAt; '-' for descending), each with how many active lines name it. Find one by a piece of its name, account reference or email with q; archived suppliers are left out unless archived is include or only. Use a supplier's id as a line's supplierId.",
  intents: ['who do we buy from', 'show our suppliers', 'find a supplier'],
  scope: 'reference:read',
  input: suppliers.SUPPLIER_LISTING.input,
  output: page(Supplier),
  errors: [],
  example: { q: 'linen' },
  handler: (ctx, input) => suppliers.listSuppliers(ctx, input),
});

export const getSupplier = defineAction({
  name: 'get_supplier',
  kind: 'procedure',
  effect: 'query',
  domain: 'suppliers',
  summary: 'Read one supplier with its contact details and version.',
  description:
    'The supplier (archived or not) with its contact details, notes, how many active lines name it, and its version for update_supplier and archive_supplier.',
  scope: 'reference:read',
  input: z.strictObject(inSupplier),
  output: Supplier,
  errors: ['NOT_FOUND'],
  example: { supplierId: EX.supplierId },
  handler: (ctx, input) => suppliers.getSupplier(ctx, input.supplierId),
});

export const createSupplier = defineAction({
  name: 'create_supplier',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'suppliers',
  summary: 'Add a supplier the studio buys from.',
  description:
    'Creates a supplier in your studio; only name is required. Check list_suppliers with q first: two records for one supplier split its lines (merge_suppliers folds a duplicate back). Send a fresh commandKey so a retry never creates it twice.',
  intents: ['add a new supplier', 'record a maker or vendor', 'set up a supplier'],
  scope: 'reference:write',
  keyed: true,
  input: SUPPLIER_RECORD.createInput,
  output: Supplier,
  errors: [],
  example: {
    name: 'Loaf & Linen Co.',
    email: 'trade@loafandlinen.example',
    commandKey: '7c1e9b2a-4d3f-4a8e-9b6c-1f2e3d4c5b6a',
  },
  handler: (ctx, input) => suppliers.createSupplier(ctx, input),
});

export const updateSupplier = defineAction({
  name: 'update_supplier',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'suppliers',
  summary: "Change a supplier's name, contact details or notes.",
  description:
    'A merge patch: send only the fields to change (null clears email, phone, website or accountReference), with expectedVersion from your last read. Lines show the new name at once. Archived suppliers do not change (ARCHIVED).',
  scope: 'reference:write',
  versioned: { entity: SUPPLIER, idField: 'supplierId' },
  input: SUPPLIER_RECORD.patchInput.extend(inSupplier),
  output: Supplier,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { supplierId: EX.supplierId, expectedVersion: 2, phone: '+44 20 7946 0000' },
  handler: (ctx, { supplierId, ...patch }) => suppliers.updateSupplier(ctx, supplierId, patch),
});

export const archiveSupplier = defineAction({
  name: 'archive_supplier',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'suppliers',
  summary: 'Archive a supplier the studio no longer uses.',
  description:
    'Archives the supplier (never deleted). Lines that name it keep it, and the answer says how many (note); new lines and edits cannot choose it. To move those lines to another supplier instead, use merge_suppliers. Needs expectedVersion; a second archival answers ALREADY_ARCHIVED.',
  scope: 'reference:write',
  versioned: { entity: SUPPLIER, idField: 'supplierId' },
  input: z.strictObject(inSupplier),
  output: Supplier.extend({
    note: z.string().nullable().describe('Says how many active lines still name the supplier; null when none.'),
  }),
  errors: ['NOT_FOUND', 'ALREADY_ARCHIVED'],
  example: { supplierId: EX.supplierId, expectedVersion: 3 },
  handler: (ctx, input) => suppliers.archiveSupplier(ctx, input.supplierId),
});

export const mergeSuppliers = defineAction({
  name: 'merge_suppliers',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'suppliers',
  summary: 'Fold a duplicate supplier into the one to keep.',
  description:
    "Moves every line that names mergedSupplierId (in every project, archived lines too) to supplierId in one transaction, each line's version going up with its own audit event, and archives the merged supplier. Use it when one supplier was entered twice. Read both with get_supplier first and say which one is kept. Send a fresh commandKey so a retry never merges twice.",
  intents: ['these two suppliers are the same', 'combine duplicate suppliers', 'merge vendors'],
  scope: 'reference:write',
  keyed: true,
  input: z.strictObject({
    supplierId: SupplierId.describe('The supplier to keep.'),
    mergedSupplierId: SupplierId.describe('The duplicate: its lines move to supplierId, then it is archived.'),
  }),
  output: z.strictObject({
    kept: Supplier,
    merged: Supplier,
    linesMoved: z.int().min(0).describe('Lines that now name the kept supplier.'),
  }),
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    supplierId: EX.supplierId,
    mergedSupplierId: EX.otherSupplierId,
    commandKey: '0d9c8b7a-6f5e-4d3c-8b2a-19f8e7d6c5b4',
  },
  handler: (ctx, input) => suppliers.mergeSuppliers(ctx, input.supplierId, input.mergedSupplierId),
});
