// Procedures of the operations domain: the long acts (imports, pastes, documents, deliveries, packages) run by workers.
export * from './operations.js';
