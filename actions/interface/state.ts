import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { SIDEBAR_STATE } from '../../src/domain/interface/entity.js';
import * as state from '../../src/domain/interface/state.js';
import { LIMITS } from '../../src/domain/interface/vocabulary.js';
import { EXAMPLE } from '../projects/shapes.js';
import { ReadProjectId } from '../shared/refs.js';
import { Timestamp } from '../../src/core/values.js';
import { SidebarFields, SidebarState } from './records.js';

export const updateSidebarState = defineAction({
  name: 'update_sidebar_state',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'interface',
  summary: 'Change your sidebar in this studio: collapsed, width, folded groups, pinned projects.',
  description:
    "Your sidebar in this studio (another studio of yours keeps its own): collapsed, width (180 to 480 pixels), collapsedGroups and pinnedProjectIds (up to 20 projects you can reach, a view grant is enough); each list replaces the whole. A merge patch: send expectedVersion from get_current_user's interfaceState.sidebar (1 until first saved).",
  scope: 'self',
  versioned: { entity: SIDEBAR_STATE, versionOf: state.sidebarVersion },
  input: z.strictObject({
    collapsed: SidebarFields.collapsed.optional(),
    width: SidebarFields.width.optional(),
    collapsedGroups: SidebarFields.collapsedGroups.optional(),
    pinnedProjectIds: z
      .array(ReadProjectId)
      .max(LIMITS.pinnedProjects)
      .optional()
      .describe('Projects to pin to the top, in order; [] unpins all.'),
  }),
  output: SidebarState,
  errors: ['NOT_FOUND'],
  example: { expectedVersion: 1, collapsedGroups: ['reference_data'], pinnedProjectIds: [EXAMPLE.projectId] },
  handler: (ctx, input) => state.updateSidebar(ctx, input),
});

export const completeFirstRun = defineAction({
  name: 'complete_first_run',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'interface',
  summary: 'Record that you finished the first-run (onboarding) flow in this studio; a repeat changes nothing.',
  description:
    'Sets interfaceState.firstRunCompletedAt (get_current_user) for your membership in this studio, so a client stops showing its first-run flow there. Calling it again answers the first time with alreadyCompleted true and changes nothing, so a retry is harmless and needs no key or version. Another studio you belong to keeps its own.',
  scope: 'self',
  input: z.strictObject({}),
  output: z.strictObject({
    firstRunCompletedAt: Timestamp.describe('When you finished it (the first time).'),
    alreadyCompleted: z.boolean().describe('True when it had been recorded before this call.'),
  }),
  errors: [],
  example: {},
  handler: (ctx) => state.completeFirstRun(ctx),
});
