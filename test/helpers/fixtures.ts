import { trpc, type Trpc } from './clients.js';
import { uuid } from './ids.js';
import { openDatabase } from '../../db/open.js';
import type { Store } from '../../db/store.js';
import { storeOptionsFor } from './test-database.js';
import { addMember, createStudioWithOwner, mintToken, type NewStudio } from '../../src/domain/studio/onboarding.js';
import { newId, nowIso } from '../../src/core/ids.js';
import type { GrantLevel, Role } from '../../src/core/permissions.js';
import { PROJECT_GRANT_RECORD } from '../../src/domain/projects/grant-record.js';

/**
 * Test setup only: adds a member with a role (and optional project grants) straight into a database file and returns
 * their token. The server under test reads the same file, as a second writer would.
 */
export async function memberWithToken(
  database: string,
  role: Role,
  grants: Array<{ projectId: string; level: GrantLevel }> = [],
) {
  const store = await openDatabase(storeOptionsFor(database));
  try {
    // The first studio made (the demo one): a test may make others, and an unordered read could answer any of them.
    const studio = await store.db
      .selectFrom('studios')
      .select('id')
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const now = nowIso();
    const userId = newId();
    await store.db
      .insertInto('users')
      .values({ id: userId, email: `${role}-${userId}@example.test`, name: `Test ${role}`, created_at: now })
      .execute();
    const { token, memberId } = await addMembership(store.db, { studioId: studio.id, userId, role, grants });
    return { token, memberId, userId, studioId: studio.id };
  } finally {
    await store.close();
  }
}

export type Member = Awaited<ReturnType<typeof memberWithToken>>;

/** A membership of a studio for a person who exists, with its project grants and a token, made straight in `db`. */
export async function addMembership(
  db: Store['db'],
  m: { studioId: string; userId: string; role: Role; grants?: Array<{ projectId: string; level: GrantLevel }> },
) {
  const now = nowIso();
  const memberId = await addMember(db, m.studioId, m.userId, m.role, now);
  for (const g of m.grants ?? []) {
    await db
      .insertInto('project_grants')
      .values(PROJECT_GRANT_RECORD.newRow({ memberId, level: g.level }, { ownerId: g.projectId, now }))
      .execute();
  }
  const { token } = await mintToken(db, memberId, `test ${m.role}`, now);
  return { token, memberId };
}

/** Runs `fn` on a connection of its own to a test's database: someone changing data from outside the server. */
export async function fromOutside<T>(database: string, fn: (db: Store['db']) => Promise<T>): Promise<T> {
  const store = await openDatabase(storeOptionsFor(database));
  try {
    return await fn(store.db);
  } finally {
    await store.close();
  }
}

/**
 * Members of the app's studio in the given roles, added in that order, each with the usual reach into the demo project
 * `app.projectId`: an admin needs no grant, a viewer gets a view grant, any other role an edit grant.
 */
export async function demoMembers<R extends Role>(
  app: { database: string; projectId: string },
  roles: readonly R[],
): Promise<Record<R, Member>> {
  const members = {} as Record<R, Member>;
  for (const role of roles) {
    const level: GrantLevel = role === 'viewer' ? 'view' : 'edit';
    members[role] = await memberWithToken(
      app.database,
      role,
      role === 'admin' ? [] : [{ projectId: app.projectId, level }],
    );
  }
  return members;
}

/** Every floating-point number anywhere in a JSON value, with its path. The API must never produce one. */
export function floatsIn(value: unknown, path = '$'): string[] {
  if (typeof value === 'number') return Number.isInteger(value) ? [] : [`${path} = ${value}`];
  if (Array.isArray(value)) return value.flatMap((v, i) => floatsIn(v, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => floatsIn(v, `${path}.${k}`));
  return [];
}

/** How many rows `table` holds now, read on a connection of its own (as `fromOutside`). */
export function countRows(
  database: string,
  table: 'lines' | 'sections' | 'suppliers' | 'audit_events',
): Promise<number> {
  return fromOutside(database, async (db) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  );
}

/**
 * A second studio in the test's database, with its owner and a token for them, made straight in the store (as a
 * second writer would): for the tests that prove another studio's records are NOT_FOUND here. `label` keeps its
 * owner's address unique to the suite. Add it last: suites that list studios expect the demo one first.
 */
export async function anotherStudio(
  app: { rt: { store: { db: Store['db'] } } },
  label: string,
  studio: Partial<NewStudio> = {},
) {
  const now = nowIso();
  const made = await createStudioWithOwner(
    app.rt.store.db,
    { name: 'Elsewhere Studio', currency: 'GBP', codePrefix: 'EL', ...studio },
    { email: `${label}-elsewhere@example.test`, name: 'El' },
    now,
  );
  const { token } = await mintToken(app.rt.store.db, made.memberId, 'elsewhere', now);
  return { ...made, token };
}

/**
 * A second studio made through create_studio by `owner` (as someone who runs two studios makes one), and a typed
 * client for its owner (`them`): for the tests that prove its records are NOT_FOUND here. Unlike `anotherStudio`, it
 * goes through the API. Add it last: suites that list studios expect the demo one first.
 */
export async function studioOfTheirOwn(
  app: { url: string },
  owner: Trpc,
  studio: Partial<Omit<Parameters<Trpc['account']['createStudio']['mutate']>[0], 'commandKey'>> = {},
): Promise<{ them: Trpc; studioId: string }> {
  const made = await owner.account.createStudio.mutate({
    name: 'Elsewhere Interiors',
    currency: 'GBP',
    ...studio,
    commandKey: uuid(),
  });
  return { them: trpc(app.url, made.ownerTokenSecret!), studioId: made.studio.id };
}
