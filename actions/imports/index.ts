// The imports domain: spreadsheets on their way into a schedule (upload, preview, commit, cancel) and saved mappings.
// Its jobs (an import's preview and commit, a paste) are imported with its actions, so that every process that loads
// the catalog, as every process that runs workers does, can run them; create_import (v1/) and paste_schedule_lines
// (schedule/) start two of them from other folders.
import '../../src/domain/imports/jobs.js';
export * from './upload.js';
export * from './imports.js';
export * from './preview.js';
export * from './commit.js';
export * from './mappings.js';
