// Procedures of the studio domain: one file per concept, re-exported here.
export * from './studio.js';
export * from './settings.js';
export * from './ownership.js';
export * from './permissions.js';
export * from './usage.js';
