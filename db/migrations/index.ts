import type { Dialect } from '../store.js';
import * as m001 from './001_initial.js';
import * as m002 from './002_studio_settings.js';
import * as m003 from './003_suppliers.js';
import * as m004 from './004_line_code_index.js';
import * as m005 from './005_units.js';
import * as m006 from './006_clients.js';
import * as m007 from './007_libraries.js';
import * as m008 from './008_templates.js';
import * as m009 from './009_codes.js';
import * as m010 from './010_lines_by_section.js';
import * as m011 from './011_audit_actor_channel.js';
import * as m012 from './012_custom_properties.js';
import * as m013 from './013_line_property_values.js';
import * as m014 from './014_line_photographs.js';
import * as m015 from './015_client_documents.js';
import * as m016 from './016_shares.js';
import * as m017 from './017_imports.js';
import * as m018 from './018_operations.js';
import * as m019 from './019_documents.js';
import * as m020 from './020_people.js';
import * as m021 from './021_interface_state.js';
import * as m022 from './022_members_invitations.js';
import * as m023 from './023_oauth.js';
import * as m024 from './024_import_operations.js';

/**
 * One numbered migration: portable statements, or, where the dialects differ, SQLite's in `statements` and
 * PostgreSQL's in `postgres`.
 */
export interface Migration {
  version: number;
  name: string;
  statements: readonly string[];
  postgres?: readonly string[];
}

export const statementsFor = (m: Migration, dialect: Dialect) =>
  dialect === 'postgres' ? (m.postgres ?? m.statements) : m.statements;

/**
 * Numbered migrations, applied in order on start. Append only: a landed migration's SQLite statements are never
 * changed in meaning (004, 006 and 009 gained PostgreSQL twins; their SQLite statements are equivalent to before).
 */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, ...m001 },
  { version: 2, ...m002 },
  { version: 3, ...m003 },
  { version: 4, ...m004 },
  { version: 5, ...m005 },
  { version: 6, ...m006 },
  { version: 7, ...m007 },
  { version: 8, ...m008 },
  { version: 9, ...m009 },
  { version: 10, ...m010 },
  { version: 11, ...m011 },
  { version: 12, ...m012 },
  { version: 13, ...m013 },
  { version: 14, ...m014 },
  { version: 15, ...m015 },
  { version: 16, ...m016 },
  { version: 17, ...m017 },
  { version: 18, ...m018 },
  { version: 19, ...m019 },
  { version: 20, ...m020 },
  { version: 21, ...m021 },
  { version: 22, ...m022 },
  { version: 23, ...m023 },
  { version: 24, ...m024 },
];
