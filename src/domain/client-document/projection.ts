import type { Currency } from '../../../db/vocabulary.js';
import type { ActionContext } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { presentationFor } from '../schedule/lines.js';
import type { PhotographSources } from './photographs.js';
import { type PieceContext, pieceOf, removedPieceOf } from './pieces.js';
import { shownMoney } from './prices.js';
import { clientVisibleProperties, pieceProperties } from './properties.js';
import { settingsWith } from './settings.js';
import { clientSpecificationsOfLines } from '../specifications/client-view.js';

/** The photographs a projection shows, and when they were frozen (null: none were, so none show). */
export interface PhotographSet {
  byLine: PhotographSources;
  asOf: string | null;
}

const HEAD = `
  SELECT p.name AS project_name, p.currency, s.name AS studio_name, s.brand_display_name, s.brand_accent_colour,
    s.brand_logo_text
  FROM projects p JOIN studios s ON s.id = p.studio_id WHERE p.id = ?`;

interface Head {
  project_name: string;
  currency: Currency;
  studio_name: string;
  brand_display_name: string | null;
  brand_accent_colour: string;
  brand_logo_text: string | null;
}

/** Exact running sums (scale 12) of client totals, rounded once when shown; and the pieces they cannot cover yet. */
class Sums {
  total12 = 0n;
  toConfirm = 0;
  add(price: { state: string; total12: bigint | null }) {
    if (price.total12 !== null) this.total12 += price.total12;
    if (price.state === 'tbc' || price.state === 'poa') this.toConfirm += 1;
  }
}

/**
 * The client document of a project: its own register (pieces, never lines), built from the live schedule and the
 * settings, with the photographs given. Active sections in order, each with its active lines as pieces (sections
 * without any are left out); archived lines as removed pieces, newest removal first; totals from exact factors.
 * Returns the document and the photograph sources of the pieces it shows (what a mint keeps apart).
 */
export async function projectDocument(
  ctx: Pick<ActionContext, 'db' | 'queryRow'>,
  projectId: string,
  piecesAsOf: string,
  photographs: PhotographSet,
) {
  const head = await ctx.queryRow<Head>(HEAD, projectId);
  if (!head) throw new ServiceError('NOT_FOUND', `No project ${projectId} exists in your studio.`);
  const visible = await clientVisibleProperties(ctx.db, projectId);
  const settings = await settingsWith(ctx.db, projectId, visible);
  const sections = await ctx.db
    .selectFrom('sections')
    .select(['id', 'title'])
    .where('project_id', '=', projectId)
    .where('archived_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const lines = await ctx.db
    .selectFrom('lines')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const active = lines.filter((l) => l.archived_at === null);
  const presentation = await presentationFor(ctx, projectId, active);
  const specifications = await clientSpecificationsOfLines(ctx.db, projectId);
  const c = {
    presentation,
    currency: head.currency,
    showPrices: settings.showPrices,
    columns: settings.columns,
    propertiesOf: await pieceProperties(ctx.db, projectId, settings.propertyIds, visible, head.currency),
    specificationsOf: (lineId: string) => specifications.get(lineId) ?? [],
    photographs: photographs.byLine,
  };
  const { shown, all, sources, pieceCount } = shownSections(sections, active, c, photographs.byLine);
  const removed = lines
    .filter((l) => l.archived_at !== null)
    .sort((a, b) =>
      b.archived_at! < a.archived_at! ? -1 : b.archived_at! > a.archived_at! ? 1 : a.id < b.id ? -1 : 1,
    );
  const document = {
    title: settings.title ?? head.project_name,
    introduction: settings.introduction,
    projectName: head.project_name,
    studioName: settings.branding.studioName ?? head.brand_display_name ?? head.studio_name,
    branding: {
      accentColour: settings.branding.accentColour ?? head.brand_accent_colour,
      logoText: head.brand_logo_text,
    },
    currency: head.currency,
    showPrices: settings.showPrices,
    columns: settings.columns,
    piecesAsOf,
    photographsAsOf: photographs.asOf,
    sections: shown,
    removedPieces: removed.map(removedPieceOf),
    totals: {
      pieceCount,
      ...(c.showPrices ? { total: shownMoney(all.total12, 12, c.currency), piecesToConfirm: all.toConfirm } : {}),
    },
  };
  return { document, sources };
}

// Sections without active lines are left out, and only a shown piece's photographs become the document's sources.
function shownSections(
  sections: ReadonlyArray<{ id: string; title: string }>,
  active: ReadonlyArray<Parameters<typeof pieceOf>[0]>,
  c: PieceContext,
  byLine: PhotographSources,
) {
  const all = new Sums();
  const sources: PhotographSources = {};
  let pieceCount = 0;
  const shown = sections.flatMap((section) => {
    const sum = new Sums();
    const pieces = active
      .filter((l) => l.section_id === section.id)
      .map((line) => {
        const { piece, price } = pieceOf(line, c);
        sum.add(price);
        all.add(price);
        if (byLine[line.id]?.length) sources[line.id] = byLine[line.id]!;
        return piece;
      });
    pieceCount += pieces.length;
    if (!pieces.length) return [];
    return [
      { title: section.title, pieces, ...(c.showPrices ? { total: shownMoney(sum.total12, 12, c.currency) } : {}) },
    ];
  });
  return { shown, all, sources, pieceCount };
}
