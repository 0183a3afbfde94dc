/**
 * An import's commit runs as an operation: the import names the operation applying (or last applying) it, so a client
 * that reads the import while it is `committing` knows where to poll. 020 is people's; 021–023 are interface state,
 * members and OAuth. Portable SQL.
 */
export const name = 'import_operations';
export const statements = [`ALTER TABLE imports ADD COLUMN operation_id TEXT REFERENCES operations(id)`];
