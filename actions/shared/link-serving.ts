import { z } from 'zod';

/**
 * Beside every URL an answer gives: whether an HTTP server is known to serve it now. Over stdio (`studio mcp`) no HTTP
 * server runs in the process; the link is built on the address a live `studio serve` reports (or STUDIO_BASE_URL), and
 * when none reported lately the answer says what to run.
 */
export const linkServing = {
  served: z
    .boolean()
    .describe(
      'Whether an HTTP server is known to be serving the link now (this server, or a `studio serve` that reported within the last minute). False: the link opens only once `studio serve` runs; linkNote says where.',
    ),
  linkNote: z
    .string()
    .optional()
    .describe('Present only when served is false: that the link needs `studio serve` running, and at which address.'),
};
