// Procedures of the specifications domain: the studio's library of product sheets, and their place on lines.
export * from './library.js';
export * from './search.js';
export * from './lines.js';
