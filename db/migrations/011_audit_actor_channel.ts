/**
 * Audit events say how their actor reached the server (API token, OAuth, local owner), so "who changed this price"
 * answers with a person and a channel. Earlier events keep NULL: their digests were computed without it.
 */
export const name = 'audit_actor_channel';
export const statements = [`ALTER TABLE audit_events ADD COLUMN actor_via TEXT`];
