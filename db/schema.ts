import type { Selectable, Updateable } from 'kysely';
import type { LineStatus, PhotographType, ValueState } from './vocabulary.js';

/**
 * Kysely table types. Booleans are 0/1, times are RFC 3339 strings, money columns are scale-4 integer strings.
 * `Generated<T>` marks a column the database fills by default (an insert may leave it out); closed sets are the literal
 * unions of ./vocabulary.ts. Code reads rows as `…Row` (Selectable), never as the table type itself.
 */

export interface LinesTable {
  id: string;
  project_id: string;
  section_id: string;
  position: number;
  code: string | null;
  heading: string;
  description: string;
  status: LineStatus;
  supplier_id: string | null;
  brand: string | null;
  product_code: string | null;
  url: string | null;
  finish: string | null;
  dimensions: string | null;
  lead_time_days: number | null;
  quantity4: string;
  unit_id: string;
  markup4: string | null;
  trade_state: ValueState;
  trade4: string | null;
  retail_state: ValueState;
  retail4: string | null;
  /** Null: the client price is derived from trade and markup. */
  client_state: ValueState | null;
  client4: string | null;
  delivery_state: ValueState;
  delivery4: string | null;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  version: number;
}

/** A line's value for a custom property, as canonical JSON of its API form. See 013_line_property_values.ts. */
export interface LinePropertyValuesTable {
  line_id: string;
  property_id: string;
  project_id: string;
  value: string;
  updated_at: string;
}

/** A photograph on a line; its bytes are in the blob store. See 014_line_photographs.ts. */
export interface LinePhotographsTable {
  id: string;
  studio_id: string;
  project_id: string;
  line_id: string;
  position: number;
  /** 0 or 1; at most one per line among those not removed. */
  is_cover: number;
  original_sha256: string;
  media_type: PhotographType;
  filename: string;
  byte_size: number;
  /** The upright original's pixels (EXIF orientation applied, before `rotation`). */
  width: number;
  height: number;
  /** Clockwise degrees the studio turned it: 0, 90, 180 or 270. */
  rotation: number;
  created_at: string;
  updated_at: string;
  removed_at: string | null;
}

export interface Database {
  line_property_values: LinePropertyValuesTable;
  line_photographs: LinePhotographsTable;
  lines: LinesTable;
}

export type LineRow = Selectable<LinesTable>;
export type LineUpdate = Updateable<LinesTable>;
export type LinePhotographRow = Selectable<LinePhotographsTable>;
