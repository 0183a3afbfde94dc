import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ClientDocumentColumn } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { diffPresented } from '../kit/diff-presented.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { clientVisibleProperties } from './properties.js';
import type { ClientDocumentSettingsRow } from './record.js';

/** What a project's document shows before its settings are first saved: no prices hidden, three descriptive columns. */
export const DEFAULT_COLUMNS: readonly ClientDocumentColumn[] = ['brand', 'finish', 'dimensions'];

/** The settings as the API shows them (get and update_client_document_settings). */
export interface PresentedSettings extends Record<string, unknown> {
  projectId: string;
  title: string | null;
  introduction: string;
  showPrices: boolean;
  columns: ClientDocumentColumn[];
  propertyIds: string[];
  branding: { studioName: string | null; accentColour: string | null };
  version: number;
  updatedAt: string | null;
}

const loadRow = (db: Kysely<Database>, projectId: string) =>
  db.selectFrom('client_document_settings').selectAll().where('project_id', '=', projectId).executeTakeFirst();

/**
 * Settings from their row, or the defaults (version 1) while none were saved. Chosen properties show only while they
 * are active and client-visible, so the list shown is the list that takes effect, and sending it back is accepted.
 */
function present(
  projectId: string,
  row: ClientDocumentSettingsRow | undefined,
  visible: ReadonlyMap<string, unknown>,
): PresentedSettings {
  const chosen = row ? (JSON.parse(row.property_ids) as string[]) : [];
  return {
    projectId,
    title: row?.title ?? null,
    introduction: row?.introduction ?? '',
    showPrices: row ? row.show_prices === 1 : true,
    columns: row ? (JSON.parse(row.shown_columns) as ClientDocumentColumn[]) : [...DEFAULT_COLUMNS],
    propertyIds: chosen.filter((id) => visible.has(id)),
    branding: { studioName: row?.studio_name ?? null, accentColour: row?.accent_colour ?? null },
    version: row?.version ?? 1,
    updatedAt: row?.updated_at ?? null,
  };
}

export async function getSettings(ctx: Pick<ActionContext, 'db'>, projectId: string): Promise<PresentedSettings> {
  return settingsWith(ctx.db, projectId, await clientVisibleProperties(ctx.db, projectId));
}

/** The settings, given the project's client-visible properties (read once by a projection that needs them too). */
export async function settingsWith(
  db: Kysely<Database>,
  projectId: string,
  visible: ReadonlyMap<string, unknown>,
): Promise<PresentedSettings> {
  return present(projectId, await loadRow(db, projectId), visible);
}

export interface SettingsPatch {
  title?: string | null | undefined;
  introduction?: string | undefined;
  showPrices?: boolean | undefined;
  columns?: readonly ClientDocumentColumn[] | undefined;
  propertyIds?: readonly string[] | undefined;
  branding?: { studioName?: string | null | undefined; accentColour?: string | null | undefined } | undefined;
}

function refuse(path: string, message: string, detail: string): never {
  throw new ServiceError('VALIDATION_FAILED', message, { errors: [{ path, message: detail }] });
}

function assertOnce(list: readonly string[], path: string, what: string) {
  const seen = new Set<string>();
  for (const [i, v] of list.entries()) {
    if (seen.has(v))
      refuse(`${path}.${i}`, `${what} ${v} is given twice; give each once, in the order to show.`, 'Repeated.');
    seen.add(v);
  }
}

/** The patch as columns; only what it names changes (merge-patch semantics, branding field by field too). */
function columnsOf(patch: SettingsPatch) {
  const c: Partial<ClientDocumentSettingsRow> = {};
  if (patch.title !== undefined) c.title = patch.title;
  if (patch.introduction !== undefined) c.introduction = patch.introduction;
  if (patch.showPrices !== undefined) c.show_prices = patch.showPrices ? 1 : 0;
  if (patch.columns !== undefined) c.shown_columns = JSON.stringify(patch.columns);
  if (patch.propertyIds !== undefined) c.property_ids = JSON.stringify(patch.propertyIds);
  const b = patch.branding;
  if (b?.studioName !== undefined) c.studio_name = b.studioName;
  if (b?.accentColour !== undefined) c.accent_colour = b.accentColour === null ? null : b.accentColour.toLowerCase();
  return c;
}

/**
 * A merge patch of the settings, checked against the version `invoke` already compared. Only custom properties the
 * client may see can be chosen. The first save makes the row (at version 2: the defaults were version 1); a patch that
 * changes nothing shown changes nothing at all.
 */
export async function updateSettings(ctx: ActionContext, projectId: string, patch: SettingsPatch) {
  const cols = columnsOf(patch);
  if (!Object.keys(cols).length) {
    refuse(
      '(input)',
      'Give at least one setting to change: title, introduction, showPrices, columns, propertyIds or branding.',
      'Nothing to change.',
    );
  }
  assertOnce(patch.columns ?? [], 'columns', 'The column');
  assertOnce(patch.propertyIds ?? [], 'propertyIds', 'The property');
  const visible = await clientVisibleProperties(ctx.db, projectId);
  for (const [i, id] of (patch.propertyIds ?? []).entries()) {
    if (!visible.has(id)) {
      refuse(
        `propertyIds.${i}`,
        `Custom property ${id} is archived or not shown to the client; mark it clientVisible with update_custom_property first, or leave it out.`,
        'Not client-visible.',
      );
    }
  }
  const row = await loadRow(ctx.db, projectId);
  const shown = (r: ClientDocumentSettingsRow | undefined) => present(projectId, r, visible);
  const audit = {
    targetKind: 'client_document_settings' as const,
    projectId,
    summary: 'Changed the client document settings',
  };
  if (row) return versionedUpdate(ctx, 'client_document_settings', row, cols, { present: shown, audit: () => audit });

  const before = shown(undefined);
  const created: ClientDocumentSettingsRow = {
    id: newId(),
    project_id: projectId,
    title: null,
    introduction: '',
    show_prices: 1,
    shown_columns: JSON.stringify(DEFAULT_COLUMNS),
    property_ids: '[]',
    studio_name: null,
    accent_colour: null,
    created_at: ctx.now,
    updated_at: ctx.now,
    version: 2,
    ...cols,
  };
  const after = shown(created);
  const changes = diffPresented(before, after);
  if (!Object.keys(changes).length) {
    ctx.unchanged();
    return before;
  }
  await ctx.db.insertInto('client_document_settings').values(created).execute();
  ctx.audit({ ...audit, targetId: created.id, changes });
  return after;
}
