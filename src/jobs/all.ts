// Every kind of job, defined once each: importing this module registers them with the runner.
import '../domain/documents/jobs.js';
import '../domain/imports/jobs.js';
