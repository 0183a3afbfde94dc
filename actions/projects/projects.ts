import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { page } from '../../src/core/values.js';
import { Project, ProjectWithSections } from './records.js';
import * as projects from '../../src/domain/projects/projects.js';
import { EXAMPLE, ProjectListQuery } from './shapes.js';
import { PROJECT_RECORD } from '../../src/domain/projects/record.js';
import { ProjectId, TemplateId } from '../shared/refs.js';
import { PROJECT } from '../../src/domain/projects/entity.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';

export const listStudioProjects = defineAction({
  name: 'list_studio_projects',
  kind: 'procedure',
  effect: 'query',
  domain: 'projects',
  summary: 'List the projects you can reach, newest first.',
  description:
    "The studio's projects you manage or were granted, newest first, 500 per page by default. Filter by status (active or archived), by clientId (one client's projects; list_client_projects does the same from the client's side) or a text query on name, reference and client. Pass nextCursor back as cursor for the next page.",
  intents: ['show all our projects', 'which jobs are we working on', 'find a project'],
  scope: 'projects:read',
  input: ProjectListQuery,
  output: page(Project),
  errors: [],
  example: { status: 'active', q: 'Harbour' },
  handler: (ctx, input) => projects.listProjects(ctx, input),
});

export const getStudioProject = defineAction({
  name: 'get_studio_project',
  kind: 'procedure',
  effect: 'query',
  domain: 'projects',
  summary: 'Read a project with its sections in order.',
  description:
    'The project (archived or not) and its active sections in order, each with its count of active lines. Its version changes whenever the project or any of its sections changes; send it as expectedVersion to update_project_details, archive_studio_project, restore_project and reorder_schedule_sections.',
  intents: ['open a project', 'show a project and its rooms', 'project details'],
  scope: 'projects:read',
  input: z.strictObject({ projectId: ProjectId }),
  output: ProjectWithSections,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId },
  handler: (ctx, input) => projects.getProjectWithSections(ctx, input.projectId),
});

/**
 * A created project, and a note when clientName came without clientId: an agent told "for the client Ana Ruiz" would
 * otherwise believe a client record exists. The note is chosen over linking a client of that exact name, which could
 * silently pick the wrong one of two namesakes and would change what older callers get.
 */
const CreatedProject = ProjectWithSections.extend({
  note: z
    .string()
    .optional()
    .describe('Present when clientName was sent without clientId: what was recorded, and how to link a client.'),
});

const PLAIN_LABEL_NOTE =
  'clientName is recorded as a plain label: no client record was created or linked. To link one, find it with list_clients or add it with create_client, then update_project_details with its clientId.';

export const createStudioProject = defineAction({
  name: 'create_studio_project',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'projects',
  summary: 'Start a new project with its first sections, or from a project template.',
  description:
    'Creates a project in your studio (currency defaults to the studio\'s) with the given section titles in order (default: one "General" section), or with templateId the sections and starting lines of a project template (list_project_templates): lines get the project\'s next codes and prices to be confirmed. Send sections or templateId, not both. You are granted edit access to it. Name its client by clientId (find it with list_clients, or add it with create_client first; an archived client is refused); clientName alone, the older way, records a plain label linked to no client. Send a fresh commandKey so a retry never creates it twice.',
  intents: ['start a new project', 'start a job from a template for a new client', 'open a project for a client'],
  scope: 'projects:write',
  keyed: true,
  input: PROJECT_RECORD.createInput.extend({
    sections: z
      .array(z.string().trim().min(1).max(200))
      .min(1)
      .max(100)
      .optional()
      .describe('Section titles in order, e.g. ["Living Room", "Kitchen"].'),
    templateId: TemplateId.optional().describe(
      "Start from this template's sections and starting lines instead of sections (an archived one: ARCHIVED).",
    ),
  }),
  output: CreatedProject,
  errors: ['ARCHIVED'],
  example: {
    name: 'Harbour House',
    reference: 'HH-2026',
    clientId: '0000000000000000000000000k',
    sections: ['Living Room', 'Kitchen'],
    commandKey: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed',
  },
  handler: async (ctx, input) => {
    const created = await projects.createProject(ctx, input);
    return input.clientName && !input.clientId ? { ...created, note: PLAIN_LABEL_NOTE } : created;
  },
});

export const updateProjectDetails = defineAction({
  name: 'update_project_details',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'projects',
  summary: "Change a project's name, reference, client, currency or default markup.",
  description:
    "Send only the fields to change, with expectedVersion from your last read of the project (its sections' changes move it too). clientId links one of the studio's clients (list_clients; an archived one is refused) and the project then shows that client's name; null unlinks. clientName is for older callers: it sets a plain label on a project linked to no client, and on a linked project may only repeat the client's name (rename a client with update_client). null clears reference and defaultMarkup (back to the studio default; needs pricing:write). Currency can change only while no line has a set price: amounts are never converted. An archived project must be restored first.",
  intents: ['rename a project', 'change the client or markup of a job', 'edit project details'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: { entity: PROJECT, idField: 'projectId' },
  input: PROJECT_RECORD.patchInput.extend({ projectId: ProjectId }),
  output: Project,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { projectId: EXAMPLE.projectId, expectedVersion: 3, clientId: '0000000000000000000000000k' },
  handler: (ctx, { projectId, ...patch }) => projects.updateProject(ctx, projectId, patch),
});
