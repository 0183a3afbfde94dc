// Procedures of the photographs domain: photographs on schedule lines, kept byte-exact and served upright.
export * from './read.js';
export * from './edit.js';
