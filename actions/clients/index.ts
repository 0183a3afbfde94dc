// Procedures of the clients domain (studio-level reference data).
export * from './clients.js';
