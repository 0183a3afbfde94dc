import { bindResource } from '../../src/core/define-action.js';
import { archiveStudioProject } from '../projects/lifecycle.js';
import { createStudioProject, getStudioProject, listStudioProjects } from '../projects/projects.js';

/** The `/v1` project operations: each is its procedure twin bound to a path (one behaviour, two shapes). */

export const listProjects = bindResource(listStudioProjects, {
  name: 'list_projects',
  description:
    "Returns the studio's projects you manage or were granted, newest first. Filter by status, clientId (one client's projects) or a text query on name, reference and client.",
  http: { method: 'GET', path: '/projects', filters: ['status', 'clientId', 'q'] },
  mcp: { advertised: true, title: 'List projects' },
  example: { status: 'active' },
});

export const createProject = bindResource(createStudioProject, {
  name: 'create_project',
  description:
    'Creates a project in your studio (currency defaults to the studio\'s) with the given section titles in order (default: one "General" section), or with templateId the sections and starting lines of a project template: lines get the project\'s next codes and prices to be confirmed. Send sections or templateId, not both. You are granted edit access to it. Name its client by clientId (list_clients; create_client for a new one); clientName alone is a plain label, and the note in the answer says so. Needs an Idempotency-Key.',
  // The note is about this call, not the project: the tag is the one get_project's version check computes.
  http: { method: 'POST', path: '/projects', status: 201, created: '/projects/{id}', etagIgnores: ['note'] },
  example: {
    name: 'Harbour House',
    sections: ['Living Room', 'Kitchen'],
    idempotencyKey: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed',
  },
});

export const getProject = bindResource(getStudioProject, {
  name: 'get_project',
  description: 'Returns the project and its active sections in order, each with its count of active lines.',
  http: { method: 'GET', path: '/projects/{projectId}', etag: 'content' },
  mcp: { advertised: true, title: 'Get a project' },
  example: { projectId: '0000000000000000000000000a' },
});

/**
 * The seed's archival takes an Idempotency-Key and no version: a declared difference from archive_studio_project,
 * which checks expectedVersion. Both refuse a second archival with ALREADY_ARCHIVED.
 */
export const archiveProject = bindResource(archiveStudioProject, {
  name: 'archive_project',
  description:
    'Marks the project archived; it stays readable and can be restored. A second archival is refused with ALREADY_ARCHIVED. Needs an Idempotency-Key.',
  versioned: false,
  keyed: true,
  http: { method: 'POST', path: '/projects/{projectId}/archival' },
  example: { projectId: '0000000000000000000000000a', idempotencyKey: '0f8e2c4a-7b1d-4e6f-9a3c-5d2b8e1f4a67' },
});
