import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { Project, ProjectWithSections } from './records.js';
import * as projects from '../../src/domain/projects/projects.js';
import { EXAMPLE } from './shapes.js';
import { PROJECT_RECORD } from '../../src/domain/projects/record.js';
import { ProjectId } from '../shared/refs.js';
import { PROJECT } from '../../src/domain/projects/entity.js';

export const archiveStudioProject = defineAction({
  name: 'archive_studio_project',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'projects',
  summary: 'Archive a project (visible to the client).',
  description:
    'Marks the project archived: it stays readable, its schedule can no longer change, and restore_project brings it back. Needs expectedVersion; a second archival is refused with ALREADY_ARCHIVED.',
  intents: ['close off a finished project', 'the job is done, put it away', 'archive a project'],
  scope: 'projects:write',
  versioned: { entity: PROJECT, idField: 'projectId' },
  input: z.strictObject({ projectId: ProjectId }),
  output: Project,
  errors: ['NOT_FOUND', 'ALREADY_ARCHIVED'],
  example: { projectId: EXAMPLE.projectId, expectedVersion: 4 },
  handler: (ctx, input) => projects.archiveProject(ctx, input.projectId),
});

export const restoreProject = defineAction({
  name: 'restore_project',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'projects',
  summary: 'Bring an archived project back to active.',
  description:
    'Clears the archival so the project can change again. Needs expectedVersion; an active project is refused with NOT_ARCHIVED.',
  intents: ['reopen an archived project', 'bring a finished job back', 'unarchive a project'],
  scope: 'projects:write',
  versioned: { entity: PROJECT, idField: 'projectId' },
  input: z.strictObject({ projectId: ProjectId }),
  output: Project,
  errors: ['NOT_FOUND', 'NOT_ARCHIVED'],
  example: { projectId: EXAMPLE.projectId, expectedVersion: 5 },
  handler: (ctx, input) => projects.restoreProject(ctx, input.projectId),
});

export const duplicateProject = defineAction({
  name: 'duplicate_project',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'projects',
  summary: 'Copy a project with its sections and active lines.',
  description:
    'Creates a new active project with the source\'s details, its active sections in order and their active lines (new ids, version 1, the same codes). Archived sections and lines are not copied, nor are other members\' grants: you are granted edit access. Name defaults to "<source name> (copy)"; reference to none. Send a fresh commandKey so a retry never copies twice.',
  intents: ['copy a whole project', 'start from a copy of another job', 'clone a project'],
  scope: 'projects:write',
  keyed: true,
  input: z.strictObject({
    projectId: ProjectId.describe('The project to copy.'),
    name: PROJECT_RECORD.createInput.shape.name.optional(),
    reference: PROJECT_RECORD.createInput.shape.reference,
  }),
  output: ProjectWithSections,
  errors: ['NOT_FOUND'],
  example: {
    projectId: EXAMPLE.projectId,
    name: 'Harbour House, phase 2',
    commandKey: '5f0c2a8e-7d55-4c1b-9a53-2f3c4e7b9d10',
  },
  handler: (ctx, { projectId, ...rest }) => projects.duplicateProject(ctx, projectId, rest),
});
