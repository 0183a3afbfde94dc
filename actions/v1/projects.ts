import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { Currency, Id, Markup, page } from '../shared/values.js';
import { ProjectListQuery } from '../shared/queries.js';
import { Project, ProjectWithSections } from '../shared/records.js';
import * as projects from '../../src/domain/projects/projects.js';

export const ProjectFields = z.strictObject({
  name: z.string().trim().min(1).max(200),
  reference: z.string().max(60).nullable(),
  clientName: z.string().max(200).nullable(),
  currency: Currency,
  defaultMarkup: Markup.nullable().describe('Needs pricing:write. Null: the studio default applies.'),
});

export const listProjects = defineAction({
  name: 'list_projects',
  kind: 'resource',
  effect: 'query',
  domain: 'projects',
  summary: 'List the projects you can reach, newest first.',
  description:
    "Returns the studio's projects you manage or were granted, newest first. Filter by status or a text query on name, reference and client.",
  scope: 'projects:read',
  input: ProjectListQuery,
  output: page(Project),
  errors: [],
  http: { method: 'GET', path: '/projects', filters: ['status', 'q'] },
  mcp: { advertised: true, title: 'List projects' },
  example: { status: 'active' },
  handler: (ctx, input) => projects.listProjects(ctx, input),
});

export const createProject = defineAction({
  name: 'create_project',
  kind: 'resource',
  effect: 'mutation',
  domain: 'projects',
  summary: 'Start a new project with its first sections.',
  description:
    'Creates a project in your studio (currency defaults to the studio\'s) with the given section titles in order (default: one "General" section). You are granted edit access to it. Needs an Idempotency-Key.',
  scope: 'projects:write',
  keyed: true,
  input: ProjectFields.partial().extend({
    name: ProjectFields.shape.name,
    sections: z
      .array(z.string().trim().min(1).max(200))
      .min(1)
      .max(100)
      .optional()
      .describe('Section titles in order, e.g. ["Living Room", "Kitchen"].'),
  }),
  output: ProjectWithSections,
  errors: [],
  http: { method: 'POST', path: '/projects', status: 201, created: '/projects/{id}' },
  example: {
    name: 'Harbour House',
    sections: ['Living Room', 'Kitchen'],
    idempotencyKey: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed',
  },
  handler: (ctx, input) => projects.createProject(ctx, input),
});

export const getProject = defineAction({
  name: 'get_project',
  kind: 'resource',
  effect: 'query',
  domain: 'projects',
  summary: 'Read a project with its sections in order.',
  description: 'Returns the project and its active sections in order, each with its count of active lines.',
  scope: 'projects:read',
  input: z.strictObject({ projectId: Id }),
  output: ProjectWithSections,
  errors: ['NOT_FOUND'],
  http: { method: 'GET', path: '/projects/{projectId}', etag: 'content' },
  mcp: { advertised: true, title: 'Get a project' },
  example: { projectId: '0000000000000000000000000a' },
  handler: (ctx, input) => projects.getProjectWithSections(ctx, input.projectId),
});

export const archiveProject = defineAction({
  name: 'archive_project',
  kind: 'resource',
  effect: 'mutation',
  domain: 'projects',
  summary: 'Archive a project (visible to the client).',
  description:
    'Marks the project archived; it stays readable and can be restored. A second archival is refused with ALREADY_ARCHIVED. Needs an Idempotency-Key.',
  scope: 'projects:write',
  keyed: true,
  input: z.strictObject({ projectId: Id }),
  output: Project,
  errors: ['NOT_FOUND', 'ALREADY_ARCHIVED'],
  http: { method: 'POST', path: '/projects/{projectId}/archival' },
  example: { projectId: '0000000000000000000000000a', idempotencyKey: '0f8e2c4a-7b1d-4e6f-9a3c-5d2b8e1f4a67' },
  archivedProjectWritable: true,
  handler: (ctx, input) => projects.archiveProject(ctx, input.projectId),
});
