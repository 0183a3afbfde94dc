import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { namedSorts } from '../kit/keyset-page.js';
import { archivedFilter, defineListing, type ListingQuery, textFilter } from '../kit/listing.js';
import { containsText } from '../kit/text-search.js';
import { versionedUpdate } from '../kit/versioned-update.js';
import { formatCode, prefixAllocator } from '../schedule/codes.js';
import { activeSection } from '../schedule/lines.js';
import { loadStudio, writeStudio } from '../studio/studio.js';
import { schemeForSection } from './matching.js';
import { whereArchived } from '../kit/filters.js';
import type { CreateFields, PatchFields } from '../kit/record.js';
import { CODE_SCHEME_RECORD, type CodeSchemeRow } from './record.js';

/**
 * Code schemes: how a studio numbers its lines. Which scheme a new line takes is decided in ./matching.ts; the line
 * allocator is src/domain/schedule/codes.ts.
 *
 * The default scheme and studios.code_prefix: the scheme is the record (it is what list_codes shows and update_code
 * edits); studios.code_prefix mirrors the default scheme's prefix and is written in the same transaction whenever that
 * prefix changes, from either side: update_code / create_code (a new default, a renamed default) write the studio
 * too, and update_studio_settings' codeFormat.prefix renames the default scheme (renameDefaultScheme).
 */

/** A scheme as the API shows it. */
export const presentScheme = (row: CodeSchemeRow) =>
  CODE_SCHEME_RECORD.present(row, { example: formatCode(`${row.prefix}-`, 1) });
export type PresentedScheme = ReturnType<typeof presentScheme>;

/** The fields a studio edits, as callers send them (create: prefix and name required; update: a merge patch). */
type SchemeFields = PatchFields<typeof CODE_SCHEME_RECORD.spec.fields>;

/** The name a studio's first scheme gets: FF is the trade's furniture & fittings; any other prefix is just the default. */
export const defaultSchemeName = (prefix: string) => (prefix === 'FF' ? 'Furniture & fittings' : 'Default');

/** A studio's first scheme, its default, as onboarding creates it beside the studio. */
export function newDefaultScheme(studioId: string, prefix: string, now: string): CodeSchemeRow {
  const fields = { prefix, name: defaultSchemeName(prefix), isDefault: true };
  return CODE_SCHEME_RECORD.newRow(fields, { id: newId(), ownerId: studioId, now });
}

export const SCHEME_SORTS = namedSorts(
  {
    prefix: { column: 'code_schemes.prefix' },
    name: { column: 'code_schemes.name' },
    createdAt: { column: 'code_schemes.created_at' },
  },
  { column: 'code_schemes.id' },
);

export const SCHEME_LISTING = defineListing({
  filters: { q: textFilter('name, prefix or keywords'), archived: archivedFilter('code schemes') },
  sorts: SCHEME_SORTS,
  defaultSort: 'prefix',
});

/** The studio's schemes, by prefix unless `sort` says otherwise; archived ones only when asked. */
export async function listCodes(ctx: ActionContext, query: ListingQuery<typeof SCHEME_LISTING>) {
  let qb = ctx.db.selectFrom('code_schemes').selectAll().where('code_schemes.studio_id', '=', ctx.studioId);
  qb = whereArchived(qb, 'code_schemes.archived_at', query.archived);
  if (query.q) {
    const q = query.q;
    qb = qb.where((eb) =>
      eb.or(containsText(['code_schemes.name', 'code_schemes.prefix', 'code_schemes.keywords'], q)),
    );
  }
  const { rows, nextCursor } = await SCHEME_LISTING.page(qb, query);
  return { items: rows.map(presentScheme), nextCursor };
}

async function loadScheme(ctx: Pick<ActionContext, 'db' | 'studioId'>, codeId: string) {
  const row = await ctx.db
    .selectFrom('code_schemes')
    .selectAll()
    .where('id', '=', codeId)
    .where('studio_id', '=', ctx.studioId)
    .executeTakeFirst();
  if (!row) throw new ServiceError('NOT_FOUND', `No code scheme ${codeId} exists in your studio.`);
  return row;
}

async function loadDefault(ctx: Pick<ActionContext, 'db' | 'studioId'>) {
  return ctx.db
    .selectFrom('code_schemes')
    .selectAll()
    .where('studio_id', '=', ctx.studioId)
    .where('is_default', '=', 1)
    .executeTakeFirst();
}

export async function getCode(ctx: ActionContext, codeId: string) {
  return presentScheme(await loadScheme(ctx, codeId));
}

/** Refuses a prefix another active scheme of the studio holds (archived schemes give theirs up). */
async function assertPrefixFree(ctx: ActionContext, prefix: string, exceptId: string | null, path: string) {
  const holder = await ctx.db
    .selectFrom('code_schemes')
    .select(['id', 'name'])
    .where('studio_id', '=', ctx.studioId)
    .where('prefix', '=', prefix)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (holder && holder.id !== exceptId) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `The prefix ${prefix} is already used by the code scheme ${holder.name} (${holder.id}); choose another prefix, or change or archive that scheme first.`,
      { errors: [{ path, message: `${prefix} is taken by another active code scheme.` }] },
    );
  }
}

/** Writes a scheme's columns through the one version-checked update, auditing what changed in API terms. */
function writeScheme(ctx: ActionContext, before: CodeSchemeRow, cols: Partial<CodeSchemeRow>, summary: string) {
  return versionedUpdate(ctx, 'code_schemes', before, cols, {
    present: presentScheme,
    audit: () => ({ targetKind: 'code_scheme', summary }),
  });
}

/** The current default stops being the default (another is about to become it). */
async function demoteDefault(ctx: ActionContext, exceptId: string | null) {
  const current = await loadDefault(ctx);
  if (current && current.id !== exceptId) {
    await writeScheme(ctx, current, { is_default: 0 }, `Code scheme ${current.prefix} is no longer the default`);
  }
}

/** studios.code_prefix follows the default scheme's prefix, bumping the studio's version when it changes. */
async function syncStudioPrefix(ctx: ActionContext) {
  const scheme = await loadDefault(ctx);
  const studio = await loadStudio(ctx.db, ctx.studioId);
  if (!scheme || studio.code_prefix === scheme.prefix) return;
  await writeStudio(
    ctx,
    studio,
    { code_prefix: scheme.prefix },
    {
      present: (row) => ({ codePrefix: row.code_prefix }),
      audit: (after) => ({
        targetKind: 'studio',
        summary: `New lines now default to ${after.code_prefix} codes (the default code scheme)`,
      }),
    },
  );
}

export async function createCode(ctx: ActionContext, fields: CreateFields<typeof CODE_SCHEME_RECORD.spec.fields>) {
  await assertPrefixFree(ctx, fields.prefix, null, 'prefix');
  if (fields.isDefault) await demoteDefault(ctx, null);
  const row = CODE_SCHEME_RECORD.newRow(fields, { id: newId(), ownerId: ctx.studioId, now: ctx.now });
  await ctx.db.insertInto('code_schemes').values(row).execute();
  ctx.audit({
    targetKind: 'code_scheme',
    targetId: row.id,
    summary: `Created code scheme ${row.prefix} (${row.name})${fields.isDefault ? ' as the default' : ''}`,
    changes: { created: { from: null, to: `${row.prefix} (${row.name})` } },
  });
  if (fields.isDefault) await syncStudioPrefix(ctx);
  return presentScheme(row);
}

/**
 * A merge patch of a scheme. `isDefault: true` makes it the studio's default (the previous default stops being one);
 * `isDefault: false` on the default is refused, since a studio always has exactly one. Fields equal to what the scheme
 * already holds change nothing; a patch that changes nothing leaves the version and the audit feed as they were.
 */
export async function updateCode(ctx: ActionContext, codeId: string, patch: SchemeFields) {
  const before = await loadScheme(ctx, codeId);
  if (before.archived_at) {
    throw new ServiceError('ARCHIVED', 'This code scheme is archived; archived code schemes do not change.');
  }
  if (!Object.values(patch).some((v) => v !== undefined)) {
    throw new ServiceError('VALIDATION_FAILED', 'Give at least one field to change.', {
      errors: [{ path: '(input)', message: 'Nothing to change.' }],
    });
  }
  const wasDefault = before.is_default === 1;
  if (patch.isDefault === false && wasDefault) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      "This is the studio's default code scheme and a studio always has one; make another scheme the default (update_code with isDefault: true on it) instead.",
      { errors: [{ path: 'isDefault', message: 'The default scheme cannot stop being the default by itself.' }] },
    );
  }
  const cols: Partial<CodeSchemeRow> = {};
  if (patch.prefix !== undefined && patch.prefix !== before.prefix) cols.prefix = patch.prefix;
  if (patch.name !== undefined && patch.name !== before.name) cols.name = patch.name;
  if (patch.keywords !== undefined && JSON.stringify(patch.keywords) !== before.keywords) {
    cols.keywords = JSON.stringify(patch.keywords);
  }
  if (patch.isDefault === true && !wasDefault) cols.is_default = 1;
  if (!Object.keys(cols).length) return presentScheme(before);
  if (cols.prefix !== undefined) await assertPrefixFree(ctx, cols.prefix, before.id, 'prefix');
  if (cols.is_default === 1) await demoteDefault(ctx, before.id);
  const after = await writeScheme(ctx, before, cols, `Updated code scheme ${cols.prefix ?? before.prefix}`);
  if (after.isDefault) await syncStudioPrefix(ctx);
  return after;
}

/** Archives a scheme (never deleted). Lines keep their codes; the default scheme cannot be archived. */
export async function archiveCode(ctx: ActionContext, codeId: string) {
  const before = await loadScheme(ctx, codeId);
  if (before.archived_at) throw new ServiceError('ALREADY_ARCHIVED', 'This code scheme is already archived.');
  if (before.is_default === 1) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `${before.prefix} is the studio's default code scheme, which new lines fall back to, so it cannot be archived; make another scheme the default first (update_code with isDefault: true), then archive this one.`,
      { errors: [{ path: 'codeId', message: 'The default code scheme cannot be archived.' }] },
    );
  }
  return writeScheme(ctx, before, { archived_at: ctx.now }, `Archived code scheme ${before.prefix}`);
}

/**
 * Called by update_studio_settings: a new codeFormat.prefix renames the default scheme (versioned and audited here;
 * the settings write sets studios.code_prefix itself).
 */
export async function renameDefaultScheme(ctx: ActionContext, prefix: string) {
  const scheme = await loadDefault(ctx);
  if (!scheme || scheme.prefix === prefix) return;
  await assertPrefixFree(ctx, prefix, scheme.id, 'codeFormat.prefix');
  await writeScheme(ctx, scheme, { prefix }, `Renamed the default code scheme to ${prefix}`);
}

export interface SuggestQuery {
  projectId: string;
  sectionId?: string | undefined;
  codeId?: string | undefined;
}

/**
 * The code the next line would get, without taking it: in a section, the scheme that section takes (the same rule and
 * the same allocator create_line uses); with a scheme, the next code of that scheme in the project.
 */
export async function suggestNextCode(ctx: ActionContext, query: SuggestQuery) {
  const { projectId, sectionId, codeId } = query;
  if ((sectionId === undefined) === (codeId === undefined)) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      'Give exactly one of sectionId (the code a line created in that section gets) or codeId (the next code of that scheme).',
      {
        errors: [
          { path: sectionId ? 'codeId' : 'sectionId', message: 'Send sectionId or codeId, not both or neither.' },
        ],
      },
    );
  }
  let scheme: CodeSchemeRow | null;
  let prefix: string;
  let keyword: string | null = null;
  let reason: string;
  if (sectionId !== undefined) {
    await activeSection(ctx.db, projectId, sectionId);
    const choice = await schemeForSection(ctx.db, ctx.studioId, sectionId);
    ({ scheme, prefix, keyword } = choice);
    reason = keyword
      ? `The section's title contains "${keyword}", a keyword of the ${prefix} scheme.`
      : `No scheme's keyword is in the section's title, so the default ${prefix} scheme applies.`;
  } else {
    scheme = await loadScheme(ctx, codeId!);
    if (scheme.archived_at) {
      throw new ServiceError(
        'ARCHIVED',
        'This code scheme is archived; lines no longer take it. Choose an active one.',
      );
    }
    prefix = scheme.prefix;
    reason = `The next ${prefix} code in this project.`;
  }
  const code = (await prefixAllocator(ctx.db, projectId, `${prefix}-`))();
  return {
    code,
    codeId: scheme?.id ?? null,
    prefix,
    schemeName: scheme?.name ?? null,
    matchedKeyword: keyword,
    reason,
  };
}
