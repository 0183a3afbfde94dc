/**
 * Redirect URIs: which may be registered, and when a requested one is a registered one.
 *
 * Registered: an absolute URI without a fragment or user info, at most 2,000 characters, that is `https:`, `http:` to
 * this computer only (`localhost`, `127.0.0.1`, `[::1]`: a native app's loopback listener, RFC 8252 §7.3), or a
 * private-use scheme of a native app (RFC 8252 §7.1, `com.example.app:/callback`, `cursor://…`). Never a scheme a
 * browser would run or open locally (`javascript:`, `data:`, `file:` …), and never plain `http:` to another host.
 *
 * Matching is exact, string for string (OAuth 2.1 §4.1.1), with the one exception RFC 8252 §7.3 requires: a loopback
 * redirect may name any port, because a native app's listener gets a free port each time. Scheme, host, path and
 * query must still be identical (`localhost` and `127.0.0.1` are different hosts).
 */
export const MAX_REDIRECT_URI_LENGTH = 2000;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const NEVER = new Set([
  'javascript:',
  'data:',
  'vbscript:',
  'file:',
  'blob:',
  'about:',
  'filesystem:',
  'view-source:',
  'ws:',
  'wss:',
  'ftp:',
  'mailto:',
  'tel:',
  'sms:',
]);

/** Why a redirect URI cannot be registered, or undefined when it can. */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `is longer than ${MAX_REDIRECT_URI_LENGTH} characters`;
  if (!URL.canParse(uri)) return 'is not an absolute URI';
  const url = new URL(uri);
  if (uri.includes('#')) return 'has a fragment (#…), which a redirect URI may not have';
  if (url.username || url.password) return 'carries user information';
  if (NEVER.has(url.protocol)) return `uses the ${url.protocol} scheme, which is never a redirect target`;
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname))
    return 'uses http: to a host other than this computer; use https:, or http://127.0.0.1 for a local app';
  if (url.protocol === 'https:' && !url.hostname) return 'names no host';
  return undefined;
}

/** Whether `requested` is the registered redirect URI `registered` (exactly, or a loopback one on another port). */
export function redirectUriMatches(requested: string, registered: string): boolean {
  if (requested === registered) return true;
  if (!URL.canParse(requested) || !URL.canParse(registered)) return false;
  const a = new URL(requested);
  const b = new URL(registered);
  return (
    a.protocol === 'http:' &&
    b.protocol === 'http:' &&
    LOOPBACK.has(a.hostname) &&
    a.hostname === b.hostname &&
    a.pathname === b.pathname &&
    a.search === b.search &&
    !requested.includes('#') &&
    !a.username &&
    !a.password
  );
}

/** A loopback redirect: the consent page warns that it goes to a program on the person's own computer. */
export const isLoopbackRedirect = (uri: string) =>
  URL.canParse(uri) && new URL(uri).protocol === 'http:' && LOOPBACK.has(new URL(uri).hostname);
