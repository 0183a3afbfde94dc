// The imports domain: spreadsheets on their way into a schedule (upload, preview, commit, cancel) and saved mappings.
export * from './upload.js';
export * from './imports.js';
export * from './preview.js';
export * from './commit.js';
export * from './mappings.js';
