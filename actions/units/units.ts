import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import * as units from '../../src/domain/units/units.js';
import { UNIT } from '../../src/domain/units/entity.js';
import { UnitId } from '../shared/refs.js';
import { page } from '../../src/core/values.js';
import { UNIT_RECORD } from '../../src/domain/units/record.js';
import { Unit } from './records.js';

/** A fake id for examples: the shape the API mints, no meaning. */
const EX = { unitId: '0000000000000000000000000u' } as const;
const inUnit = { unitId: UnitId };

export const listUnits = defineAction({
  name: 'list_units',
  kind: 'procedure',
  effect: 'query',
  domain: 'units',
  summary: "List the studio's units of quantity (each, m², roll …), by name.",
  description:
    "The studio's units in name order (or sort by symbol or createdAt; '-' for descending), each with its symbol, whether it is the studio default, and how many active lines are measured in it. Find one by a piece of its name or symbol with q; archived units are left out unless archived is include or only. Use a unit's id as quantity.unitId on a line. get_studio_settings lists the active units too, beside the default.",
  scope: 'reference:read',
  input: units.UNIT_LISTING.input,
  output: page(Unit),
  errors: [],
  example: { q: 'metre' },
  handler: (ctx, input) => units.listUnits(ctx, input),
});

export const getUnit = defineAction({
  name: 'get_unit',
  kind: 'procedure',
  effect: 'query',
  domain: 'units',
  summary: 'Read one unit of quantity with its symbol and version.',
  description:
    'The unit (archived or not) with its name, symbol, whether it is the studio default, how many active lines are measured in it, and its version for update_unit and archive_unit.',
  scope: 'reference:read',
  input: z.strictObject(inUnit),
  output: Unit,
  errors: ['NOT_FOUND'],
  example: { unitId: EX.unitId },
  handler: (ctx, input) => units.getUnit(ctx, input.unitId),
});

export const createUnit = defineAction({
  name: 'create_unit',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'units',
  summary: 'Add a unit of quantity lines can be measured in.',
  description:
    'Creates a unit in your studio from its name and symbol (e.g. "linear metre", "lm"). Two active units never share a name or a symbol: check list_units with q first, and reuse the one that exists. Send a fresh commandKey so a retry never creates it twice.',
  scope: 'reference:write',
  keyed: true,
  input: UNIT_RECORD.createInput,
  output: Unit,
  errors: [],
  example: { name: 'linear metre', symbol: 'lm', commandKey: '3e5b7c1d-9a2f-4c6e-8b0d-7f1a2c3e4d5b' },
  handler: (ctx, input) => units.createUnit(ctx, input),
});

export const updateUnit = defineAction({
  name: 'update_unit',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'units',
  summary: "Change a unit's name or symbol.",
  description:
    'A merge patch: send name, symbol or both, with expectedVersion from your last read. Every line measured in the unit shows the change at once (a line names its unit, it does not copy it), so correct a unit rather than create a second one. Archived units do not change (ARCHIVED).',
  scope: 'reference:write',
  versioned: { entity: UNIT, idField: 'unitId' },
  input: UNIT_RECORD.patchInput.extend(inUnit),
  output: Unit,
  errors: ['NOT_FOUND', 'ARCHIVED'],
  example: { unitId: EX.unitId, expectedVersion: 1, symbol: 'm²' },
  handler: (ctx, { unitId, ...patch }) => units.updateUnit(ctx, unitId, patch),
});

export const archiveUnit = defineAction({
  name: 'archive_unit',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'units',
  summary: 'Archive a unit of quantity the studio no longer uses.',
  description:
    "Archives the unit (never deleted). Lines measured in it keep it, and the answer says how many (note); new lines and edits cannot choose it. The studio's default unit cannot be archived: choose another default with update_studio_settings first. Needs expectedVersion; a second archival answers ALREADY_ARCHIVED.",
  intents: ['retire a unit we no longer sell by', 'stop using a unit', 'archive a unit'],
  scope: 'reference:write',
  versioned: { entity: UNIT, idField: 'unitId' },
  input: z.strictObject(inUnit),
  output: Unit.extend({
    note: z.string().nullable().describe('Says how many active lines are still measured in the unit; null when none.'),
  }),
  errors: ['NOT_FOUND', 'ALREADY_ARCHIVED'],
  example: { unitId: EX.unitId, expectedVersion: 2 },
  handler: (ctx, input) => units.archiveUnit(ctx, input.unitId),
});
