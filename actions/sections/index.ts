// Procedures of the sections domain: one file per concept, re-exported here.
export * from './sections.js';
export * from './order.js';
export * from './lifecycle.js';
