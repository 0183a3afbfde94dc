// Procedures of the account domain: one file per concept, re-exported here.
export * from './current-user.js';
export * from './studios.js';
export * from './tokens.js';
