/** If-None-Match (RFC 9110 §13.1.2): `*`, or a list naming the tag, weakly compared. */
export function notModified(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
