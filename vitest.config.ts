import { configDefaults, defineConfig } from 'vitest/config';

/**
 * One suite, two stores: every test runs on SQLite (the `sqlite` project), and every test that touches the store runs
 * again on a real PostgreSQL (the `postgres` project: a throwaway server started by its globalSetup), from the same test
 * bodies. Tests of pure functions, generated contracts and SQLite's own file handling run once.
 */
const SQLITE_ONLY = [
  'test/unit/**',
  'test/contract/**',
  'test/clients/migration.test.ts',
  'test/mcp/result-paging.test.ts',
  // Reading spreadsheets and their cells: pure functions, no store.
  'test/imports/parsing.test.ts',
  // A browser over the share page: nothing in it depends on the store, and one Chromium run is enough.
  'test/shares/share-page.test.ts',
  // The decision page in Chromium: its store paths (codes, sessions, decisions) run on both dialects in test/share-decisions' other files.
  'test/share-decisions/page.test.ts',
  // The OAuth flow in Chromium with the MCP SDK client against the server process (its refusals run on both stores).
  'test/oauth/browser.test.ts',
  // kill -9 of the process during a commit, checked with SQLite's own integrity_check (PostgreSQL's durability is its own).
  'test/e2e/import-crash.test.ts',
  // The HTTP contract (the document through Prism, a client generated from it): nothing in it depends on the store.
  'test/e2e/openapi-prism.test.ts',
  'test/e2e/openapi-client.test.ts',
  // The account pages in a browser: the store is exercised on both dialects by test/members' other files.
  'test/members/account-pages.test.ts',
  // The documentation pages in a browser: they show the catalog, not the store.
  'test/e2e/docs-pages.test.ts',
  // The HTTP and MCP contract against a real server: bad requests, odd paths, a tRPC batch's size, slow or greedy
  // clients, oversized bodies and spreadsheet bombs are all refused before the store is reached; the MCP conformance
  // suite, the Inspector and get_action's descriptions speak the protocol and the catalog. The store under each is
  // exercised on both dialects by its domain's own files.
  'test/e2e/bad-input.test.ts',
  'test/attack/odd-requests.test.ts',
  'test/attack/trpc-batch.test.ts',
  'test/attack/exhaustion.test.ts',
  'test/attack/mcp-uploads.test.ts',
  'test/attack/spreadsheet-bombs.test.ts',
  'test/mcp/real-clients.test.ts',
  'test/mcp/get-action.test.ts',
  // The idle timeout and its bound: how the HTTP server times a connection, whatever the store behind the answer.
  'test/surfaces/idle-timeout.test.ts',
  'test/surfaces/idle-timeout-bound.test.ts',
];

/** Tests that need PostgreSQL itself (moving a studio's data onto it). */
const POSTGRES_ONLY = ['test/e2e/migrate-data.test.ts'];

const shared = {
  // e2e tests start real server processes; give them room on a 2-core machine without making anything timed.
  testTimeout: 60_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
  // A worker keeps the modules it has loaded from one test file to the next: every file imports the whole catalog
  // (each action's zod schemas), and loading it afresh per file cost 344 s of a 535 s run; shared, 25 s of 256 s.
  // Tests make their own apps and databases, so nothing they hold is shared between files.
  isolate: false,
};

export default defineConfig({
  test: {
    // Vitest's default on a 2-core machine is one worker (cores - 1); the suite mostly waits on server processes and
    // sockets, so two workers take it from about 580 s to about 415 s there.
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...shared,
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...POSTGRES_ONLY],
          env: { STUDIO_STRICT_ERRORS: '1', STUDIO_CHECK_OUTPUT: '1', STUDIO_TEST_DIALECT: 'sqlite' },
        },
      },
      {
        test: {
          ...shared,
          name: 'postgres',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SQLITE_ONLY],
          env: { STUDIO_STRICT_ERRORS: '1', STUDIO_CHECK_OUTPUT: '1', STUDIO_TEST_DIALECT: 'postgres' },
          globalSetup: ['test/helpers/postgres-global-setup.ts'],
        },
      },
    ],
  },
});
