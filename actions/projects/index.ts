// Procedures of the projects domain: one file per concept, re-exported here.
export * from './projects.js';
export * from './lifecycle.js';
export * from './totals.js';
export * from './grants.js';
