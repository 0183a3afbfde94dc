import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { Currency, Id, page } from '../../src/core/values.js';
import { pageQuery } from '../shared/queries.js';
import { ApiToken, MyStudio, TokenSecret } from './shapes.js';
import { CodePrefix, Studio, StudioName, boundedRatio } from '../studio/shapes.js';
import { listMyStudios as listStudios } from '../../src/domain/account/my-studios.js';
import { createStudio as create } from '../../src/domain/account/create-studio.js';
import { MY_STUDIO_SORT_NAMES } from '../../src/domain/account/my-studios.js';

export const listMyStudios = defineAction({
  name: 'list_my_studios',
  kind: 'procedure',
  effect: 'query',
  domain: 'account',
  summary: 'List the studios you belong to, with your role in each.',
  description:
    'Returns every studio where you are an active member, by name, with your role and whether it is the one this token acts in. A token acts in one studio: to work in another, use a token created there.',
  scope: 'self',
  input: z.strictObject({ sort: z.enum(MY_STUDIO_SORT_NAMES).optional().describe('Default: name.'), ...pageQuery() }),
  output: page(MyStudio),
  errors: [],
  example: {},
  handler: (ctx, input) => listStudios(ctx, input),
});

export const createStudio = defineAction({
  name: 'create_studio',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'account',
  summary: 'Create a new studio that you own (onboarding).',
  description:
    'Creates a new tenant with its default units, makes you its owner, and returns a token for acting in it (shown once). Your current studio is unaffected. Send a commandKey to retry safely.',
  intents: ['set up a new studio or business', 'start another workspace', 'open a second company'],
  scope: 'self',
  keyed: true,
  shownOnce: ['ownerTokenSecret'],
  input: z.strictObject({
    name: StudioName,
    currency: Currency,
    codePrefix: CodePrefix.optional().describe('Default FF.'),
    taxRate: boundedRatio(10_000n, 'A tax rate').optional().describe('Default no tax; "2000" = 20%.'),
  }),
  output: z.strictObject({
    studio: Studio,
    membership: z.strictObject({ memberId: Id, role: z.literal('owner') }),
    ownerToken: ApiToken.describe('A token acting as you in the new studio.'),
    ownerTokenSecret: TokenSecret,
  }),
  errors: [],
  example: { name: 'Hartley & Rowe Contract', currency: 'GBP', commandKey: '5b0e8f0e-8d0c-4c57-9d3c-6a3f7b2f1e11' },
  handler: (ctx, input) => create(ctx, input),
});
