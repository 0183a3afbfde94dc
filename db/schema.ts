import type { Generated, Selectable, Updateable } from 'kysely';
import type {
  ActorChannel,
  ActorKind,
  AuditTargetKind,
  Currency,
  DeliveryStatus,
  DocumentFormat,
  DocumentKind,
  DocumentSourceKind,
  LayoutKind,
  OAuthRevocationReason,
} from './vocabulary.js';

/**
 * Kysely table types. Booleans are 0/1, times are RFC 3339 strings, money columns are scale-4 integer strings.
 * `Generated<T>` marks a column the database fills by default (an insert may leave it out); closed sets are the literal
 * unions of ./vocabulary.ts. Code reads rows as `…Row` (Selectable), never as the table type itself.
 */

export interface StudiosTable {
  id: string;
  name: string;
  currency: Currency;
  default_markup4: string;
  default_unit_id: string | null;
  code_prefix: string;
  /** Scale-4 ratio string ("2000" = 20%); '0' by default. */
  tax_rate4: Generated<string>;
  /** Null: documents show the studio's name. */
  brand_display_name: string | null;
  /** `#rrggbb`, lowercase; '#1f2937' by default. */
  brand_accent_colour: Generated<string>;
  brand_logo_text: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  created_at: string;
  /** scrypt digest (`scrypt$N$r$p$salt$hash`), null until the person sets a password. */
  password_hash: string | null;
  password_changed_at: string | null;
}

/** Failed sign-ins per email address, for the throttle (src/domain/people/sign-in.ts). */
export interface SignInFailuresTable {
  email: string;
  failures: number;
  first_failed_at: string;
  locked_until: string | null;
}

/** A person signed in on this server's pages; the cookie's secret is kept only as a SHA-256 digest. */
export interface SessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
}

/** A client that registered itself (RFC 7591): public, so it has no secret. `metadata` is the registration as answered. */
export interface OAuthClientsTable {
  id: string;
  name: string | null;
  /** JSON array of the exact redirect URIs registered. */
  redirect_uris: string;
  metadata: string;
  created_at: string;
}

/**
 * One consented connection: a member of one studio let a client act for them with these scopes (space-separated
 * StudioPermission names, what the person allowed; a request gets them only as far as the member's role allows) for
 * tokens whose audience is `resource`. Revoked as a whole, never edited otherwise.
 */
export interface OAuthGrantsTable {
  id: string;
  client_id: string;
  member_id: string;
  scopes: string;
  resource: string;
  created_at: string;
  revoked_at: string | null;
  revoked_reason: OAuthRevocationReason | null;
}

/** An authorization code, by its digest: single use (`used_at`), ten minutes, bound to its PKCE challenge. */
export interface OAuthCodesTable {
  code_hash: string;
  /** The consent form that made it: one code per approval. */
  consent_id: string;
  client_id: string;
  member_id: string;
  redirect_uri: string;
  /** 1 when the authorization request named redirect_uri (the token request must then send it), 0 when it was left out. */
  redirect_uri_named: Generated<number>;
  code_challenge: string;
  scopes: string;
  resource: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The grant its exchange created, so a second exchange can revoke it. */
  grant_id: string | null;
}

export interface OAuthAccessTokensTable {
  id: string;
  grant_id: string;
  token_hash: string;
  /** This token's scopes: the grant's, or fewer when a refresh asked for fewer. */
  scopes: string;
  created_at: string;
  expires_at: string;
}

/** A refresh token, by its digest: spent by its one use (rotation); presented again, it revokes its grant. */
export interface OAuthRefreshTokensTable {
  id: string;
  grant_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
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

export interface AuditEventsTable {
  id: string;
  studio_id: string;
  seq: number;
  project_id: string | null;
  actor_kind: ActorKind;
  actor_id: string | null;
  /** How the actor reached the server (NULL for system events and those recorded before migration 011). */
  actor_via: Generated<ActorChannel | null>;
  action: string;
  target_kind: AuditTargetKind | null;
  target_id: string | null;
  at: string;
  summary: string;
  changes: string | null;
  prev_digest: string;
  digest: string;
}

export interface IdempotencyRecordsTable {
  studio_id: string;
  caller_id: string;
  key: string;
  action: string;
  request_hash: string;
  response: string;
  created_at: string;
  expires_at: string;
}

/** A member's own interface state in their studio. See db/migrations/021_interface_state.ts. */
export interface MemberInterfaceStateTable {
  id: string;
  member_id: string;
  /** JSON of the sidebar as the member left it; NULL while it is the default. */
  sidebar: string | null;
  first_run_completed_at: string | null;
  created_at: string;
  updated_at: string;
  /** The sidebar's version: completing the first run does not move it. */
  version: number;
}

/** A member's layout of a table or of the inspector, per project where it has one (NULL: the same everywhere). */
export interface InterfaceLayoutsTable {
  id: string;
  member_id: string;
  layout_kind: LayoutKind;
  /** The table (INTERFACE_TABLES) or the kind of record (INSPECTOR_RECORDS). */
  subject: string;
  project_id: string | null;
  /** JSON of the layout, as the API shows it without its version. */
  body: string;
  created_at: string;
  updated_at: string;
  version: number;
}

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: string;
}

export interface Database {
  studios: StudiosTable;
  users: UsersTable;
  sign_in_failures: SignInFailuresTable;
  sessions: SessionsTable;
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_access_tokens: OAuthAccessTokensTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
  client_document_settings: ClientDocumentSettingsTable;
  client_document_settings_versions: ClientDocumentSettingsVersionsView;
  client_document_versions: ClientDocumentVersionsTable;
  import_sheets: ImportSheetsTable;
  documents: DocumentsTable;
  document_deliveries: DocumentDeliveriesTable;
  package_entries: PackageEntriesTable;
  audit_events: AuditEventsTable;
  idempotency_records: IdempotencyRecordsTable;
  member_interface_state: MemberInterfaceStateTable;
  interface_layouts: InterfaceLayoutsTable;
  schema_migrations: SchemaMigrationsTable;
}

export type MemberInterfaceStateRow = Selectable<MemberInterfaceStateTable>;
export type InterfaceLayoutRow = Selectable<InterfaceLayoutsTable>;
export type DocumentRow = Selectable<DocumentsTable>;
export type DocumentDeliveryRow = Selectable<DocumentDeliveriesTable>;
export type StudioRow = Selectable<StudiosTable>;
export type StudioUpdate = Updateable<StudiosTable>;
export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type OAuthClientRow = Selectable<OAuthClientsTable>;
export type OAuthGrantRow = Selectable<OAuthGrantsTable>;
export type OAuthCodeRow = Selectable<OAuthCodesTable>;
export type AuditEventRow = Selectable<AuditEventsTable>;
export type ClientDocumentSettingsRow = Selectable<ClientDocumentSettingsTable>;
export type ClientDocumentVersionRow = Selectable<ClientDocumentVersionsTable>;
