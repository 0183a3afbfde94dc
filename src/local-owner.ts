import { readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Store } from '../db/store.js';
import type { Caller } from './core/context.js';
import { ROLE_PERMISSIONS } from './core/permissions.js';

/** Where the first start keeps the demo owner's token, readable only by the file's owner. */
export const tokenFilePath = (databasePath: string) => join(dirname(databasePath), 'owner-token');

export function saveOwnerToken(databasePath: string, token: string) {
  const file = tokenFilePath(databasePath);
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

export function readOwnerToken(databasePath: string): string | undefined {
  return readKept(tokenFilePath(databasePath));
}

/** Where the first start keeps the demo share's path (`/s/<token>`): a capability, so readable only by its owner. */
export const demoShareFilePath = (databasePath: string) => join(dirname(databasePath), 'demo-share');

export function saveDemoShare(databasePath: string, path: string) {
  const file = demoShareFilePath(databasePath);
  writeFileSync(file, `${path}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

export const readDemoShare = (databasePath: string) => readKept(demoShareFilePath(databasePath));

/** Where the first start keeps the demo's decide link's path: a capability too, readable only by its owner. */
export const demoDecisionFilePath = (databasePath: string) => join(dirname(databasePath), 'demo-decision-share');

export function saveDemoDecisionShare(databasePath: string, path: string) {
  const file = demoDecisionFilePath(databasePath);
  writeFileSync(file, `${path}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

export const readDemoDecisionShare = (databasePath: string) => readKept(demoDecisionFilePath(databasePath));

function readKept(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The owner of the database's only studio, for a local stdio MCP server started without STUDIO_TOKEN: whoever can
 * start the server can read the database file anyway, so this grants nothing new. With several studios, a token is
 * required to say which.
 */
export async function localOwner(store: Store): Promise<{ caller: Caller; studioName: string } | { problem: string }> {
  const rows = await store.readDb
    .selectFrom('studios as s')
    .innerJoin('members as m', (j) =>
      j.onRef('m.studio_id', '=', 's.id').on('m.role', '=', 'owner').on('m.removed_at', 'is', null),
    )
    .select(['s.id as studio_id', 's.name', 'm.id as member_id', 'm.user_id'])
    .execute();
  if (rows.length === 0)
    return { problem: 'The database has no studio yet; run `studio serve` once to create the demo studio.' };
  if (rows.length > 1)
    return { problem: 'The database has several studios; set STUDIO_TOKEN to say which one to act for.' };
  const r = rows[0]!;
  return {
    studioName: r.name,
    caller: {
      userId: r.user_id,
      memberId: r.member_id,
      studioId: r.studio_id,
      role: 'owner',
      tokenId: 'local',
      via: 'local_owner',
      permissions: new Set(ROLE_PERMISSIONS.owner),
    },
  };
}
