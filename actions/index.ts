/**
 * Every capability, declared once. Each module exports its actions as named constants; the catalog is every exported
 * value that is an action. Surfaces, documents and the typed router are all derived from this one list.
 */
import type { AnyAction } from '../src/core/define-action.js';
import * as all from './all.js';

export const ACTIONS: readonly AnyAction[] = Object.values(all as Record<string, unknown>)
  .filter((v): v is AnyAction => typeof v === 'object' && v !== null && 'handler' in v && 'fullInput' in v)
  .sort((a, b) => a.name.localeCompare(b.name));

/** Export name of each action, for the generated router type. */
export const EXPORT_NAMES: ReadonlyMap<AnyAction, string> = new Map(
  Object.entries(all as Record<string, unknown>)
    .filter(([, v]) => typeof v === 'object' && v !== null && 'handler' in v)
    .map(([k, v]) => [v as AnyAction, k]),
);

export const ACTIONS_BY_NAME: ReadonlyMap<string, AnyAction> = new Map(ACTIONS.map((a) => [a.name, a]));
