import { readFile } from 'node:fs/promises';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AnyAction } from '../../core/define-action.js';
import type { Runtime } from '../../core/invoke.js';

/**
 * A read whose record has a picture (a photograph) answers with the picture too, as MCP image content before the
 * record's text, so a model can look at it: the action's `media.mcpImage` choice (a photograph's display size, upright,
 * at most 1,568 px and 1 MB).
 */
export async function withImage(
  rt: Runtime,
  action: AnyAction,
  output: unknown,
  result: CallToolResult,
): Promise<CallToolResult> {
  const media = action.media;
  if (!media?.mcpImage || result.isError) return result;
  const file = await media.open(rt.files, output, media.mcpImage);
  const data = (await readFile(file.path)).toString('base64');
  return { ...result, content: [{ type: 'image', data, mimeType: file.mediaType }, ...result.content] };
}
