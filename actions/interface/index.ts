// Procedures of the interface domain: a member's own interface state in their studio (saved views, table and
// inspector layouts, the sidebar, the first-run flag). Procedures only: the seed keeps them out of the resource API.
export * from './views.js';
export * from './layouts.js';
export * from './state.js';
