/**
 * Paths that carry a share token, whose token is a secret: `/s/<token>` (the client page; everything after `/s/`) and
 * `/v1/shares/<token>/…` (anonymous share operations), signed download links `/downloads/<token>`, and invitations' pages `/invitations/<token>`. Whatever logs or echoes a request's path uses this first.
 */
const TOKEN_PATHS: ReadonlyArray<[RegExp, string]> = [
  [/^\/s\/[^?#]*/, '/s/[token]'],
  [/^\/v1\/shares\/[^/?#]*/, '/v1/shares/[token]'],
  [/^\/downloads\/[^?#]*/, '/downloads/[token]'],
  [/^\/invitations\/[^?#]*/, '/invitations/[token]'],
];

/** The path (or URL path and query) with any share token replaced by `[token]`. */
export function redactPath(path: string): string {
  for (const [pattern, replacement] of TOKEN_PATHS) if (pattern.test(path)) return path.replace(pattern, replacement);
  return path;
}
