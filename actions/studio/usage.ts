import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { StudioUsage } from './shapes.js';
import { studioUsage } from '../../src/domain/studio/usage.js';

export const getStudioUsage = defineAction({
  name: 'get_studio_usage',
  kind: 'procedure',
  effect: 'query',
  domain: 'studio',
  summary: 'Count what the studio holds: projects, lines, members and API tokens.',
  description:
    'Returns whole-studio counts (integers): active and archived projects and lines, active members by role, active API tokens. Any member may read it.',
  intents: ['how many projects and pieces do we have', 'how much are we using', 'are we near our limits'],
  scope: 'member',
  input: z.strictObject({}),
  output: StudioUsage,
  errors: [],
  example: {},
  handler: (ctx) => studioUsage(ctx),
});
