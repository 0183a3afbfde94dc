import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.js';
import { linkSecret } from '../../files/server-secret.js';

/**
 * Each consent form carries what the next step needs (the checked authorization request; on the consent form, who is
 * signed in, by which session, and the consent's own id) in one hidden field, signed with a key derived from the
 * server's secret and valid for ten minutes: the request is not kept on the server between the steps. A form whose
 * field was altered, made by another server, or left too long is refused. (The account pages' forms carry no payload,
 * only a token bound to the browser's cookie, sessions.ts formTokenFor; these need the signed field.) With the Origin
 * check on every POST, and an approval taken only with the session cookie the form names, the forms are CSRF-safe:
 * another site can neither make a valid form field for a person it cannot sign in as, nor submit this site's forms.
 */
export const FORM_TTL_MS = 10 * 60_000;

const keys = new WeakMap<Buffer, Buffer>();
async function formKey(config: Pick<Config, 'secret' | 'databasePath'>): Promise<Buffer> {
  const secret = await linkSecret(config);
  let key = keys.get(secret);
  // Its own key, derived: a download link's signature can never pass as a form's, nor the reverse.
  if (!key) keys.set(secret, (key = createHmac('sha256', secret).update('studio oauth consent form v1').digest()));
  return key;
}

const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest();

export async function sealForm(config: Config, payload: object): Promise<string> {
  const body = Buffer.from(JSON.stringify({ ...payload, exp: Date.now() + FORM_TTL_MS })).toString('base64url');
  return `${body}.${mac(await formKey(config), body).toString('base64url')}`;
}

/** The payload of a sealed form field, or undefined when it is not one this server sealed in the last ten minutes. */
export async function openForm<T>(config: Config, sealed: unknown): Promise<T | undefined> {
  if (typeof sealed !== 'string' || sealed.length > 16_384) return undefined;
  const [body, signature, extra] = sealed.split('.');
  if (!body || !signature || extra !== undefined) return undefined;
  const expected = mac(await formKey(config), body);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T & { exp?: unknown };
    return typeof payload.exp === 'number' && payload.exp > Date.now() ? payload : undefined;
  } catch {
    return undefined;
  }
}
