/**
 * The agent's second day, as counts: ten everyday tasks through `studio mcp` over stdio (spawned as mcp.json says, on
 * a database the HTTP server seeded), with five deliberate mistakes corrected from their error text alone. Calls and
 * result bytes are deterministic, so the targets hold here; the bench reports the same figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { spawnStdioMcp, type StdioMcp } from '../helpers/e2e.js';
import { createProjectWithLines } from '../../bench/lib/api.js';
import { runAgentSession, type CallTool, type SessionFigures } from '../mcp/agent-session.js';

const LARGE = 450;
let server: RunningServer;
let mcp: StdioMcp;
let figures: SessionFigures;

/** What the model reads of each answer: its text content. */
const toolCaller =
  (client: Client): CallTool =>
  async (name, args) => {
    const res = await client.callTool({ name, arguments: args });
    const text = (res.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
    return { isError: !!res.isError, text, body: res.structuredContent };
  };

beforeAll(async () => {
  server = await startServer();
  const large = await createProjectWithLines(server.url, server.token, 'Long schedule', LARGE);
  mcp = await spawnStdioMcp({ database: server.database });
  figures = await runAgentSession(toolCaller(mcp.client), {
    projectName: 'Harbour House',
    largeProjectId: large.projectId,
    largeProjectLines: LARGE,
  });
}, 120_000);
afterAll(async () => {
  await mcp?.close();
  await server?.stop();
});

describe('ten everyday tasks over stdio MCP', () => {
  it('does every task within the budget: ≤ 45 calls and ≤ 80 KB of results in all, ≤ 3 calls per edit', () => {
    const table = figures.tasks
      .map((t) => `${t.task}: ${t.calls} calls, ${t.bytes} bytes (${t.log.join('; ')})`)
      .join('\n');
    expect(figures.tasks, table).toHaveLength(10);
    expect(figures.totalCalls, table).toBeLessThanOrEqual(45);
    expect(figures.totalBytes, table).toBeLessThanOrEqual(80 * 1024);
    expect(figures.maxCallsPerEdit, table).toBeLessThanOrEqual(3);
  });

  it('answers each deliberate mistake with an error whose text alone was enough to fix the call', () => {
    expect(figures.mistakes.map((m) => m.mistake)).toHaveLength(5);
    for (const m of figures.mistakes) {
      expect(m.code, m.mistake).toMatch(/^[A-Z_]+$/);
      expect(m.fixed, `${m.mistake}: ${m.text}`).toBe(true);
    }
    expect(Object.fromEntries(figures.mistakes.map((m) => [m.mistake, m.code]))).toEqual({
      'stale etag': 'VERSION_CONFLICT',
      'procedure fields not wrapped in input': 'VALIDATION_FAILED',
      'create without idempotencyKey': 'IDEMPOTENCY_KEY_REQUIRED',
      'decimal amount': 'VALIDATION_FAILED',
      'unknown action delete_line': 'NOT_FOUND',
    });
  });
});
