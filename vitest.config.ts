import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // e2e tests start real server processes; give them room on a 2-core machine without making anything timed.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    env: { STUDIO_STRICT_ERRORS: '1' },
  },
});
