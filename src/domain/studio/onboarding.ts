import type { Kysely } from 'kysely';
import { UNIT_RECORD } from '../units/record.js';
import { MEMBER_RECORD } from '../members/record.js';
import { API_TOKEN_RECORD } from '../account/record.js';
import type { Database } from '../../../db/schema.js';
import type { Currency } from '../../../db/vocabulary.js';
import { newId, newToken, sha256 } from '../../core/ids.js';
import type { Role } from '../../core/permissions.js';
import { newDefaultScheme } from '../codes/schemes.js';

export const DEFAULT_UNITS = [
  { name: 'each', symbol: 'ea' },
  { name: 'pair', symbol: 'pr' },
  { name: 'set', symbol: 'set' },
  { name: 'metre', symbol: 'm' },
  { name: 'square metre', symbol: 'm²' },
  { name: 'roll', symbol: 'roll' },
] as const;

export interface NewStudio {
  name: string;
  currency: Currency;
  codePrefix?: string;
  defaultMarkup4?: string;
  /** Scale-4 ratio string; default no tax. */
  taxRate4?: string;
}

/**
 * Creates a tenant: the studio, its default units, and its owner (reusing the user when the email is known).
 * Onboarding only: not reachable through the resource API.
 */
export async function createStudioWithOwner(
  db: Kysely<Database>,
  studio: NewStudio,
  owner: { email: string; name: string },
  now: string,
) {
  const studioId = newId();
  const units = DEFAULT_UNITS.map((u) => UNIT_RECORD.newRow(u, { id: newId(), ownerId: studioId, now }));
  await db
    .insertInto('studios')
    .values({
      id: studioId,
      name: studio.name,
      currency: studio.currency,
      default_markup4: studio.defaultMarkup4 ?? '3500',
      default_unit_id: units[0]!.id,
      code_prefix: studio.codePrefix ?? 'FF',
      // Left out, the tax rate and the branding take the database's defaults: no tax, no branding beyond the name.
      tax_rate4: studio.taxRate4,
      created_at: now,
      updated_at: now,
      version: 1,
    })
    .execute();
  await db.insertInto('units').values(units).execute();
  // The studio's default code scheme; studios.code_prefix mirrors its prefix (src/domain/codes/schemes.ts).
  await db
    .insertInto('code_schemes')
    .values(newDefaultScheme(studioId, studio.codePrefix ?? 'FF', now))
    .execute();
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', owner.email.toLowerCase())
    .executeTakeFirst();
  const userId = existing?.id ?? newId();
  if (!existing)
    await db
      .insertInto('users')
      .values({ id: userId, email: owner.email.toLowerCase(), name: owner.name, created_at: now })
      .execute();
  const memberId = await addMember(db, studioId, userId, 'owner', now);
  return {
    studioId,
    userId,
    memberId,
    unitIds: Object.fromEntries(units.map((u) => [u.symbol, u.id])) as Record<string, string>,
  };
}

export async function addMember(
  db: Kysely<Database>,
  studioId: string,
  userId: string,
  role: Role,
  now: string,
): Promise<string> {
  const id = newId();
  await db
    .insertInto('members')
    .values(MEMBER_RECORD.newRow({ userId, role }, { id, ownerId: studioId, now }))
    .execute();
  return id;
}

/** Mints an API token for a member. The secret is returned once and stored only as its SHA-256 digest. */
export async function mintToken(
  db: Kysely<Database>,
  memberId: string,
  name: string,
  now: string,
  expiresAt: string | null = null,
) {
  const token = newToken();
  const id = newId();
  await db
    .insertInto('api_tokens')
    .values(
      API_TOKEN_RECORD.newRow(
        { name, tokenHash: sha256(token), hint: token.slice(-4), expiresAt },
        { id, ownerId: memberId, now },
      ),
    )
    .execute();
  return { id, token, hint: token.slice(-4) };
}
