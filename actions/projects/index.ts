// Procedures of the projects domain: one file per concept, re-exported here.
export {};
