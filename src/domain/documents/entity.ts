import { defineEntity } from '../../core/entities.js';

/** A document made from a project (a PDF, an export, a package): never addressable outside its project. */
export const DOCUMENT = defineEntity({
  name: 'document',
  table: 'documents',
  owner: { column: 'project_id', level: 'project' },
});

/** One email delivery of a project's document. */
export const DOCUMENT_DELIVERY = defineEntity({
  name: 'delivery',
  table: 'document_deliveries',
  owner: { column: 'project_id', level: 'project' },
});
