// File tools (MCP): what moves files in and out. The documents' own records are the documents domain's procedures.
export * from './downloads.js';
export * from './documents.js';
