import { readFile } from 'node:fs/promises';
import type { AnyAction } from '../../core/define-action.js';
import type { StagedBlob } from '../../files/blob-store.js';

/**
 * The input field an action takes its file in (base64 over MCP and tRPC): its upload binding's, or for a procedure
 * its `/v1` twin's (add_line_photograph is add_photograph's twin). The contract test holds every `data` field to it.
 */
export function fileFields(actions: readonly AnyAction[]): Map<string, string> {
  const fields = new Map<string, string>();
  for (const a of actions) {
    const field = (a.http?.upload ?? a.fileRoute?.upload)?.field;
    if (!field) continue;
    fields.set(a.name, field);
    const twin = (a as { twinOf?: string }).twinOf;
    if (twin) fields.set(twin, field);
  }
  return fields;
}

/**
 * An MCP call's input with the files its body carried (mcp/request-body.ts): the one in the action's file field is
 * handed to `invoke` as the call's upload (the stand-in stays in the input, so a retry with the same key matches), as
 * an HTTP upload's body is. A stand-in anywhere else is put back as the base64 it was, so no action ever sees one.
 */
export async function withUploads(
  input: unknown,
  field: string | undefined,
  uploads: ReadonlyMap<string, StagedBlob> | undefined,
): Promise<{ input: unknown; upload?: StagedBlob }> {
  if (!uploads?.size) return { input };
  let upload: StagedBlob | undefined;
  const restore = async (value: unknown, fileField: boolean): Promise<unknown> => {
    if (typeof value === 'string') {
      const file = uploads.get(value);
      if (!file) return value;
      if (fileField && !upload) {
        upload = file;
        return value;
      }
      return (await readFile(file.path)).toString('base64');
    }
    if (Array.isArray(value)) return Promise.all(value.map((v) => restore(v, false)));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = await restore(v, false);
      return out;
    }
    return value;
  };
  if (!input || typeof input !== 'object' || Array.isArray(input)) return { input: await restore(input, false) };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) out[k] = await restore(v, k === field);
  return upload ? { input: out, upload } : { input: out };
}
