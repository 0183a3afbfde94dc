import { z } from 'zod';
import { Id, Timestamp, named } from '../../src/core/values.js';
import { STUDIO_PERMISSIONS } from '../../src/core/permissions.js';
import { SidebarState } from '../interface/records.js';
import { API_TOKEN_RECORD } from '../../src/domain/account/record.js';
import { Role } from '../../src/domain/members/record.js';

export { Role };

export const CurrentUser = z
  .strictObject({
    id: Id.describe('The user (a person), the same in every studio they belong to.'),
    email: z.string(),
    name: z.string(),
    studio: z.strictObject({ id: Id, name: z.string() }).describe('The studio this token acts in.'),
    memberId: Id.describe('Your membership in that studio.'),
    role: Role,
    permissions: z
      .array(z.enum(STUDIO_PERMISSIONS))
      .describe(
        "What this token may do, in the union's order: your role's permissions (for an OAuth connection, those of them it was allowed).",
      ),
    currentTokenId: z
      .string()
      .describe('The token this request was made with: an API token, or an OAuth access token (MCP over HTTP).'),
    interfaceState: z
      .strictObject({
        firstRunCompletedAt: Timestamp.nullable().describe(
          'When you finished the first-run flow in this studio (complete_first_run); null until then.',
        ),
        sidebar: SidebarState,
      })
      .describe(
        'What a client needs at start, for this membership (another studio of yours keeps its own). Saved views and layouts: list_saved_views, get_table_layout, get_inspector_layout.',
      ),
  })
  .describe('Who you are acting as.');
named(CurrentUser, 'CurrentUser');

export const MyStudio = z.strictObject({
  studioId: Id,
  name: z.string(),
  memberId: Id,
  role: Role,
  memberSince: Timestamp,
  current: z.boolean().describe('The studio this token acts in.'),
});

/** An API token as the API answers it (declared once, in src/domain/account/record.ts). */
export const ApiToken = API_TOKEN_RECORD.output;

export const TokenSecret = z
  .string()
  .nullable()
  .describe(
    'The token itself, shown once: keep it now. Null when this answer replays an earlier request with the same commandKey; revoke that token and create another if it was lost.',
  );
