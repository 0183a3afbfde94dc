import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, type McpOutcome } from '../helpers/calls.js';
import { uuid } from '../helpers/ids.js';

/**
 * upload_import_file over MCP, as an agent sends it: a file tool takes its fields at the top level of arguments. Answers
 * the uploaded import as `result`, or the refusal.
 */
export async function uploadImportFile(
  client: Client,
  projectId: string,
  bytes: Buffer | string,
  opts: { filename?: string; mediaType?: string; sheet?: string } = {},
): Promise<McpOutcome> {
  const out = await callTool(client, 'call_action', {
    name: 'upload_import_file',
    arguments: {
      projectId,
      data: Buffer.from(bytes).toString('base64'),
      filename: opts.filename ?? 'schedule.csv',
      mediaType: opts.mediaType ?? 'text/csv',
      ...(opts.sheet ? { sheet: opts.sheet } : {}),
      commandKey: uuid(),
    },
  });
  return out.error ? out : { result: out.result.result };
}
