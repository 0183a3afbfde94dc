// Procedures of the schedule domain: one file per concept, re-exported here.
export * from './read.js';
export * from './edit.js';
export * from './bulk.js';
export * from './lifecycle.js';
export * from './placement.js';
export * from './renumber.js';
export * from './paste.js';
