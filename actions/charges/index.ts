// Procedures of the charges domain: what the studio bills on a project besides goods.
export * from './charges.js';
export * from './types.js';
