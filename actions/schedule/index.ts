// Procedures of the schedule domain: one file per concept, re-exported here.
export {};
