import { defineEntity } from '../../core/entities.js';

/**
 * A project's client document settings, for the version check of update_client_document_settings (idField
 * `projectId`: a project has one set). Its table is a view that gives every project a version, 1 while nothing was
 * saved, so the first update is checked like every later one.
 */
export const CLIENT_DOCUMENT_SETTINGS = defineEntity({
  name: 'client document settings record',
  table: 'client_document_settings_versions',
  owner: { column: 'project_id', level: 'project' },
});
