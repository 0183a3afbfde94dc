/** Reading and writing the account pages' cookies by hand: two cookies do not need a plugin. */

/** The value of cookie `name` in a Cookie header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * A Set-Cookie value: HttpOnly (no script reads it: the pages run none anyway), SameSite=Lax (another site's form
 * posts arrive without it), Path=/, and Secure when the server is reached over https (its base URL), where the
 * `__Host-` prefix also keeps subdomains from setting it. No Max-Age: gone when the browser closes.
 */
export function setCookie(name: string, value: string, opts: { secure: boolean; maxAgeSeconds?: number }): string {
  return [
    `${name}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    ...(opts.secure ? ['Secure'] : []),
    ...(opts.maxAgeSeconds !== undefined ? [`Max-Age=${opts.maxAgeSeconds}`] : []),
  ].join('; ');
}

/** The Set-Cookie value that removes cookie `name`. */
export const clearCookie = (name: string, secure: boolean) => setCookie(name, '', { secure, maxAgeSeconds: 0 });
