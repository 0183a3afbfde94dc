import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Currency } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { renameDefaultScheme } from '../codes/schemes.js';
import { loadStudio, type StudioRow, type StudioUpdate, writeStudio } from './studio.js';

/** The studio's active units, for pickers: archived units stay on old lines but are not offered. */
async function activeUnits(db: Kysely<Database>, studioId: string) {
  return db
    .selectFrom('units')
    .select(['id', 'name', 'symbol'])
    .where('studio_id', '=', studioId)
    .where('archived_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** The code a line gets, shown next to the prefix so a person sees what the setting does (see schedule/codes.ts). */
export const exampleCode = (prefix: string) => `${prefix}-001`;

export async function presentSettings(db: Kysely<Database>, row: StudioRow) {
  return {
    defaultMarkup: { ratio4: row.default_markup4 },
    currency: row.currency,
    taxRate: { ratio4: row.tax_rate4 },
    defaultUnitId: row.default_unit_id,
    units: await activeUnits(db, row.id),
    codeFormat: { prefix: row.code_prefix, example: exampleCode(row.code_prefix) },
    branding: {
      displayName: row.brand_display_name,
      accentColour: row.brand_accent_colour,
      logoText: row.brand_logo_text,
    },
    version: row.version,
    updatedAt: row.updated_at,
  };
}

export async function getSettings(ctx: ActionContext) {
  return presentSettings(ctx.db, await loadStudio(ctx.db, ctx.studioId));
}

export interface SettingsPatch {
  defaultMarkup?: { ratio4: string };
  currency?: Currency;
  taxRate?: { ratio4: string };
  defaultUnitId?: string;
  codeFormat?: { prefix: string };
  branding?: { displayName?: string | null; accentColour?: string; logoText?: string | null };
}

/** Settings as columns; only what the patch names changes (merge-patch semantics, branding field by field too). */
function settingsColumns(patch: SettingsPatch): StudioUpdate {
  const c: StudioUpdate = {};
  if (patch.defaultMarkup) c.default_markup4 = patch.defaultMarkup.ratio4;
  if (patch.currency) c.currency = patch.currency;
  if (patch.taxRate) c.tax_rate4 = patch.taxRate.ratio4;
  if (patch.defaultUnitId) c.default_unit_id = patch.defaultUnitId;
  if (patch.codeFormat) c.code_prefix = patch.codeFormat.prefix;
  const b = patch.branding;
  if (b?.displayName !== undefined) c.brand_display_name = b.displayName;
  if (b?.accentColour !== undefined) c.brand_accent_colour = b.accentColour.toLowerCase();
  if (b?.logoText !== undefined) c.brand_logo_text = b.logoText;
  return c;
}

/**
 * Changes the studio's defaults. They apply to what is created afterwards: existing projects keep their own currency
 * and markup, and existing lines keep their codes and units.
 */
export async function updateSettings(ctx: ActionContext, patch: SettingsPatch) {
  const before = await loadStudio(ctx.db, ctx.studioId);
  if (patch.defaultUnitId) {
    // invoke has proved the unit is this studio's; an archived one cannot become the default.
    const unit = await ctx.db
      .selectFrom('units')
      .select('archived_at')
      .where('id', '=', patch.defaultUnitId)
      .executeTakeFirstOrThrow();
    if (unit.archived_at) {
      throw new ServiceError('VALIDATION_FAILED', 'That unit is archived; choose an active unit as the default.', {
        errors: [{ path: 'defaultUnitId', message: 'The unit is archived.' }],
      });
    }
  }
  const cols = settingsColumns(patch);
  if (!Object.keys(cols).length)
    throw new ServiceError(
      'VALIDATION_FAILED',
      'Name at least one setting to change; see get_studio_settings for them.',
    );
  const shown = await writeStudio(ctx, before, cols, {
    present: (row) => presentSettings(ctx.db, row),
    // The summary names no fields: it is not redacted, and a changed default markup is pricing information.
    audit: () => ({ targetKind: 'studio', summary: "Changed the studio's settings" }),
  });
  // The prefix is the default code scheme's (list_codes); studios.code_prefix mirrors it (src/domain/codes/schemes.ts).
  if (patch.codeFormat) await renameDefaultScheme(ctx, patch.codeFormat.prefix);
  return shown;
}
