// Procedures of the libraries domain (studio-level reference data): libraries and the products they keep.
export * from './libraries.js';
export * from './products.js';
