import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { page } from '../../src/core/values.js';
import { ApiToken, TokenSecret } from './shapes.js';
import * as tokens from '../../src/domain/account/api-tokens.js';
import { ApiTokenId } from '../shared/refs.js';

export const listApiTokens = defineAction({
  name: 'list_api_tokens',
  kind: 'procedure',
  effect: 'query',
  domain: 'account',
  summary: 'List your API tokens in this studio (never their secrets).',
  description:
    'Returns your own tokens for this studio, newest first, revoked and expired ones included: name, last 4 characters, creation, expiry and revocation times, and which one this request used. Secrets are never stored, so never shown.',
  scope: 'self',
  input: tokens.TOKEN_LISTING.input,
  output: page(ApiToken),
  errors: [],
  example: {},
  handler: (ctx, input) => tokens.listTokens(ctx, input),
});

export const createApiToken = defineAction({
  name: 'create_api_token',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'account',
  summary: 'Create an API token acting as you in this studio; the secret is shown once.',
  description:
    'Mints a token with your role in this studio. The secret is in the answer once and stored only as a digest: keep it then. Optional expiry in days. Send a commandKey to retry safely (a replay answers the token without its secret).',
  intents: ['get an API key', 'make a token for a script', 'connect another tool'],
  scope: 'self',
  keyed: true,
  shownOnce: ['secret'],
  input: z.strictObject({
    name: z.string().trim().min(1).max(100).describe('What the token is for, e.g. "Claude desktop".'),
    expiresInDays: z.int().min(1).max(3650).optional().describe('Days until it stops working; default never.'),
  }),
  output: z.strictObject({ token: ApiToken, secret: TokenSecret }),
  errors: [],
  example: { name: 'Claude desktop', expiresInDays: 90, commandKey: '3f1c2a9e-0b7d-4e5f-8a6b-2c9d1e0f4a7b' },
  handler: (ctx, input) => tokens.createToken(ctx, input),
});

export const revokeApiToken = defineAction({
  name: 'revoke_api_token',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'account',
  summary: 'Revoke one of your API tokens; it stops working at once.',
  description:
    "Revokes one of your own tokens in this studio (another person's token answers NOT_FOUND). The next request with it is refused as UNAUTHENTICATED; revoking the token in use is allowed. Revoking a revoked token changes nothing.",
  scope: 'self',
  input: z.strictObject({ tokenId: ApiTokenId.describe('From list_api_tokens.') }),
  output: ApiToken,
  errors: ['NOT_FOUND'],
  example: { tokenId: '0000000000000000000000000c' },
  handler: (ctx, input) => tokens.revokeToken(ctx, input.tokenId),
});
