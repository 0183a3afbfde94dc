// Procedures of the members domain: the people of a studio, their roles, removing them and leaving.
export * from './members.js';
export * from './roles.js';
export * from './removal.js';
