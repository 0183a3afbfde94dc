import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { MappingSource } from '../../../db/vocabulary.js';
import type { Caller } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { columnIndex, columnLetter, type Row } from '../../files/spreadsheet/table.js';
import { type ImportField, type ImportMapping, MULTI_COLUMN_FIELDS, PRICING_WRITE_FIELDS } from './fields.js';
import { findHeaderRow, normaliseHeading, proposeMapping } from './headings.js';
import { assertMappable } from './mapping-rules.js';
import { fieldsByHeading, findSavedMapping, loadSavedMapping } from './saved-mappings.js';

/** What a caller may say about the mapping: any part of it; the rest is proposed or taken from a saved mapping. */
export interface MappingRequest {
  headerRow?: number | undefined;
  headingRows?: boolean | undefined;
  /** Columns whose field to set (null: leave the column out), by letter; other columns keep the base mapping's. */
  columns?: ReadonlyArray<{ column: string; field: ImportField | null }> | undefined;
}

export interface ResolvedMapping {
  mapping: ImportMapping;
  source: MappingSource;
  savedMappingId: string | null;
  /** Things the caller should know about the mapping (columns left out for their role). */
  notes: string[];
}

/**
 * The mapping a preview uses: a saved mapping (the one named, or the studio's mapping for exactly these headings),
 * else one proposed from the headings; then the caller's own choices on top. A caller without pricing:write cannot
 * import trade prices or markups: a base mapping's columns for them are left out (and said so), and asking for them
 * is refused, as setting them on a line is.
 */
export async function resolveMapping(
  db: Kysely<Database>,
  caller: Caller,
  rows: readonly Row[],
  request: MappingRequest,
  savedMappingId?: string,
): Promise<ResolvedMapping> {
  if (request.headerRow !== undefined && request.headerRow > rows.length) {
    throw new ServiceError(
      'VALIDATION_FAILED',
      `The sheet has ${rows.length} rows, so row ${request.headerRow} cannot hold its headings.`,
      {
        errors: [{ path: 'mapping.headerRow', message: `At most ${rows.length}.` }],
      },
    );
  }
  const headerRow = request.headerRow ?? findHeaderRow(rows);
  const headings = rows[headerRow - 1] ?? [];
  const saved = savedMappingId
    ? await loadSavedMapping(db, caller.studioId, savedMappingId)
    : await findSavedMapping(db, caller.studioId, headings);
  const mapping = saved ? savedMappingFor(saved, headerRow, headings) : proposeMapping(rows, headerRow);
  const notes = caller.permissions.has('pricing:write') ? [] : leaveOutPricing(mapping);
  applyChoices(mapping, request, caller, { width: widthOf(rows), headings: headings.length });
  if (request.headingRows !== undefined) mapping.headingRows = request.headingRows;
  assertMappable(
    mapping.columns.map((c, i) => ({
      field: c.field,
      path: `mapping.columns.${i}`,
      where: c.heading ? `${c.column} (${c.heading})` : c.column,
    })),
  );
  const given = request.columns !== undefined || request.headerRow !== undefined || request.headingRows !== undefined;
  return {
    mapping,
    source: given ? 'given' : saved ? 'saved' : 'proposed',
    savedMappingId: saved?.id ?? null,
    notes,
  };
}

/** The widest row's cell count: a caller may map a column that has no heading. */
const widthOf = (rows: readonly Row[]) => Math.max(0, ...rows.map((r) => r.length));

// A saved mapping is kept by heading, not by letter, so it applies to the same headings in another order.
function savedMappingFor(
  saved: Parameters<typeof fieldsByHeading>[0],
  headerRow: number,
  headings: readonly string[],
): ImportMapping {
  const { fields, headingRows } = fieldsByHeading(saved);
  const mapping: ImportMapping = {
    headerRow,
    headingRows,
    columns: headings.map((h, i) => ({
      column: columnLetter(i),
      heading: h.trim(),
      field: fields.get(normaliseHeading(h)) ?? null,
    })),
  };
  dedupe(mapping);
  return mapping;
}

// A caller who may not set trade prices or markups is not refused for a base mapping they did not choose: the
// columns are left out, and the notes say so.
function leaveOutPricing(mapping: ImportMapping): string[] {
  const notes: string[] = [];
  for (const c of mapping.columns) {
    if (c.field && PRICING_WRITE_FIELDS.has(c.field)) {
      notes.push(
        `Column ${c.column} (${c.heading}) holds ${c.field === 'markup' ? 'markups' : 'trade prices'}, which your role cannot set; it was left out.`,
      );
      c.field = null;
    }
  }
  return notes;
}

// The caller's own choices go on top of the base mapping, each checked: the column exists, and the caller may set it.
function applyChoices(
  mapping: ImportMapping,
  request: MappingRequest,
  caller: Caller,
  sheet: { width: number; headings: number },
): void {
  const { width } = sheet;
  const mayPrice = caller.permissions.has('pricing:write');
  for (const [i, choice] of (request.columns ?? []).entries()) {
    const index = columnIndex(choice.column);
    if (index === undefined || index >= Math.max(width, sheet.headings)) {
      throw new ServiceError(
        'VALIDATION_FAILED',
        `The sheet has no column ${choice.column}; its columns run from A to ${columnLetter(Math.max(width, 1) - 1)}.`,
        { errors: [{ path: `mapping.columns.${i}.column`, message: 'No such column.' }] },
      );
    }
    if (choice.field && PRICING_WRITE_FIELDS.has(choice.field) && !mayPrice) {
      throw new ServiceError(
        'FORBIDDEN',
        `Importing ${choice.field} needs the pricing:write permission, which your role (${caller.role}) does not have; map column ${choice.column} to null.`,
      );
    }
    while (mapping.columns.length <= index) {
      mapping.columns.push({ column: columnLetter(mapping.columns.length), heading: '', field: null });
    }
    mapping.columns[index]!.field = choice.field;
  }
}

/** A saved mapping applied to a sheet with a repeated heading: the first column keeps a one-column field. */
function dedupe(mapping: ImportMapping) {
  const taken = new Set<ImportField>();
  for (const c of mapping.columns) {
    if (!c.field || MULTI_COLUMN_FIELDS.has(c.field)) continue;
    if (taken.has(c.field)) c.field = null;
    else taken.add(c.field);
  }
}
