import { z } from 'zod';
import { Currency, Id, Ratio, Timestamp, named } from '../../src/core/values.js';
import { ROLES, STUDIO_PERMISSIONS } from '../../src/core/permissions.js';
import { Role } from '../../src/domain/members/record.js';
import { priced } from '../../src/core/schema-marks.js';

/** A ratio that cannot be negative and has a ceiling (ratio4 "10000" = 100%). */
export { boundedRatio } from '../../src/core/values.js';

export const Studio = z
  .strictObject({
    id: Id,
    name: z.string(),
    owner: z.strictObject({ memberId: Id, name: z.string() }).nullable().describe('The one owner.'),
    version: z.int().describe('Shared by the studio and its settings; echo it back as expectedVersion.'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .describe('A studio (the tenant).');
named(Studio, 'Studio');

/** A studio's name: one line (it heads pages, documents and mail), so no control characters, line breaks included. */
export const StudioName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine(
    (s) => !/\p{Cc}/u.test(s),
    'A studio name is one line without control characters (line breaks, tabs); remove them and send it again.',
  );

export { CodePrefix } from '../../src/domain/codes/record.js';

export const AccentColour = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'A colour is #rrggbb, e.g. #1f2937.')
  .describe('#rrggbb.');

export const StudioSettings = z
  .strictObject({
    defaultMarkup: priced(Ratio)
      .optional()
      .describe('Needs pricing:read. Applies to projects without their own markup.'),
    currency: Currency.describe('The currency new projects start with.'),
    taxRate: Ratio.describe('Sales tax on client totals, e.g. "2000" = 20%.'),
    defaultUnitId: Id.nullable().describe('The unit a line gets when none is given.'),
    units: z
      .array(z.strictObject({ id: Id, name: z.string(), symbol: z.string() }))
      .describe("The studio's active units, by name."),
    codeFormat: z.strictObject({
      prefix: z.string(),
      example: z.string().describe('The first code a project gets, e.g. FF-001.'),
    }),
    branding: z.strictObject({
      displayName: z.string().nullable().describe("Shown on client documents; null: the studio's name."),
      accentColour: z.string().describe('#rrggbb, lowercase.'),
      logoText: z.string().nullable().describe('Text set as the logo on documents; null: none.'),
    }),
    version: z.int().describe("The studio's version (shared with get_studio)."),
    updatedAt: Timestamp,
  })
  .describe("The studio's defaults and branding.");
named(StudioSettings, 'StudioSettings');

export const PermissionCatalog = z.strictObject({
  permissions: z
    .array(z.strictObject({ name: z.enum(STUDIO_PERMISSIONS), description: z.string() }))
    .describe('The closed StudioPermission union.'),
  roles: z.array(
    z.strictObject({ role: Role, description: z.string(), permissions: z.array(z.enum(STUDIO_PERMISSIONS)) }),
  ),
  grantLevels: z
    .array(z.strictObject({ level: z.enum(['view', 'edit']), description: z.string() }))
    .describe('Per-project access for members without workspace:manage.'),
});

const count = z.int().min(0);
export const StudioUsage = z.strictObject({
  projects: z.strictObject({ active: count, archived: count }),
  lines: z
    .strictObject({ active: count, archived: count })
    .describe('Across every project of the studio, archived projects included.'),
  members: z.strictObject({
    active: count,
    byRole: z.strictObject(
      Object.fromEntries(ROLES.map((r) => [r, count])) as Record<(typeof ROLES)[number], typeof count>,
    ),
  }),
  apiTokens: z.strictObject({ active: count }).describe('Unrevoked, unexpired tokens of active members.'),
  storage: z
    .strictObject({
      bytes: count.describe('Bytes of the files the studio keeps, each distinct file once.'),
      files: count,
      quotaBytes: count
        .nullable()
        .describe('The most the files may take (STUDIO_STORAGE_QUOTA_BYTES); null: no quota.'),
    })
    .describe(
      "Files kept for the studio: photographs (removed ones too while a minted version shows them), documents, packages' contents and import files (not canceled imports'). Past the quota, uploads, renders and packages are refused with STORAGE_QUOTA_EXCEEDED.",
    ),
  asOf: Timestamp,
});
