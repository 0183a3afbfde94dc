import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/**
 * The tools/list answer computed when the bundle was built: scripts/bundle.mjs replaces this module, in the bundle
 * only, with buildToolList(ACTIONS) of the same build. From source (tsx, tests) it is undefined and the list is built
 * from the actions.
 */
export const prebuiltTools: Tool[] | undefined = undefined;
