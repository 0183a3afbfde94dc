// Procedures of the properties domain: a project's custom properties (its own schedule columns) and their options.
export * from './properties.js';
export * from './options.js';
export * from './values.js';
