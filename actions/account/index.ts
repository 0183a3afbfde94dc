// Procedures of the account domain: one file per concept, re-exported here.
export {};
