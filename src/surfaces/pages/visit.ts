import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Runtime } from '../../core/invoke.js';
import { newToken } from '../../core/ids.js';
import {
  endSession,
  findSession,
  formTokenFor,
  formTokenMatches,
  type Session,
  startSession,
} from '../../domain/people/sessions.js';
import { clearCookie, readCookie, setCookie } from './cookies.js';
import { postedFrom } from './origin.js';

/**
 * Who is on an account page, and the key their forms are bound to: a signed-in person's session secret, or for a
 * visitor not signed in an anonymous form cookie (random, HttpOnly), made on their first page. A form carries a token
 * derived from that key (formTokenFor) and a POST is taken only with the token matching the cookie the browser sent,
 * and only from this server's own origin: another site can make a browser post, but not read the cookie or the page.
 */
export interface Visit {
  session: Session | undefined;
  /** The session cookie's secret, when signed in. */
  secret: string | undefined;
  /** What the visitor's forms carry as `form_token`. */
  formToken: string;
}

const secure = (config: Config) => config.baseUrl.startsWith('https:');
/** Over https the `__Host-` prefix: the browser then takes the cookie only Secure, for Path=/ and from this host. */
export const sessionCookieName = (config: Config) => (secure(config) ? '__Host-studio_session' : 'studio_session');
const formCookieName = (config: Config) => (secure(config) ? '__Host-studio_form' : 'studio_form');

/** The signed-in person a request's session cookie names, with the cookie's secret; nothing for anyone else. */
export async function currentSession(
  rt: Runtime,
  req: FastifyRequest,
): Promise<{ session: Session; secret: string } | undefined> {
  const secret = readCookie(req.headers.cookie, sessionCookieName(rt.config));
  const session = await findSession(rt.store, secret);
  return session && secret ? { session, secret } : undefined;
}

/** The visit a request makes; a new visitor's form cookie is set on the reply. */
export async function visit(rt: Runtime, req: FastifyRequest, reply: FastifyReply): Promise<Visit> {
  const current = await currentSession(rt, req);
  if (current) return { ...current, formToken: formTokenFor(current.secret) };
  let key = readCookie(req.headers.cookie, formCookieName(rt.config));
  if (!key || !/^form_[\w-]{43}$/.test(key)) {
    key = newToken('form');
    reply.header('set-cookie', setCookie(formCookieName(rt.config), key, { secure: secure(rt.config) }));
  }
  return { session: undefined, secret: undefined, formToken: formTokenFor(key) };
}

/** Whether text holds a control character (C0 or DEL): never in a name or a path a page accepts. */
export const hasControlCharacters = (text: string) =>
  [...text].some((c) => c.codePointAt(0)! < 0x20 || c.codePointAt(0) === 0x7f);

/** A posted form's fields; none when the body was empty or not a form. */
export const formBody = (body: unknown): URLSearchParams =>
  body instanceof URLSearchParams ? body : new URLSearchParams();

/**
 * Why a posted form is not taken, in words for the person; undefined when it came from this server's own page: from
 * this server's origin (postedFrom; a post that names no origin at all is refused, as the consent forms refuse it),
 * and with the token made for the cookie this browser holds.
 */
export function formRefusal(rt: Runtime, req: FastifyRequest, visit: Visit, body: URLSearchParams): string | undefined {
  const from = postedFrom(rt.config, req);
  if (from === 'foreign')
    return 'This form was sent from another site, so it was not taken. Open this page here and send it again.';
  if (from === 'unknown')
    return 'This form did not say where it was sent from (no Origin or Referer header), so it was not taken. Open this page in a browser and send it again.';
  const key = visit.secret ?? readCookie(req.headers.cookie, formCookieName(rt.config));
  if (!formTokenMatches(key, body.get('form_token')))
    return 'This form has expired or did not come from this page, so it was not taken. Please send it again.';
  return undefined;
}

/** Signs the browser in: the session cookie for as long as the session lasts; the anonymous form cookie goes. */
export function signInCookies(reply: FastifyReply, config: Config, session: { secret: string; expiresAt: string }) {
  const maxAgeSeconds = Math.max(0, Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000));
  reply.header('set-cookie', [
    setCookie(sessionCookieName(config), session.secret, { secure: secure(config), maxAgeSeconds }),
    clearCookie(formCookieName(config), secure(config)),
  ]);
}

/**
 * A person who has just proved who they are (a password on `/login` or on the consent page) is signed in on this
 * browser: a new session, never one the browser brought (that one is ended: a fresh secret at every sign-in, so a
 * secret planted in the browser beforehand is worth nothing), and its cookie set (signInCookies). Answers the session.
 */
export async function signInBrowser(rt: Runtime, req: FastifyRequest, reply: FastifyReply, userId: string) {
  return adoptSession(rt, req, reply, await startSession(rt.store, userId));
}

/**
 * Gives the browser a session just started for it (by signInBrowser, or by accepting an invitation in the same
 * transaction as the membership): the session its cookie brought, if any, is ended first.
 */
export async function adoptSession<S extends Parameters<typeof signInCookies>[2]>(
  rt: Runtime,
  req: FastifyRequest,
  reply: FastifyReply,
  started: S,
): Promise<S> {
  const brought = readCookie(req.headers.cookie, sessionCookieName(rt.config));
  if (brought) await endSession(rt.store, brought);
  signInCookies(reply, rt.config, started);
  return started;
}

/** Signs the browser out: the session its cookie names is ended, and the cookie removed. */
export async function signOutBrowser(rt: Runtime, req: FastifyRequest, reply: FastifyReply) {
  const secret = readCookie(req.headers.cookie, sessionCookieName(rt.config));
  if (secret) await endSession(rt.store, secret);
  reply.header('set-cookie', clearCookie(sessionCookieName(rt.config), secure(rt.config)));
}
