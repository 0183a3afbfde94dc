// Procedures of the units domain (studio-level reference data).
export * from './units.js';
