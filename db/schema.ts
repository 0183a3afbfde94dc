import type { Generated, Selectable, Updateable } from 'kysely';
import type {
  DeliveryStatus,
  DocumentFormat,
  DocumentKind,
  DocumentSourceKind,
  LineStatus,
  PhotographType,
  ValueState,
} from './vocabulary.js';

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

/** A project's client document settings, made on their first save. See 015_client_documents.ts. */
export interface ClientDocumentSettingsTable {
  id: string;
  project_id: string;
  /** Null: the project's name. */
  title: string | null;
  introduction: Generated<string>;
  /** 1: prices show; 0: the document carries no price at all. */
  show_prices: Generated<number>;
  /** A JSON array of ClientDocumentColumn names, in display order. */
  shown_columns: string;
  /** A JSON array of custom property ids, in display order (only client-visible properties show). */
  property_ids: Generated<string>;
  /** Null: the studio's branding display name, else its name. */
  studio_name: string | null;
  /** `#rrggbb`, lowercase; null: the studio's accent colour. */
  accent_colour: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

/** Every project's settings version (1 while none were saved): a view, read by the version check only. */
export interface ClientDocumentSettingsVersionsView {
  id: string;
  project_id: string;
  version: number;
}

/** A minted client document: numbered per project, immutable. See 015_client_documents.ts. */
export interface ClientDocumentVersionsTable {
  id: string;
  studio_id: string;
  project_id: string;
  /** 1, 2, 3 … per project. */
  number: number;
  title: string;
  piece_count: number;
  minted_at: string;
  minted_by: string;
  /** Canonical JSON of the document as minted (the ClientDocument schema). */
  document: string;
  /** Canonical JSON, never shown: what serves each frozen photograph (see client-document/photographs.ts). */
  photograph_sources: string;
}

/** A file made from a project, kept in the blob store; never changed but for its archival. See 019_documents.ts. */
export interface DocumentsTable {
  id: string;
  studio_id: string;
  project_id: string;
  kind: DocumentKind;
  format: DocumentFormat;
  /** What it was made from: the live client document, a minted version (`source_version`) or a share's view. */
  source_kind: DocumentSourceKind;
  source_version: number | null;
  source_share_id: string | null;
  /** An estimate document's revision (027). */
  source_revision_id: string | null;
  title: string;
  /** The name a download saves it under, e.g. `harbour-house-client-schedule.pdf`. */
  filename: string;
  /** The file's SHA-256 in the blob store (its content address). */
  blob_sha256: string;
  byte_size: number;
  /** Pages of a PDF; null for other formats. */
  page_count: number | null;
  /** The member it was made for. */
  created_by: string;
  created_at: string;
  archived_at: string | null;
}

/** One file a project package packs, by its address in the blob store. See 026_package_entries.ts. */
export interface PackageEntriesTable {
  document_id: string;
  /** 1, 2, 3 …: the entry's place in the ZIP. */
  position: number;
  /** Its name in the ZIP, e.g. `photographs/living-room/l-01-sofa-1.jpg`. */
  path: string;
  blob_sha256: string;
  byte_size: number;
}

/** One sending of a document by email, and how it went. See 019_documents.ts. */
export interface DocumentDeliveriesTable {
  id: string;
  studio_id: string;
  project_id: string;
  document_id: string;
  recipient: string;
  subject: string;
  /** The email's text, above the attached document. */
  message: string;
  status: DeliveryStatus;
  /** A failure's stable code (DELIVERY_FAILED, DELIVERY_NOT_CONFIGURED …); null otherwise. */
  error_code: string | null;
  /** What the mail server said when it refused, for the studio to act on; null otherwise. */
  error_detail: string | null;
  /** The Message-ID the mail server accepted it under. */
  message_id: string | null;
  requested_by: string;
  created_at: string;
  sent_at: string | null;
  updated_at: string;
}

/** One sheet of an import's file, read at upload. */
export interface ImportSheetsTable {
  import_id: string;
  /** 1-based order in the file. */
  position: number;
  name: string;
  /** Rows read (blank ones included). */
  row_count: number;
  /** 1 when the sheet has more rows than an import takes; its cells are not kept. */
  too_large: number;
  /** JSON array of rows of cell texts; null when too large, or once the import is committed or canceled. */
  cells: string | null;
}

export interface Database {
  line_property_values: LinePropertyValuesTable;
  line_photographs: LinePhotographsTable;
  client_document_settings: ClientDocumentSettingsTable;
  client_document_settings_versions: ClientDocumentSettingsVersionsView;
  client_document_versions: ClientDocumentVersionsTable;
  import_sheets: ImportSheetsTable;
  documents: DocumentsTable;
  document_deliveries: DocumentDeliveriesTable;
  package_entries: PackageEntriesTable;
  lines: LinesTable;
}

export type DocumentRow = Selectable<DocumentsTable>;
export type DocumentDeliveryRow = Selectable<DocumentDeliveriesTable>;
export type LineRow = Selectable<LinesTable>;
export type LineUpdate = Updateable<LinesTable>;
export type LinePhotographRow = Selectable<LinePhotographsTable>;
export type ClientDocumentSettingsRow = Selectable<ClientDocumentSettingsTable>;
export type ClientDocumentVersionRow = Selectable<ClientDocumentVersionsTable>;
