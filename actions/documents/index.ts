// Procedures of the documents domain: the files made from a project (PDFs, exports, packages) and their deliveries.
export * from './documents.js';
export * from './deliveries.js';
