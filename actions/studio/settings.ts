import { z } from 'zod';
import { defineAction } from '../../src/core/define-action.js';
import { Currency } from '../../src/core/values.js';
import { AccentColour, CodePrefix, StudioSettings, boundedRatio } from './shapes.js';
import * as settings from '../../src/domain/studio/settings.js';
import { UnitId } from '../shared/refs.js';
import { STUDIO } from '../../src/domain/studio/entity.js';
import { priced } from '../../src/core/schema-marks.js';

export const getStudioSettings = defineAction({
  name: 'get_studio_settings',
  kind: 'procedure',
  effect: 'query',
  domain: 'studio',
  summary: "Read the studio's defaults: markup, currency, tax, units, code format and branding.",
  description:
    'Returns the defaults new projects and lines start from (default markup, currency, tax rate, default unit and the active units, the line code prefix) and the branding client documents carry. The default markup is absent without pricing:read. Any member may read them.',
  scope: 'member',
  input: z.strictObject({}),
  output: StudioSettings,
  errors: [],
  example: {},
  handler: (ctx) => settings.getSettings(ctx),
});

const SettingsPatch = z
  .strictObject({
    defaultMarkup: priced(boundedRatio(100_000n, 'A markup')).describe(
      'Needs pricing:write. "3500" = 35%; at most 1000%.',
    ),
    currency: Currency.describe('For new projects; existing projects keep theirs.'),
    taxRate: boundedRatio(10_000n, 'A tax rate').describe('"2000" = 20%; at most 100%.'),
    defaultUnitId: UnitId.describe("One of the studio's active units."),
    codeFormat: z
      .strictObject({ prefix: CodePrefix })
      .describe("The default code scheme's prefix (list_codes), for new line codes; existing codes stay."),
    branding: z
      .strictObject({
        displayName: z.string().trim().min(1).max(200).nullable(),
        accentColour: AccentColour,
        logoText: z.string().trim().min(1).max(60).nullable(),
      })
      .partial()
      .describe('Only the fields given change; null clears displayName or logoText.'),
  })
  .partial();

export const updateStudioSettings = defineAction({
  name: 'update_studio_settings',
  kind: 'procedure',
  effect: 'mutation',
  domain: 'studio',
  summary: "Change the studio's defaults or branding.",
  description:
    "Merge patch of the studio's settings: only the fields given change. Defaults apply to what is created afterwards; existing projects keep their currency and markup, existing lines their codes. Setting defaultMarkup needs pricing:write. Needs expectedVersion (the studio's version).",
  intents: ['change our logo and colours', 'set the default markup and currency', "change the studio's branding"],
  scope: 'workspace:manage',
  versioned: { entity: STUDIO, idField: 'studioId' },
  input: SettingsPatch,
  output: StudioSettings,
  errors: [],
  example: { taxRate: { ratio4: '2000' }, branding: { accentColour: '#7a4b2a' }, expectedVersion: 1 },
  handler: (ctx, input) => settings.updateSettings(ctx, input),
});
