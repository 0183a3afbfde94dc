import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../core/invoke.js';
import { registerInvitationPage } from './invitation.js';
import { registerLoginPages } from './login.js';
import type { SignInLimits } from './sign-in-limits.js';

/** Form posts are small: a name, an address, two passwords and a form token. */
const FORM_BODY_LIMIT = 16 * 1024;

/**
 * The account pages (`/login`, `/logout`, `/invitations/<token>`), in a scope of their own: only they read form
 * posts (application/x-www-form-urlencoded, into URLSearchParams), so every other route still refuses that type
 * with 415. Anonymous routes: admission asks for no token; each page decides what a visitor may do. Their password
 * checks share `signIns` with the consent pages' (one set of limits per server).
 */
export async function registerAccountPages(app: FastifyInstance, rt: Runtime, signIns: SignInLimits) {
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_req, body, done) => done(null, new URLSearchParams(body as string)),
    );
    registerLoginPages(scope, rt, signIns);
    registerInvitationPage(scope, rt, signIns);
  });
}
