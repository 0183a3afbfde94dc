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

/** Numbered migrations, applied in order on start. Append only: a landed migration is never edited. */
export const MIGRATIONS: ReadonlyArray<{ version: number; name: string; statements: readonly string[] }> = [
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
];
