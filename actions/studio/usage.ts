import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { StudioUsage } from './shapes.js';
import { studioUsage } from '../../src/domain/studio/usage.js';

export const getStudioUsage = defineAction({
  name: 'get_studio_usage',
  kind: 'procedure',
  effect: 'query',
  domain: 'studio',
  summary: 'Count what the studio holds: projects, lines, members, API tokens and the storage its files take.',
  description:
    "Returns whole-studio counts (integers): active and archived projects and lines, active members by role, active API tokens, and storage: the bytes and files the studio's photographs, documents, packages and imports keep, with the server's quota (null: none). Past the quota, uploads, renders and packages answer STORAGE_QUOTA_EXCEEDED: remove photographs or cancel imports to make room. Any member may read it.",
  intents: ['how many projects and pieces do we have', 'how much are we using', 'are we near our limits'],
  scope: 'member',
  input: z.strictObject({}),
  output: StudioUsage,
  errors: [],
  example: {},
  handler: (ctx) => studioUsage(ctx),
});
