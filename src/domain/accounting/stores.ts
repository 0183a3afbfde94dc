import type { Config } from '../../config.js';
import type { Store } from '../../../db/store.js';

/**
 * The store each runtime's configuration belongs to, so a read that talks to Xero can keep the tokens Xero rotates
 * on every refresh (and mark the connection needs_reconnect when a refresh is refused): credentials the provider
 * changes under us, not the studio data the read is about, so they are written beside the read's snapshot.
 */
const stores = new WeakMap<Config, Store>();

export const keepAccountingStore = (config: Config, store: Store) => void stores.set(config, store);

export function accountingStore(config: Config): Store {
  const store = stores.get(config);
  if (!store) throw new Error('No store was kept for this configuration (createRuntime keeps it).');
  return store;
}
