import type { Generated, Selectable } from 'kysely';
import { z } from 'zod';
import { Id } from '../../core/values.js';
import { defineRecord, field, type TableOf } from '../kit/record.js';

/**
 * A minted client document: numbered per project, immutable. Lists show its summary; a read adds the document it kept
 * (`document`, canonical JSON of the ClientDocument schema). Beside it, never shown, are the sources that serve each
 * frozen photograph (`photographSources`, see photographs.ts). Who minted it is shown with their name as of now.
 */
export const CLIENT_DOCUMENT_VERSION_RECORD = defineRecord({
  name: 'ClientDocumentVersionSummary',
  description: 'A minted client document version, without its document.',
  table: 'client_document_versions',
  owner: 'project',
  versioned: false,
  archivable: false,
  created: { key: 'mintedAt', column: 'minted_at' },
  fields: {
    studioId: field(Id, { hidden: true }),
    number: field(z.int().min(1).describe('1, 2, 3 … per project, in minting order.')),
    title: field(z.string()),
    pieceCount: field(z.int().min(0)),
    /** The member who minted it (shown as mintedBy, with their name). */
    minter: field(Id, { column: 'minted_by', hidden: true }),
    document: field(z.string(), { hidden: true }),
    photographSources: field(z.string(), { hidden: true }),
  },
  computed: {
    mintedBy: z.strictObject({ memberId: Id, name: z.string() }).describe('The studio member who minted it.'),
  },
  // As published before the record was declared.
  order: ['id', 'number', 'title', 'pieceCount', 'mintedAt', 'mintedBy'],
});
export type ClientDocumentVersionRow = TableOf<typeof CLIENT_DOCUMENT_VERSION_RECORD>;

/**
 * A project's client document settings, made on their first save. See 015_client_documents.ts. Not a declared record:
 * the API answers settings for every project, the defaults at version 1 while no row exists (settings.ts).
 */
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
export type ClientDocumentSettingsRow = Selectable<ClientDocumentSettingsTable>;

/** Every project's settings version (1 while none were saved): a view, read by the version check only. */
export interface ClientDocumentSettingsVersionsView {
  id: string;
  project_id: string;
  version: number;
}

declare module '../../../db/schema.js' {
  interface Database {
    client_document_settings: ClientDocumentSettingsTable;
    client_document_settings_versions: ClientDocumentSettingsVersionsView;
    client_document_versions: ClientDocumentVersionRow;
  }
}
