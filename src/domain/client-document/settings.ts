import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { diffPresented } from '../kit/diff-presented.js';
import type { PatchValues } from '../kit/record.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { clientVisibleProperties } from './properties.js';
import { CLIENT_DOCUMENT_SETTINGS_RECORD, type ClientDocumentSettingsRow } from './record.js';

/** The settings as the API shows them (get and update_client_document_settings). */
export type PresentedSettings = ReturnType<typeof present>;

const loadRow = (db: Kysely<Database>, projectId: string) =>
  db.selectFrom('client_document_settings').selectAll().where('project_id', '=', projectId).executeTakeFirst();

/**
 * Settings from their row, or the defaults (version 1) while none were saved. Chosen properties show only while they
 * are active and client-visible, so the list shown is the list that takes effect, and sending it back is accepted.
 */
function present(projectId: string, row: ClientDocumentSettingsRow | undefined, visible: ReadonlyMap<string, unknown>) {
  const shown = CLIENT_DOCUMENT_SETTINGS_RECORD.present(row ?? defaults(projectId), {});
  return { ...shown, propertyIds: shown.propertyIds.filter((id) => visible.has(id)) };
}

/** A project's settings before their first save: every field's default, at version 1, never saved. */
const defaults = (projectId: string) =>
  CLIENT_DOCUMENT_SETTINGS_RECORD.newRow({ rowId: '', version: 1, updatedAt: null }, { ownerId: projectId, now: '' });

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

/** A merge patch of the settings (branding field by field). */
export type SettingsPatch = PatchValues<typeof CLIENT_DOCUMENT_SETTINGS_RECORD.spec.fields>;

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

/**
 * A merge patch of the settings, checked against the version `invoke` already compared. Only custom properties the
 * client may see can be chosen. The first save makes the row (at version 2: the defaults were version 1); a patch that
 * changes nothing shown changes nothing at all.
 */
export async function updateSettings(ctx: ActionContext, projectId: string, patch: SettingsPatch) {
  // Only what the patch names changes (merge-patch semantics, branding field by field too).
  const cols = CLIENT_DOCUMENT_SETTINGS_RECORD.patchColumns(patch);
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
  const created = {
    ...CLIENT_DOCUMENT_SETTINGS_RECORD.newRow(
      { rowId: newId(), version: 2, updatedAt: ctx.now },
      { ownerId: projectId, now: ctx.now },
    ),
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
