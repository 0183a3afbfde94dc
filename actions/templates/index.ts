// Procedures of the templates domain (studio-level reference data): project templates.
export * from './templates.js';
