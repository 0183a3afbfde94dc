// Procedures of the accounting domain (the studio's connection to Xero).
export * from './connection.js';
export * from './accounts.js';
export * from './push.js';
