// Procedures of the sections domain: one file per concept, re-exported here.
export {};
