import { auditKind } from '../../core/audit-kinds.js';
import { defineEntity } from '../../core/entities.js';

/** A library: a studio's named collection of products (studio-level reference data). */
export const LIBRARY = defineEntity({
  name: 'library',
  table: 'libraries',
  owner: { column: 'studio_id', level: 'studio' },
});

/** A product kept in a library; the studio's, named by its own id (the library is a field of it). */
export const LIBRARY_PRODUCT = defineEntity({
  name: 'library product',
  table: 'library_products',
  owner: { column: 'studio_id', level: 'studio' },
});

/** The kinds of record this domain's audit events are about (see src/core/audit-kinds.ts). */
export const LIBRARY_AUDIT_KIND = auditKind('library');
export const LIBRARY_PRODUCT_AUDIT_KIND = auditKind('library_product');
declare module '../../core/audit-kinds.js' {
  interface AuditTargetKinds {
    library: typeof LIBRARY_AUDIT_KIND;
    library_product: typeof LIBRARY_PRODUCT_AUDIT_KIND;
  }
}
