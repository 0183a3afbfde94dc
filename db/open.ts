import type { Store } from './store.js';

export interface StoreOptions {
  /** The SQLite file, used when no PostgreSQL URL is given. */
  path: string;
  /** `postgres://…`: PostgreSQL instead of the file. */
  url?: string;
  synchronous?: 'FULL' | 'NORMAL';
}

/**
 * Opens (creating and migrating) the server's database: PostgreSQL when a URL is given, else the SQLite file. Each
 * store is imported only when chosen, so an SQLite install never loads the PostgreSQL client, nor the reverse.
 */
export async function openDatabase(opts: StoreOptions): Promise<Store> {
  if (opts.url) {
    const { openPostgresStore } = await import('./postgres.js');
    return openPostgresStore({ url: opts.url });
  }
  const { openStore } = await import('./sqlite.js');
  return openStore({ path: opts.path, synchronous: opts.synchronous });
}

/** Whether a URL names PostgreSQL; anything else in STUDIO_DATABASE_URL is a mistake said at start. */
export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url);
