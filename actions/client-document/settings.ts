import { z } from 'zod';
import { CLIENT_DOCUMENT_COLUMNS } from '../../db/vocabulary.js';
import { defineAction } from '../../src/core/define-action.js';
import { CLIENT_DOCUMENT_SETTINGS } from '../../src/domain/client-document/entity.js';
import { getSettings, updateSettings } from '../../src/domain/client-document/settings.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { EXAMPLE } from '../projects/shapes.js';
import { CustomPropertyId, ProjectId } from '../shared/refs.js';
import { AccentColour } from '../studio/shapes.js';
import { ClientDocumentColumn, ClientDocumentSettings } from './records.js';

export const getClientDocumentSettings = defineAction({
  name: 'get_client_document_settings',
  kind: 'procedure',
  effect: 'query',
  domain: 'clientDocument',
  summary: "Read what a project's client document shows: title, introduction, prices, columns, branding.",
  description:
    "The settings that shape the project's client document: its title and introduction, whether prices show, which columns (supplier, brand, productCode, finish, dimensions, leadTime) and which client-visible custom properties each piece shows, and the studio name and accent colour it carries. Before they are first saved they are the defaults, at version 1. Send the version back as expectedVersion to update_client_document_settings.",
  scope: 'documents:read',
  input: z.strictObject({ projectId: ProjectId }),
  output: ClientDocumentSettings,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId },
  handler: (ctx, input) => getSettings(ctx, input.projectId),
});

export const updateClientDocumentSettings = defineAction({
  name: 'update_client_document_settings',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'clientDocument',
  summary: "Change what a project's client document shows: title, introduction, prices, columns, branding.",
  description:
    'A merge patch with expectedVersion from get_client_document_settings: only the fields sent change (branding field by field; null returns title, studioName or accentColour to the default). columns and propertyIds replace the whole list, in the order to show. Only custom properties marked clientVisible can be chosen (mark one with update_custom_property first). showPrices false removes every price from the document. The live document changes at once; minted versions never do. An archived project is frozen (ARCHIVED): restore_project first.',
  intents: [
    'hide prices from the client',
    'choose which columns the client sees',
    "change the client document's introduction",
  ],
  scope: 'documents:write',
  guards: [frozenWhenArchived],
  versioned: { entity: CLIENT_DOCUMENT_SETTINGS, idField: 'projectId' },
  input: z.strictObject({
    projectId: ProjectId,
    title: z.string().trim().min(1).max(200).nullable().optional().describe("null: the project's name."),
    introduction: z.string().trim().max(5000).optional().describe('Opening prose; an empty string removes it.'),
    showPrices: z.boolean().optional(),
    columns: z
      .array(ClientDocumentColumn)
      .max(CLIENT_DOCUMENT_COLUMNS.length)
      .optional()
      .describe('The whole list, in order.'),
    propertyIds: z
      .array(CustomPropertyId)
      .max(100)
      .optional()
      .describe('The whole list of client-visible custom properties to show, in order; [] shows none.'),
    branding: z
      .strictObject({
        studioName: z.string().trim().min(1).max(200).nullable(),
        accentColour: AccentColour.nullable(),
      })
      .partial()
      .optional()
      .describe("Only the fields given change; null returns to the studio's own."),
  }),
  output: ClientDocumentSettings,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    expectedVersion: 1,
    title: 'Harbour House: furniture and lighting',
    showPrices: true,
    columns: ['brand', 'finish', 'leadTime'],
    branding: { accentColour: '#7a4b2a' },
  },
  handler: (ctx, { projectId, ...patch }) => updateSettings(ctx, projectId, patch),
});
