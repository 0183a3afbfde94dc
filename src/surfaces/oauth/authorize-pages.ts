import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { newId } from '../../core/ids.js';
import type { Runtime } from '../../core/invoke.js';
import type { AuthorizationRequest } from '../../domain/oauth/authorization-request.js';
import { findClient, type KnownClient } from '../../domain/oauth/clients.js';
import { type OAuthError, ServerError } from '../../domain/oauth/errors.js';
import { membershipsOf } from '../../domain/oauth/memberships.js';
import { redirectUriMatches } from '../../domain/oauth/redirect-uris.js';
import { sendPage } from '../pages/layout.js';
import { postedFrom } from '../pages/origin.js';
import { sealForm } from './form-token.js';
import { consentPage, formTargetOf, noticePage, type OAuthPage, signInPage } from './page.js';

/** The pages the authorization endpoint answers with, and the forms they carry (authorize.ts runs the steps). */

export /** What the sign-in form carries: the checked request. */
interface SignInForm {
  step: 'sign-in';
  request: AuthorizationRequest;
}
/**
 * What the consent form carries: the request, who is signed in and by which session (an approval needs that session
 * still live in this browser), and this consent's id (one code per approval).
 */
export interface ConsentForm {
  step: 'consent';
  request: AuthorizationRequest;
  userId: string;
  sessionId: string;
  consentId: string;
}

const serverHost = (config: Config) => new URL(config.baseUrl).host;

const page = (reply: FastifyReply, status: number, p: OAuthPage, formTarget?: string) =>
  sendPage(reply, status, p.title, p.body, formTarget);

/** A failure before the client and its redirect URI are known good: shown, never redirected. */
export const tellPerson = (req: FastifyRequest, reply: FastifyReply, error: OAuthError) => {
  const status = error instanceof ServerError ? 500 : 400;
  if (!(req.headers.accept ?? '').includes('text/html'))
    return reply
      .code(status)
      .headers({ 'cache-control': 'no-store' })
      .type('application/json; charset=utf-8')
      .send(error.toResponseObject());
  return page(reply, status, noticePage('This connection cannot be made', error.message, error.errorCode));
};

export const expired = (reply: FastifyReply) =>
  page(
    reply,
    400,
    noticePage(
      'This page has expired',
      'Sign-in pages work for ten minutes and once. Go back to the application you were connecting and start again.',
    ),
  );

/** The POST came from a page this server served; a request that names no origin at all is not taken either. */
export const fromOwnPage = (config: Config, req: FastifyRequest) => postedFrom(config, req) === 'own';
export const foreign = (config: Config, reply: FastifyReply) =>
  page(
    reply,
    403,
    noticePage(
      'This form was sent from somewhere else',
      `Sign-in and consent forms are accepted only from pages of ${serverHost(config)}. Open the link from the application again.`,
    ),
  );

/** The client of a form, still registered with the form's redirect URI (a form outlives nothing it names). */
export const clientOf = async (rt: Runtime, request: AuthorizationRequest): Promise<KnownClient | undefined> => {
  const client = await findClient(rt.store, request.clientId);
  return client?.redirectUris.some((r) => redirectUriMatches(request.redirectUri, r)) ? client : undefined;
};

export const showSignIn = async (
  rt: Runtime,
  reply: FastifyReply,
  status: number,
  shown: { request: AuthorizationRequest; client: KnownClient },
  opts: { email?: string; error?: string } = {},
) => {
  const { request, client } = shown;
  const form: SignInForm = { step: 'sign-in', request };
  return page(
    reply,
    status,
    signInPage({ serverHost: serverHost(rt.config), client, request, form: await sealForm(rt.config, form), ...opts }),
  );
};

export const showConsent = async (
  rt: Runtime,
  reply: FastifyReply,
  status: number,
  shown: { form: ConsentForm; client: KnownClient },
  error?: string,
) => {
  const { form, client } = shown;
  const { email, studios } = await membershipsOf(rt.store, form.userId);
  return page(
    reply,
    status,
    consentPage({
      serverHost: serverHost(rt.config),
      client,
      request: form.request,
      form: await sealForm(rt.config, form),
      email,
      studios,
      error,
    }),
    formTargetOf(form.request.redirectUri),
  );
};

/** A fresh consent form for the person a session signs in. */
export const consentFor = (request: AuthorizationRequest, session: { id: string; userId: string }): ConsentForm => ({
  step: 'consent',
  request,
  userId: session.userId,
  sessionId: session.id,
  consentId: newId(),
});
