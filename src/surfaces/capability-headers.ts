/**
 * Headers on every answer of an action authorised by a capability in its URL (a share token), refusals included:
 * no cache keeps it (a revoked link must stop answering at once) and nothing followed from it carries the URL on in a
 * Referer.
 */
export const CAPABILITY_HEADERS = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' } as const;

/** Paths of the anonymous share operations, `/v1/shares/<token>/…`. */
export const isShareApiPath = (url: string) => url.startsWith('/v1/shares/');
