// Procedures of the studio domain: one file per concept, re-exported here.
export {};
