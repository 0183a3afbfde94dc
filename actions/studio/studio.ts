import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { Studio, StudioName } from './shapes.js';
import * as studio from '../../src/domain/studio/studio.js';
import { STUDIO } from '../../src/domain/studio/entity.js';

export const getStudio = defineAction({
  name: 'get_studio',
  kind: 'procedure',
  effect: 'query',
  domain: 'studio',
  summary: 'Read your studio: name, owner and version.',
  description:
    'Returns the studio your token acts in, with its one owner and its version (shared with its settings). Any member may read it.',
  scope: 'member',
  input: z.strictObject({}),
  output: Studio,
  errors: [],
  example: {},
  handler: (ctx) => studio.getStudio(ctx),
});

export const updateStudio = defineAction({
  name: 'update_studio',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'studio',
  summary: 'Rename your studio.',
  description:
    "Changes the studio's name. Needs expectedVersion: the version from get_studio or get_studio_settings (they share it).",
  scope: 'workspace:manage',
  versioned: { entity: STUDIO, idField: 'studioId' },
  input: z.strictObject({ name: StudioName }),
  output: Studio,
  errors: [],
  example: { name: 'Hartley & Rowe Interiors', expectedVersion: 1 },
  handler: (ctx, input) => studio.updateStudio(ctx, input),
});
