// Procedures of the suppliers domain (studio-level reference data).
export * from './suppliers.js';
