import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Config } from './config.js';
import { createRuntime } from './runtime.js';
import { createMcpServer, type McpIdentity } from './surfaces/mcp/server.js';
import { lazyCatalog } from './surfaces/mcp/catalog-source.js';
import { authenticate } from './core/auth.js';
import { localOwner } from './local-owner.js';
import { toServiceError } from './core/errors.js';

/**
 * `studio mcp`: an MCP server on stdin/stdout acting for STUDIO_TOKEN's member or, without a token, for the owner of
 * the local database's only studio. Everything human-readable goes to stderr; stdout is the protocol.
 */
export async function runStdioMcp(config: Config, env: NodeJS.ProcessEnv = process.env) {
  // The catalog (every action module and its schemas) is imported once the client has its tool list, or on the
  // first call that needs it: the handshake answers from the bundle's prebuilt list meanwhile (catalog-source.ts).
  const catalog = lazyCatalog(async () => (await import('../actions/index.js')).ACTIONS);
  const rt = await createRuntime(config, catalog.loaded);
  let identity: McpIdentity;
  if (env.STUDIO_TOKEN) {
    try {
      const caller = await authenticate(rt.store, env.STUDIO_TOKEN);
      // Every call authenticates the token again, so revocation, removal and role changes apply at once.
      identity = { token: env.STUDIO_TOKEN };
      process.stderr.write(`[studio] MCP on stdio, acting for the member of STUDIO_TOKEN (role ${caller.role}).\n`);
    } catch (err) {
      process.stderr.write(`[studio] STUDIO_TOKEN was refused: ${toServiceError(err).detail}\n`);
      process.exit(2);
    }
  } else {
    const owner = await localOwner(rt.store);
    if ('problem' in owner) {
      process.stderr.write(`[studio] ${owner.problem}\n`);
      process.exit(2);
    }
    identity = { caller: owner.caller };
    process.stderr.write(
      `[studio] MCP on stdio without STUDIO_TOKEN: acting for the owner of "${owner.studioName}" in ${rt.store.location}.\n`,
    );
  }
  const server = createMcpServer(rt, catalog, identity);
  await server.connect(new StdioServerTransport());
  const shutdown = async () => {
    await server.close();
    await rt.close();
    process.exit(0);
  };
  process.stdin.on('end', shutdown);
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
