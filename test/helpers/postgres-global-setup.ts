/**
 * vitest globalSetup of the `postgres` project: one throwaway PostgreSQL server for the run (test/helpers/
 * postgres-server.ts), its URL provided to every test file; each test app makes a database of its own on it.
 */
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
