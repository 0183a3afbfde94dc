import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import * as properties from '../../src/domain/properties/properties.js';
import { CUSTOM_PROPERTY } from '../../src/domain/properties/entity.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { EXAMPLE } from '../projects/shapes.js';
import { CustomPropertyId, ProjectId } from '../shared/refs.js';
import { page } from '../../src/core/values.js';
import { CUSTOM_PROPERTY_RECORD } from '../../src/domain/properties/record.js';
import { CustomProperty, OptionLabel } from './records.js';

/** A fake id for examples: the shape the API mints, no meaning. */
export const EX = { propertyId: '0000000000000000000000000p', optionId: '0000000000000000000000000o' } as const;
export const inProperty = { projectId: ProjectId, propertyId: CustomPropertyId };

export const listCustomProperties = defineAction({
  name: 'list_custom_properties',
  kind: 'procedure',
  effect: 'query',
  domain: 'properties',
  summary: "List a project's custom properties (its own schedule columns) in display order.",
  description:
    "The project's custom properties in display order (or sort by name or createdAt; '-' for descending), each with its kind, whether the client sees it, and for choice properties its active options. Find one by a piece of its name with q; archived properties are left out unless archived is include or only.",
  scope: 'projects:read',
  input: properties.PROPERTY_LISTING.input,
  output: page(CustomProperty),
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId },
  handler: (ctx, input) => properties.listProperties(ctx, input),
});

export const getCustomProperty = defineAction({
  name: 'get_custom_property',
  kind: 'procedure',
  effect: 'query',
  domain: 'properties',
  summary: 'Read one custom property with its kind, options and version.',
  description:
    'The property (archived or not) with its kind, display position, whether the client sees it, its active options when it is a choice property, and its version for update_custom_property and archive_custom_property.',
  scope: 'projects:read',
  input: z.strictObject(inProperty),
  output: CustomProperty,
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, propertyId: EX.propertyId },
  handler: (ctx, input) => properties.getProperty(ctx, input.projectId, input.propertyId),
});

export const createCustomProperty = defineAction({
  name: 'create_custom_property',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'properties',
  summary: 'Add a custom property (a schedule column of its own) to a project.',
  description:
    "Creates a property of one kind, last in the project's order: text, long_text, number, money, date, yes_no, single_choice, multiple_choice or url (the kind never changes afterwards). A choice property may bring its first options as labels. Two active properties of a project never share a name. clientVisible (default false) shows it to the client. Send a fresh commandKey so a retry never creates it twice.",
  intents: ['add our own column', 'track another field on every piece', 'create a custom field'],
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  keyed: true,
  input: z.strictObject({
    projectId: ProjectId,
    ...CUSTOM_PROPERTY_RECORD.createInput.shape,
    options: z.array(OptionLabel).max(200).optional().describe('Choice kinds only: the first options, in order.'),
  }),
  output: CustomProperty,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    name: 'Fire rating',
    kind: 'single_choice',
    clientVisible: true,
    options: ['Class 0', 'Class 1'],
    commandKey: '6d1f2e3a-4b5c-4d6e-8f70-8192a3b4c5d6',
  },
  handler: (ctx, input) => properties.createProperty(ctx, input),
});

export const updateCustomProperty = defineAction({
  name: 'update_custom_property',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'properties',
  summary: 'Rename a custom property or change whether the client sees it.',
  description:
    'A merge patch: send name, clientVisible or both, with expectedVersion from your last read. The kind cannot change (its values would no longer fit): archive the property and create another instead. Archived properties do not change (ARCHIVED).',
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: { entity: CUSTOM_PROPERTY, idField: 'propertyId' },
  input: z.strictObject({ ...inProperty, ...CUSTOM_PROPERTY_RECORD.patchInput.shape }),
  output: CustomProperty,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { projectId: EXAMPLE.projectId, propertyId: EX.propertyId, expectedVersion: 1, clientVisible: false },
  handler: (ctx, { projectId, propertyId, ...patch }) => properties.updateProperty(ctx, projectId, propertyId, patch),
});

export const archiveCustomProperty = defineAction({
  name: 'archive_custom_property',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'properties',
  summary: 'Archive a custom property; the values lines hold for it are kept.',
  description:
    'Archives the property (never deleted): the values lines hold for it are kept but no longer show, and its name may be used again. Needs expectedVersion; a second archival answers ALREADY_ARCHIVED.',
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: { entity: CUSTOM_PROPERTY, idField: 'propertyId' },
  input: z.strictObject(inProperty),
  output: CustomProperty,
  errors: ['NOT_FOUND', 'ALREADY_ARCHIVED', 'ARCHIVED'],
  example: { projectId: EXAMPLE.projectId, propertyId: EX.propertyId, expectedVersion: 2 },
  handler: (ctx, input) => properties.archiveProperty(ctx, input.projectId, input.propertyId),
});

export const reorderCustomProperties = defineAction({
  name: 'reorder_custom_properties',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'properties',
  summary: "Reorder a project's custom properties (change the column order).",
  description:
    'Send every active property id of the project exactly once, in the new order (list_custom_properties gives them). A list that leaves out, repeats or adds a property is refused with VALIDATION_FAILED and nothing moves. Returns the properties in their new order; each one that moved gains a version.',
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  input: z.strictObject({
    projectId: ProjectId,
    propertyIds: z
      .array(CustomPropertyId)
      .min(1)
      .max(1000)
      .describe('All active properties of the project, in the new order.'),
  }),
  output: page(CustomProperty),
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { projectId: EXAMPLE.projectId, propertyIds: [EX.propertyId, '0000000000000000000000000q'] },
  handler: (ctx, input) => properties.reorderProperties(ctx, input.projectId, input.propertyIds),
});
