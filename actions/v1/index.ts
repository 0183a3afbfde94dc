// The /v1 resource operations.
export * from './projects.js';
export * from './lines.js';
export * from './audit.js';
export * from './photographs.js';
export * from './client-document.js';
export * from './shares.js';
export * from './operations.js';
export * from './shared-document.js';
export * from './imports.js';
export * from './decision.js';
