import { uuid } from './ids.js';

/**
 * A file POSTed as its raw bytes, as a studio's app uploads one (a photograph onto a line, a spreadsheet to import):
 * the bearer token, the file's media type and a fresh Idempotency-Key, plus `headers`. Answers the raw Response, so a
 * test can check a refusal as well as a success.
 */
export function postFile(
  server: { url: string; token: string },
  path: string,
  body: Buffer | string,
  type: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': type, 'idempotency-key': uuid(), ...headers },
    body,
  });
}

/** The upload path of a photograph of a line: POST the image's bytes there (see postFile). */
export const photographsPath = (projectId: string, lineId: string, filename: string) =>
  `/v1/projects/${projectId}/items/${lineId}/photographs?filename=${encodeURIComponent(filename)}`;
