import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import * as options from '../../src/domain/properties/options.js';
import { PROPERTY_OPTION } from '../../src/domain/properties/entity.js';
import { frozenWhenArchived } from '../../src/domain/projects/guards.js';
import { EXAMPLE } from '../projects/shapes.js';
import { PropertyOptionId } from '../shared/refs.js';
import { page } from '../../src/core/values.js';
import { EX, inProperty } from './properties.js';
import { PROPERTY_OPTION_RECORD } from '../../src/domain/properties/record.js';
import { PropertyOption } from './records.js';

const inOption = { ...inProperty, optionId: PropertyOptionId };

export const listCustomPropertyOptions = defineAction({
  name: 'list_custom_property_options',
  kind: 'procedure',
  effect: 'query',
  domain: 'properties',
  summary: "List a choice property's options in display order.",
  description:
    'The options of a single_choice or multiple_choice property in display order (or sort by label), each with its version for update_custom_property_option and archive_custom_property_option. get_custom_property already lists the active ones; this list also reaches archived options (archived: include or only).',
  scope: 'projects:read',
  input: options.OPTION_LISTING.input,
  output: page(PropertyOption),
  errors: ['NOT_FOUND'],
  example: { projectId: EXAMPLE.projectId, propertyId: EX.propertyId },
  handler: (ctx, input) => options.listOptions(ctx, input),
});

export const createCustomPropertyOption = defineAction({
  name: 'create_custom_property_option',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'properties',
  summary: 'Add an option to a single- or multiple-choice custom property.',
  description:
    "Adds a choice, last in the property's order. Two active options of a property never share a label; other kinds of property have no options (VALIDATION_FAILED), and an archived property takes none (ARCHIVED). Send a fresh commandKey so a retry never adds it twice.",
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  keyed: true,
  input: z.strictObject({ ...inProperty, ...PROPERTY_OPTION_RECORD.createInput.shape }),
  output: PropertyOption,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    propertyId: EX.propertyId,
    label: 'Class 2',
    commandKey: '7e2a3b4c-5d6e-4f70-8a1b-2c3d4e5f6a7b',
  },
  handler: (ctx, input) => options.createOption(ctx, input.projectId, input.propertyId, input.label),
});

export const updateCustomPropertyOption = defineAction({
  name: 'update_custom_property_option',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'properties',
  summary: "Change a custom property option's label.",
  description:
    'Renames the option, with expectedVersion from your last read; lines that chose it show the new label at once (a line names the option, it does not copy it). Archived options do not change (ARCHIVED).',
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: { entity: PROPERTY_OPTION, idField: 'optionId' },
  // A rename takes the label a create takes (required: it is the only field an option has to change).
  input: z.strictObject({ ...inOption, ...PROPERTY_OPTION_RECORD.createInput.shape }),
  output: PropertyOption,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: {
    projectId: EXAMPLE.projectId,
    propertyId: EX.propertyId,
    optionId: EX.optionId,
    expectedVersion: 1,
    label: 'Class 1 (BS 476)',
  },
  handler: (ctx, input) => options.updateOption(ctx, input.projectId, input.propertyId, input.optionId, input.label),
});

export const archiveCustomPropertyOption = defineAction({
  name: 'archive_custom_property_option',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'properties',
  summary: 'Archive an option of a choice property; lines that chose it keep it.',
  description:
    'Archives the option (never deleted): lines that chose it keep the choice, and it is no longer offered or listed by default. Needs expectedVersion; a second archival answers ALREADY_ARCHIVED.',
  scope: 'projects:write',
  guards: [frozenWhenArchived],
  versioned: { entity: PROPERTY_OPTION, idField: 'optionId' },
  input: z.strictObject(inOption),
  output: PropertyOption,
  errors: ['NOT_FOUND', 'ALREADY_ARCHIVED'],
  example: { projectId: EXAMPLE.projectId, propertyId: EX.propertyId, optionId: EX.optionId, expectedVersion: 2 },
  handler: (ctx, input) => options.archiveOption(ctx, input.projectId, input.propertyId, input.optionId),
});
