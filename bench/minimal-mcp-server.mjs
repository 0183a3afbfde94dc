/**
 * The stdio cold-start baseline: the smallest MCP server the SDK makes, one tool, no database. Plain JavaScript run
 * by `node` directly (as `studio mcp` is, from dist/), so no TypeScript loader's start-up counts on either side.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'minimal', version: '1.0.0' });
server.registerTool(
  'echo',
  {
    description: 'Echo the text back.',
    inputSchema: { text: z.string() },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
