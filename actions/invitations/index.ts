// Procedures of the invitations domain: inviting someone to the studio by email address and role, and accepting.
export * from './invitations.js';
export * from './accept.js';
