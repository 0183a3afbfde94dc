import { z } from 'zod';
import { CLIENT_DOCUMENT_COLUMNS, type ClientDocumentColumn as ColumnName } from '../../../db/vocabulary.js';
import { Id, named, Timestamp } from '../../core/values.js';
import { asFlag, asJson, defineRecord, field, type TableOf } from '../kit/record.js';

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

export const ClientDocumentColumn = z
  .enum(CLIENT_DOCUMENT_COLUMNS)
  .describe(
    'A column a piece may show: supplier (its name), brand, productCode, finish, dimensions, leadTime (leadTimeDays).',
  );
named(ClientDocumentColumn, 'ClientDocumentColumn');

/** What a project's document shows before its settings are first saved: no prices hidden, three descriptive columns. */
export const DEFAULT_COLUMNS: readonly ColumnName[] = ['brand', 'finish', 'dimensions'];

const Branding = z.strictObject({
  studioName: z
    .string()
    .nullable()
    .describe("The studio's name as the document shows it; null: the studio's branding."),
  accentColour: z.string().nullable().describe("#rrggbb; null: the studio's accent colour."),
});
type BrandingPatch = { studioName?: string | null | undefined; accentColour?: string | null | undefined };

/**
 * A project's client document settings, made on their first save (see 015_client_documents.ts); before it, every
 * project answers the defaults at version 1 (settings.ts presents `newRow`'s defaults). A project has one set, named
 * by its projectId, so the row's id is never shown; neither is when it was made, only when it was last saved.
 * Branding is two columns, and a patch of it changes only the ones it names.
 */
export const CLIENT_DOCUMENT_SETTINGS_RECORD = defineRecord({
  name: 'ClientDocumentSettings',
  description: "A project's client document settings: what its client document shows and how.",
  table: 'client_document_settings',
  owner: 'project',
  id: false,
  versioned: false,
  archivable: false,
  created: { key: 'createdAt', hidden: true },
  fields: {
    rowId: field(Id, { hidden: true, column: 'id' }),
    projectId: field(Id, { owner: true }),
    title: field(z.string().nullable().describe("The document's title; null: the project's name."), {
      write: 'always',
    }),
    introduction: field(z.string().describe('Opening prose shown above the pieces; empty: none.'), {
      write: 'always',
      default: '',
    }),
    showPrices: field(z.boolean().describe('False hides every price: pieces and totals carry no price field.'), {
      write: 'always',
      default: true,
      codec: asFlag,
    }),
    columns: field(
      z.array(ClientDocumentColumn).describe('Columns each piece shows, in order. Default: brand, finish, dimensions.'),
      {
        write: 'always',
        default: [...DEFAULT_COLUMNS] as ColumnName[],
        column: 'shown_columns',
        codec: asJson<ColumnName[]>(),
      },
    ),
    propertyIds: field(
      z
        .array(Id)
        .describe(
          'Custom properties shown on each piece, in order: only active ones marked clientVisible are listed or shown.',
        ),
      { write: 'always', default: [] as string[], codec: asJson<string[]>() },
    ),
    branding: field(Branding.partial(), {
      write: 'always',
      default: { studioName: null, accentColour: null },
      output: Branding,
      columns: {
        // Only the names sent are written, so a patch changes branding field by field; colours are kept lower case.
        toColumns: (b: BrandingPatch) =>
          ({
            ...(b.studioName !== undefined && { studio_name: b.studioName }),
            ...(b.accentColour !== undefined && { accent_colour: b.accentColour?.toLowerCase() ?? null }),
          }) as { studio_name: string | null; accent_colour: string | null },
        fromRow: (row: { studio_name: string | null; accent_colour: string | null }) => ({
          studioName: row.studio_name,
          accentColour: row.accent_colour,
        }),
      },
    }),
    version: field(z.int().min(1).describe('Send it back as expectedVersion; 1 while the settings were never saved.')),
    updatedAt: field(Timestamp.nullable().describe('Null while the settings were never saved.'), {
      // A kept row always has it (versioned updates bump it); only the defaults, never kept, answer null.
      codec: { toColumn: (v: string | null) => v as string, fromColumn: (c: string) => c },
    }),
  },
});
export type ClientDocumentSettingsRow = TableOf<typeof CLIENT_DOCUMENT_SETTINGS_RECORD>;

/** Every project's settings version (1 while none were saved): a view, read by the version check only. */
export interface ClientDocumentSettingsVersionsView {
  id: string;
  project_id: string;
  version: number;
}

declare module '../../../db/schema.js' {
  interface Database {
    client_document_settings: ClientDocumentSettingsRow;
    client_document_settings_versions: ClientDocumentSettingsVersionsView;
    client_document_versions: ClientDocumentVersionRow;
  }
}
