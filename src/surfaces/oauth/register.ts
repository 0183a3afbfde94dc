import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../core/invoke.js';
import { registerClient } from '../../domain/oauth/clients.js';
import { InvalidClientMetadataError, TooManyRequestsError } from '../../domain/oauth/errors.js';
import { CORS_HEADERS, NO_STORE, oauthErrorHandler } from './responses.js';

/**
 * Registrations are unauthenticated writes: a client address may make this many registration attempts an hour, each
 * counted whether it registered a client or was refused.
 */
export const REGISTRATIONS_PER_HOUR = 30;
const HOUR_MS = 3600_000;
const REGISTRATION_BODY_LIMIT = 32 * 1024;

/**
 * `POST /register`: dynamic client registration (RFC 7591) of public clients, answered 201 with the client as
 * registered (domain/oauth/clients.ts says what is accepted). Per process and per remote address, a sliding hour.
 */
export function registerRegistration(app: FastifyInstance, rt: Runtime) {
  const recent = new Map<string, number[]>();
  const admit = (address: string) => {
    const now = Date.now();
    const times = (recent.get(address) ?? []).filter((t) => now - t < HOUR_MS);
    if (times.length >= REGISTRATIONS_PER_HOUR) return Math.ceil((times[0]! + HOUR_MS - now) / 1000);
    times.push(now);
    recent.set(address, times);
    // Forget addresses that have been quiet for an hour, so the map stays as small as the traffic.
    if (recent.size > 10_000) for (const [k, v] of recent) if (v.every((t) => now - t >= HOUR_MS)) recent.delete(k);
    return 0;
  };

  app.post(
    '/register',
    { bodyLimit: REGISTRATION_BODY_LIMIT, errorHandler: oauthErrorHandler(rt.log) },
    async (req, reply) => {
      if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('application/json'))
        throw new InvalidClientMetadataError(
          'Send the client metadata as a JSON object (Content-Type: application/json).',
        );
      const wait = admit(req.ip);
      if (wait) {
        reply.header('retry-after', String(wait));
        throw new TooManyRequestsError(
          `This address made ${REGISTRATIONS_PER_HOUR} registration attempts in the last hour (each counts, registered or refused); reuse a client_id or wait ${wait} seconds.`,
        );
      }
      const client = await registerClient(rt.store, req.body);
      return reply
        .code(201)
        .headers({ ...CORS_HEADERS, ...NO_STORE })
        .send(client);
    },
  );
}
