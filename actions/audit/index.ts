// Procedures of the audit domain: one file per concept, re-exported here.
export * from './events.js';
