import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Currency } from '../../../db/vocabulary.js';
import { ServiceError } from '../../core/errors.js';

/**
 * What an import matches names against, read once: the project's currency and active sections, the studio's active
 * suppliers and units and its default unit. Read inside the transaction that applies the import, so a supplier or
 * section made since the preview is matched rather than made twice.
 */
export interface ImportLookups {
  currency: Currency;
  sections: ReadonlyMap<string, { id: string; title: string }>;
  suppliers: ReadonlyMap<string, { id: string; name: string }>;
  units: ReadonlyMap<string, { id: string; name: string }>;
  defaultUnit: { id: string; name: string };
}

/** Names compare as people read them: case and runs of spaces ignored. */
export const nameKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** How units are written in schedules, by the name of the studio unit (onboarding's defaults) they mean. */
const UNIT_ALIASES: Readonly<Record<string, readonly string[]>> = {
  each: ['ea', 'no', 'nr', 'number', 'pc', 'pcs', 'piece', 'pieces', 'item', 'items', 'unit', 'units', 'x', 'off'],
  pair: ['pr', 'prs', 'pairs'],
  set: ['sets'],
  metre: ['m', 'meter', 'meters', 'metres', 'lm', 'lin m', 'linear metre', 'linear metres', 'mtr', 'mtrs'],
  'square metre': ['m2', 'm²', 'sqm', 'sq m', 'square meter', 'square metres', 'square meters', 'sq metre'],
  roll: ['rolls'],
};

/** A unit as written ("2 no.", "m2", "Pairs"), compared without dots and case. */
export const unitKey = (text: string) => nameKey(text.replace(/\./g, ''));

export async function readLookups(db: Kysely<Database>, studioId: string, projectId: string): Promise<ImportLookups> {
  const project = await db
    .selectFrom('projects')
    .innerJoin('studios', 'studios.id', 'projects.studio_id')
    .select(['projects.currency', 'studios.default_unit_id'])
    .where('projects.id', '=', projectId)
    .where('projects.studio_id', '=', studioId)
    .executeTakeFirst();
  if (!project) throw new ServiceError('NOT_FOUND', `No project ${projectId} exists in your studio.`);
  const sections = await db
    .selectFrom('sections')
    .select(['id', 'title'])
    .where('project_id', '=', projectId)
    .where('archived_at', 'is', null)
    .orderBy('position')
    .execute();
  const suppliers = await db
    .selectFrom('suppliers')
    .select(['id', 'name'])
    .where('studio_id', '=', studioId)
    .where('archived_at', 'is', null)
    .orderBy('created_at')
    .execute();
  const units = await db
    .selectFrom('units')
    .select(['id', 'name', 'symbol'])
    .where('studio_id', '=', studioId)
    .where('archived_at', 'is', null)
    .execute();
  const unitMap = new Map<string, { id: string; name: string }>();
  for (const u of units) {
    for (const alias of [...(UNIT_ALIASES[u.name.toLowerCase()] ?? []), `${u.name}s`, u.symbol, u.name]) {
      unitMap.set(unitKey(alias), { id: u.id, name: u.name });
    }
  }
  const fallback = units.find((u) => u.id === project.default_unit_id) ?? units[0];
  if (!fallback) throw new ServiceError('VALIDATION_FAILED', 'The studio has no units; add one (create_unit) first.');
  return {
    currency: project.currency,
    // The first of two active sections with one title wins, as it is the one a person sees first.
    sections: new Map(sections.toReversed().map((s) => [nameKey(s.title), s])),
    suppliers: new Map(suppliers.toReversed().map((s) => [nameKey(s.name), s])),
    units: unitMap,
    defaultUnit: { id: fallback.id, name: fallback.name },
  };
}
