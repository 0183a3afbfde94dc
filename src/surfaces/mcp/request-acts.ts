import type { AnyAction } from '../../core/define-action.js';

/**
 * What a request asks to do, from its verb, against what an action does, from its name's: "make a PDF" wants an act
 * that creates, "email the document" one that sends, "show me" a read. A request whose verb says nothing (no verb, or
 * one not listed) weighs every action alike.
 */
export type Act = 'create' | 'send' | 'change' | 'remove' | 'read';

const REQUEST_VERBS: Readonly<Record<string, Act>> = {
  make: 'create',
  create: 'create',
  add: 'create',
  start: 'create',
  new: 'create',
  begin: 'create',
  draft: 'create',
  save: 'create',
  raise: 'create',
  generate: 'create',
  produce: 'create',
  render: 'create',
  send: 'send',
  email: 'send',
  mail: 'send',
  deliver: 'send',
  forward: 'send',
  resend: 'send',
  change: 'change',
  update: 'change',
  edit: 'change',
  rename: 'change',
  bump: 'change',
  adjust: 'change',
  modify: 'change',
  move: 'change',
  reorder: 'change',
  mark: 'change',
  log: 'change',
  record: 'change',
  delete: 'remove',
  remove: 'remove',
  archive: 'remove',
  drop: 'remove',
  discard: 'remove',
  cancel: 'remove',
  revoke: 'remove',
  void: 'remove',
  stop: 'remove',
  halt: 'remove',
  abort: 'remove',
  withdraw: 'remove',
  retract: 'remove',
  show: 'read',
  list: 'read',
  see: 'read',
  view: 'read',
  find: 'read',
  pull: 'read',
  what: 'read',
  which: 'read',
  who: 'read',
  check: 'read',
  look: 'read',
  read: 'read',
};

const ACTION_VERBS: Readonly<Record<string, Act>> = {
  create: 'create',
  add: 'create',
  duplicate: 'create',
  issue: 'create',
  copy: 'create',
  mint: 'create',
  paste: 'create',
  generate: 'create',
  retain: 'create',
  deliver: 'send',
  send: 'send',
  resend: 'send',
  update: 'change',
  set: 'change',
  bulk: 'change',
  move: 'change',
  reorder: 'change',
  renumber: 'change',
  rotate: 'change',
  merge: 'change',
  apply: 'change',
  record: 'change',
  archive: 'remove',
  remove: 'remove',
  revoke: 'remove',
  cancel: 'remove',
  void: 'remove',
  delete: 'remove',
  detach: 'remove',
  close: 'remove',
  list: 'read',
  get: 'read',
  search: 'read',
  preview: 'read',
  read: 'read',
};

/** Whether a (folded) query term is one of the verbs a request names its act with. */
export const isRequestVerb = (term: string): boolean => Object.hasOwn(REQUEST_VERBS, term);

/** The act the first verb of a request names, if any. */
export function requestAct(query: string): Act | undefined {
  for (const word of query.toLowerCase().split(/[^a-z]+/)) {
    const act = Object.hasOwn(REQUEST_VERBS, word) ? REQUEST_VERBS[word] : undefined;
    if (act) return act;
  }
  return undefined;
}

/** The act an action's name starts with, if its verb is one of those. */
export function actionAct(a: AnyAction): Act | undefined {
  const verb = a.name.split('_')[0]!;
  return Object.hasOwn(ACTION_VERBS, verb) ? ACTION_VERBS[verb] : undefined;
}

/**
 * How much a request's act weighs an action: another act less, a write for a read request (and back) least. Never
 * more than 1, so the weighing reorders hits but never lifts a stray match over the floor of what is shown. A request's
 * verb is the strongest sign of which of a record's actions it means ("email the PO" is a send, not the PO itself):
 * at 0.8/0.6 a record named twice outweighed it.
 */
export function actWeight(asked: Act | undefined, action: Act | undefined): number {
  if (!asked || !action || asked === action) return 1;
  return (asked === 'read') !== (action === 'read') ? 0.4 : 0.6;
}
