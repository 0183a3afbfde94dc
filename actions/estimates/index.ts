// Procedures of the estimates domain: a project's offers to its client, issued as frozen revisions and decided.
export * from './drafts.js';
export * from './lifecycle.js';
export * from './revisions.js';
