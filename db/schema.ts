/**
 * The database as kysely types it. Each table's type is declared by the module that owns it (a domain's `record.ts`,
 * or the module that alone reads a table nobody answers as a record), which adds it here by augmenting this interface:
 *
 *   declare module '../../../db/schema.js' { interface Database { suppliers: SupplierRow } }
 *
 * so a new table touches its migration and its own domain, never this file. Booleans are 0/1, times are RFC 3339
 * strings, money columns are scale-4 integer strings; closed sets are the literal unions of ./vocabulary.ts.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each owning module's declaration merging (see above).
export interface Database {}
