// Procedures of the codes domain (studio-level reference data: how lines are numbered).
export * from './codes.js';
