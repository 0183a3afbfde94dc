import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import * as clients from '../../src/domain/clients/clients.js';
import { CLIENT } from '../../src/domain/clients/entity.js';
import { listProjects } from '../../src/domain/projects/projects.js';
import { Project } from '../projects/records.js';
import { ProjectListQuery } from '../projects/shapes.js';
import { ClientId } from '../shared/refs.js';
import { page } from '../../src/core/values.js';
import { CLIENT_RECORD } from '../../src/domain/clients/record.js';
import { Client } from './records.js';

/** A fake id for examples: the shape the API mints, no meaning. */
const EX = { clientId: '0000000000000000000000000k' } as const;
const inClient = { clientId: ClientId };

export const listClients = defineAction({
  name: 'list_clients',
  kind: 'procedure',
  effect: 'query',
  domain: 'clients',
  summary: "List the studio's clients, by name.",
  description:
    "The studio's clients in name order (or sort by createdAt; '-' for descending). Find one by a piece of its name, email or phone with q; archived clients are left out unless archived is include or only. Use a client's id as a project's clientId, and list_client_projects for its projects.",
  scope: 'reference:read',
  input: clients.CLIENT_LISTING.input,
  output: page(Client),
  errors: [],
  example: { q: 'marsden' },
  handler: (ctx, input) => clients.listClients(ctx, input),
});

export const getClient = defineAction({
  name: 'get_client',
  kind: 'procedure',
  effect: 'query',
  domain: 'clients',
  summary: 'Read one client with their contact details, billing address and version.',
  description:
    'The client (archived or not) with their email, phone, billing address, notes, and version for update_client and archive_client. Their projects: list_client_projects.',
  scope: 'reference:read',
  input: z.strictObject(inClient),
  output: Client,
  errors: ['NOT_FOUND'],
  example: { clientId: EX.clientId },
  handler: (ctx, input) => clients.getClient(ctx, input.clientId),
});

export const createClient = defineAction({
  name: 'create_client',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'clients',
  summary: 'Add a client the studio works for.',
  description:
    'Creates a client in your studio; only name is required (email, phone, billingAddress as plain text, notes). Check list_clients with q first: two records for one client split their projects. Then name it on a project with create_studio_project or update_project_details (clientId). Send a fresh commandKey so a retry never creates it twice.',
  intents: ['add a new client', "record a client's details", 'set up a client record'],
  scope: 'reference:write',
  keyed: true,
  input: CLIENT_RECORD.createInput,
  output: Client,
  errors: [],
  example: {
    name: 'Mr and Mrs Okafor',
    email: 'okafor.home@example.com',
    billingAddress: '12 Quay Street\nFalmouth TR11 3HH',
    commandKey: '9b2d4f6a-1c3e-4a5b-8d7f-0e1a2b3c4d5e',
  },
  handler: (ctx, input) => clients.createClient(ctx, input),
});

export const updateClient = defineAction({
  name: 'update_client',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'clients',
  summary: "Change a client's name, contact details, billing address or notes.",
  description:
    'A merge patch: send only the fields to change (null clears email, phone or billingAddress), with expectedVersion from your last read. Projects linked to the client show a new name at once. Archived clients do not change (ARCHIVED).',
  scope: 'reference:write',
  versioned: { entity: CLIENT, idField: 'clientId' },
  input: CLIENT_RECORD.patchInput.extend(inClient),
  output: Client,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { clientId: EX.clientId, expectedVersion: 2, phone: '+44 1326 000000' },
  handler: (ctx, { clientId, ...patch }) => clients.updateClient(ctx, clientId, patch),
});

export const archiveClient = defineAction({
  name: 'archive_client',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'clients',
  summary: 'Archive a client the studio no longer works for.',
  description:
    'Archives the client (never deleted). Projects that name them keep them, and the answer says how many active ones do (note); new projects and edits cannot choose them. Needs expectedVersion; a second archival answers ALREADY_ARCHIVED.',
  scope: 'reference:write',
  versioned: { entity: CLIENT, idField: 'clientId' },
  input: z.strictObject(inClient),
  output: Client.extend({
    note: z.string().nullable().describe('Says how many active projects still name the client; null when none.'),
  }),
  errors: ['NOT_FOUND', 'ALREADY_ARCHIVED'],
  example: { clientId: EX.clientId, expectedVersion: 3 },
  handler: (ctx, input) => clients.archiveClient(ctx, input.clientId),
});

/**
 * A client's projects are projects: the same records, the same grant rule and the same query as list_studio_projects
 * with its clientId filter, so the scope is the one reading projects needs.
 */
export const listClientProjects = defineAction({
  name: 'list_client_projects',
  kind: 'procedure',
  effect: 'query',
  domain: 'clients',
  summary: "List a client's projects that you can reach, newest first.",
  description:
    "The projects linked to the client (archived client or not) among those you manage or were granted, newest first, 500 per page by default; filter by status or a text query as list_studio_projects does. Projects that only carry the client's name as a plain label, linked to no client, are not listed.",
  scope: 'projects:read',
  input: ProjectListQuery.extend({ clientId: ClientId }),
  output: page(Project),
  errors: [],
  example: { clientId: EX.clientId, status: 'active' },
  handler: (ctx, input) => listProjects(ctx, input),
});
