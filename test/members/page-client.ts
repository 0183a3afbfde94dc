/**
 * The account pages as a browser without script uses them, over plain fetch: read a page, keep the cookies it sets,
 * take the form's token from its markup, and post the form back from the page's own origin.
 */
export interface PageVisit {
  status: number;
  html: string;
  /** `name=value` pairs the browser would send back. */
  cookies: Map<string, string>;
  /** The `form_token` of the page's first form, when it has one. */
  formToken: string | undefined;
  location: string | null;
  setCookies: string[];
}

function remember(cookies: Map<string, string>, res: Response) {
  const set = res.headers.getSetCookie();
  for (const c of set) {
    const [pair] = c.split(';');
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq);
    const value = pair!.slice(eq + 1);
    if (/Max-Age=0/i.test(c)) cookies.delete(name);
    else cookies.set(name, value);
  }
  return set;
}

const cookieHeader = (cookies: Map<string, string>) => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');

async function visitOf(res: Response, cookies: Map<string, string>): Promise<PageVisit> {
  const setCookies = remember(cookies, res);
  const html = await res.text();
  return {
    status: res.status,
    html,
    cookies,
    formToken: /name="form_token" value="([^"]+)"/.exec(html)?.[1],
    location: res.headers.get('location'),
    setCookies,
  };
}

export async function getPage(url: string, cookies = new Map<string, string>()): Promise<PageVisit> {
  const res = await fetch(url, { headers: { cookie: cookieHeader(cookies) }, redirect: 'manual' });
  return visitOf(res, cookies);
}

/** Posts a form as the page at `url` would: its cookies, its origin, urlencoded fields. */
export async function postForm(
  url: string,
  fields: Record<string, string>,
  cookies: Map<string, string>,
  opts: { origin?: string | null } = {},
): Promise<PageVisit> {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    cookie: cookieHeader(cookies),
  };
  const origin = opts.origin === undefined ? new URL(url).origin : opts.origin;
  if (origin !== null) headers.origin = origin;
  const res = await fetch(url, { method: 'POST', headers, body: new URLSearchParams(fields), redirect: 'manual' });
  return visitOf(res, cookies);
}
