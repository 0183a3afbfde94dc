// Procedures of the clientDocument domain: a project's client document (a projection in the client's register),
// its settings, and its minted, immutable versions.
export * from './document.js';
export * from './settings.js';
export * from './versions.js';
