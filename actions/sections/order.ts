import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { ProjectWithSections } from '../projects/records.js';
import { getProjectWithSections } from '../../src/domain/projects/projects.js';
import { reorderSections } from '../../src/domain/sections/order.js';
import { EXAMPLE } from '../projects/shapes.js';
import { ProjectId, SectionId } from '../shared/refs.js';
import { PROJECT } from '../../src/domain/projects/entity.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';

export const reorderScheduleSections = defineAction({
  name: 'reorder_schedule_sections',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'sections',
  summary: "Put a project's sections in a new order.",
  description:
    "Send every active section id of the project exactly once, in the new order, with the project's expectedVersion (from get_studio_project). A list that leaves out, repeats or adds a section is refused with VALIDATION_FAILED and nothing moves. Returns the project with its sections in the new order and its new version.",
  intents: ['put the rooms in a different order', 'move the kitchen before the lounge', 'reorder rooms'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: { entity: PROJECT, idField: 'projectId' },
  input: z.strictObject({
    projectId: ProjectId,
    sectionIds: z.array(SectionId).min(1).max(1000).describe('All active sections of the project, in the new order.'),
  }),
  output: ProjectWithSections,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    expectedVersion: 7,
    sectionIds: [EXAMPLE.otherSectionId, EXAMPLE.sectionId],
  },
  handler: async (ctx, input) => {
    await reorderSections(ctx, input.projectId, input.sectionIds);
    return getProjectWithSections(ctx, input.projectId);
  },
});
