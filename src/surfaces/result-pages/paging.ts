import { createHash } from 'node:crypto';
import { canonicalJson } from '../../core/canonical-json.js';
import type { Caller } from '../../core/context.js';
import { ServiceError } from '../../core/errors.js';
import { PAGE_BYTES } from '../../core/result-size.js';
import { SnapshotCache } from './snapshot-cache.js';

/**
 * Large results for the agent surfaces (MCP `read_action_result`, `call_action` and the advertised reads, and
 * `GET /api/agent-results`): a read whose JSON exceeds PAGE_BYTES is answered as a `result_page` over one node of the
 * result, and the next pages come from the snapshot kept for the caller. The protocol (snapshots, node references,
 * entries, offsets) is described in docs/result-pages.md.
 */
export { PAGE_BYTES };

/** Longest key written inline in an entry; longer keys become a `keyNode` reference. */
const KEY_INLINE_BYTES = 256;
/** Longest JSON Pointer written in a page; deeper or longer paths are left to the node reference. */
const PATH_BYTES = 512;
/**
 * Largest member written whole after an earlier member of the same page was cut off: order is priority (get_action
 * puts how to call before the shared definitions), so a later large member is given as a reference and the room goes
 * to opening the earlier one. Small members (a cursor, a count) still come whole.
 */
const AFTER_CUT_INLINE_BYTES = 256;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type NodeType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

export interface PageEntry {
  /** Object members: the key, or `keyNode` when the key itself is too long to inline. */
  key?: string;
  keyNode?: string;
  /**
   * Array items: the position, on a cut-off item. A complete item needs none: a page's items are consecutive from its
   * offset (or from 0 in an opened reference).
   */
  index?: number;
  /** JSON Pointer of a cut-off member, when short enough (a complete value needs no address). */
  path?: string;
  /** The complete value … */
  value?: Json;
  /** … or, when cut off, its reference with its type and JSON size. */
  node?: string;
  type?: NodeType;
  bytes?: number;
  /** A cut-off object or array opened in this page: its size, its first entries and where its next page starts. */
  count?: number;
  entries?: PageEntry[];
  nextOffset?: number | null;
  remaining?: number;
}

export interface ResultPage {
  snapshot: string;
  node: string;
  path?: string;
  type: NodeType;
  /** JSON bytes of the whole selected node. */
  bytes: number;
  /** Members (object), items (array) or UTF-16 code units (string). */
  count: number;
  offset: number;
  entries?: PageEntry[];
  chunk?: string;
  value?: Json;
  nextOffset: number | null;
  /** Members (or code units) after this page: `count - nextOffset`; absent when the node is complete. */
  remaining?: number;
}

export interface Selection {
  snapshot?: string;
  /** A node reference (`n12`, `k12`) or a JSON Pointer (`/items/3`); the root when absent. */
  path?: string;
  offset?: number;
}

export type Bounded = { whole: unknown } | { result_page: ResultPage };

const byteLength = (s: string) => Buffer.byteLength(s, 'utf8');
const jsonBytes = (v: unknown) => byteLength(JSON.stringify(v));
const typeOf = (v: Json): NodeType => (v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as NodeType));
const escapePointer = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** The snapshot digest: which action, with which input, gave which result. */
export function snapshotOf(name: string, input: unknown, json: string): string {
  return createHash('sha256')
    .update(`${name}\u0000${canonicalJson(input ?? {})}\u0000${json}`)
    .digest('base64url')
    .slice(0, 32);
}

/**
 * The whole result when it fits (and no selection asks for a part), otherwise the selected page.
 * `wrap` gives the exact object a surface would send for the whole result, so the size check covers its envelope.
 */
export function boundedResult(
  name: string,
  input: unknown,
  result: unknown,
  selection: Selection = {},
  wrap: (doc: unknown) => unknown = (d) => d,
  remember?: (snapshot: string, doc: Json, bytes: number) => void,
): Bounded {
  const json = JSON.stringify(result) ?? 'null';
  const snapshot = snapshotOf(name, input, json);
  if (selection.snapshot !== undefined && selection.snapshot !== snapshot) {
    throw new ServiceError(
      'SNAPSHOT_CHANGED',
      'The result changed since that snapshot was read; start again with a fresh read (no snapshot) and do not combine pages from both.',
    );
  }
  const partial = selection.path !== undefined || (selection.offset ?? 0) > 0;
  if (!partial && jsonBytes(wrap(result)) <= PAGE_BYTES) return { whole: result };
  // Work on the JSON form, so what is paged is exactly what would have been sent (undefined members dropped).
  const doc = JSON.parse(json) as Json;
  remember?.(snapshot, doc, json.length);
  return { result_page: pageOf(doc, snapshot, selection.path, selection.offset ?? 0) };
}

/**
 * A read, bounded like `boundedResult`, that continues a paged snapshot from `cache` when it holds it (the same
 * caller, action, input and snapshot), and otherwise runs `read` and keeps a paged result for its next pages.
 */
export async function pagedRead(
  cache: SnapshotCache,
  caller: Caller,
  name: string,
  input: unknown,
  selection: Selection,
  read: () => Promise<unknown>,
  wrap: (doc: unknown) => unknown = (d) => d,
): Promise<Bounded> {
  if (selection.snapshot !== undefined) {
    const hit = cache.get(SnapshotCache.key(caller, name, input, selection.snapshot));
    if (hit) {
      const page = pageOf(
        hit.doc as Json,
        selection.snapshot,
        selection.path,
        selection.offset ?? 0,
        PAGE_BYTES,
        hit.memo,
      );
      return { result_page: page };
    }
  }
  return boundedResult(name, input, await read(), selection, wrap, (snapshot, doc, bytes) =>
    cache.set(SnapshotCache.key(caller, name, input, snapshot), doc, bytes),
  );
}

/** Nodes in a subtree, memoised per object for the life of one page request. */
class Counter {
  constructor(private readonly memo = new Map<object, number>()) {}
  count(v: Json): number {
    if (v === null || typeof v !== 'object') return 1;
    const known = this.memo.get(v);
    if (known !== undefined) return known;
    let n = 1;
    for (const child of Object.values(v)) n += this.count(child);
    this.memo.set(v, n);
    return n;
  }
}

interface Located {
  value: Json;
  index: number;
  /** Pointer segments from the root, or undefined once they pass PATH_BYTES. */
  path: string | undefined;
  /** The key this value sits under, when its parent is an object. */
  key?: string;
}

const children = (v: Json): Array<[string, Json]> => (v !== null && typeof v === 'object' ? Object.entries(v) : []);

function extend(path: string | undefined, segment: string): string | undefined {
  if (path === undefined) return undefined;
  const next = `${path}/${escapePointer(segment)}`;
  return byteLength(next) <= PATH_BYTES ? next : undefined;
}

/** Finds the value with pre-order index `target`. */
function locateIndex(doc: Json, target: number, counter: Counter): Located {
  let cur: Located = { value: doc, index: 0, path: '' };
  while (cur.index !== target) {
    let childIndex = cur.index + 1;
    let next: Located | undefined;
    for (const [k, child] of children(cur.value)) {
      const n = counter.count(child);
      if (target < childIndex + n) {
        next = {
          value: child,
          index: childIndex,
          path: extend(cur.path, k),
          ...(Array.isArray(cur.value) ? {} : { key: k }),
        };
        break;
      }
      childIndex += n;
    }
    if (!next) throw noNode(`n${target}`);
    cur = next;
  }
  return cur;
}

/** Finds the value at a JSON Pointer (RFC 6901). */
function locatePointer(doc: Json, pointer: string, counter: Counter): Located {
  if (pointer !== '' && !pointer.startsWith('/')) throw noNode(pointer);
  const segments =
    pointer === ''
      ? []
      : pointer
          .slice(1)
          .split('/')
          .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let cur: Located = { value: doc, index: 0, path: '' };
  for (const seg of segments) {
    let childIndex = cur.index + 1;
    let next: Located | undefined;
    for (const [k, child] of children(cur.value)) {
      if (k === seg) {
        next = {
          value: child,
          index: childIndex,
          path: extend(cur.path, k),
          ...(Array.isArray(cur.value) ? {} : { key: k }),
        };
        break;
      }
      childIndex += counter.count(child);
    }
    if (!next) throw noNode(pointer);
    cur = next;
  }
  return cur;
}

const noNode = (path: string) =>
  new ServiceError(
    'NOT_FOUND',
    `Nothing is at ${path.length > 80 ? `${path.slice(0, 80)}…` : path} in this snapshot; use a node or path from a page of the same snapshot.`,
  );

/** One bounded page of the node `path` selects, starting at `offset`. */
export function pageOf(
  doc: Json,
  snapshot: string,
  path: string | undefined,
  offset: number,
  budget = PAGE_BYTES,
  memo?: Map<object, number>,
): ResultPage {
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw new ServiceError(
      'VALIDATION_FAILED',
      'offset must be a whole number ≥ 0: nextOffset from the previous page.',
    );
  const counter = new Counter(memo);
  const ref = /^([nk])(\d{1,15})$/.exec(path ?? 'n0');
  const at = ref ? locateIndex(doc, Number(ref[2]), counter) : locatePointer(doc, path!, counter);
  if (ref?.[1] === 'k') {
    if (at.key === undefined) throw noNode(path!);
    return stringPage(at.key, { snapshot, node: path! }, offset, budget);
  }
  const node = `n${at.index}`;
  const head = { snapshot, node, ...(at.path !== undefined ? { path: at.path } : {}) };
  const v = at.value;
  if (typeof v === 'string') return stringPage(v, head, offset, budget);
  if (v === null || typeof v !== 'object') {
    if (offset > 0) throw beyond(offset, 0);
    return { ...head, type: typeOf(v), bytes: jsonBytes(v), count: 0, offset: 0, value: v, nextOffset: null };
  }
  return containerPage(v, at, head, offset, budget, counter);
}

const beyond = (offset: number, count: number) =>
  new ServiceError(
    'VALIDATION_FAILED',
    `offset ${offset} is past the end of this node (${count}); use nextOffset from the previous page.`,
  );

function containerPage(
  v: Json[] | { [k: string]: Json },
  at: Located,
  head: { snapshot: string; node: string; path?: string },
  offset: number,
  budget: number,
  counter: Counter,
): ResultPage {
  const isArray = Array.isArray(v);
  const members = Object.entries(v);
  const count = members.length;
  if (offset > count) throw beyond(offset, count);
  const page: ResultPage = {
    ...head,
    type: isArray ? 'array' : 'object',
    bytes: jsonBytes(v),
    count,
    offset,
    entries: [],
    nextOffset: null,
  };
  // The envelope's size with the widest nextOffset and remaining it can carry, so that filling entries up to the rest
  // is safe.
  const envelope = Math.max(
    jsonBytes({ result_page: { ...page, nextOffset: count, remaining: count } }),
    jsonBytes({ result_page: page }),
  );
  const room = budget - envelope;
  // Pre-order index of the first member at `offset`.
  let childIndex = at.index + 1;
  for (let j = 0; j < offset; j++) childIndex += counter.count(members[j]![1]);
  const filled = fill(members, isArray, at.path, childIndex, offset, room, room, counter);
  page.entries = filled.entries;
  setNext(page, filled.next, count);
  openFirstCut(page, filled.cuts, budget, room, counter);
  return page;
}

const setNext = (target: { nextOffset?: number | null; remaining?: number }, next: number, count: number) => {
  target.nextOffset = next < count ? next : null;
  if (next < count) target.remaining = count - next;
};

interface Cut {
  entry: PageEntry;
  value: Json[] | { [k: string]: Json };
  index: number;
}

/**
 * Entries of `members` from `offset` while they fit `room` bytes (commas included): each member whole, or cut off as a
 * reference when it could never fit a page (`fullRoom`) of its own; one that could stops the fill, so the next page
 * starts with it complete. After a cut, a member larger than AFTER_CUT_INLINE_BYTES is cut off too.
 */
function fill(
  members: Array<[string, Json]>,
  isArray: boolean,
  parentPath: string | undefined,
  firstChildIndex: number,
  offset: number,
  room: number,
  fullRoom: number,
  counter: Counter,
): { entries: PageEntry[]; next: number; cuts: Cut[] } {
  const entries: PageEntry[] = [];
  const cuts: Cut[] = [];
  let used = 0;
  let childIndex = firstChildIndex;
  let j = offset;
  for (; j < members.length; j++) {
    const [k, child] = members[j]!;
    const base: PageEntry = isArray
      ? {}
      : byteLength(JSON.stringify(k)) <= KEY_INLINE_BYTES
        ? { key: k }
        : { keyNode: `k${childIndex}` };
    const p = extend(parentPath, k);
    const comma = entries.length ? 1 : 0;
    // A complete value needs no address (it is never read again), so only a cut-off entry carries its path.
    const inline = { ...base, value: child };
    if (p !== undefined) base.path = p;
    if (isArray) base.index = j;
    const inlineBytes = jsonBytes(inline);
    const yields = cuts.length > 0 && inlineBytes > AFTER_CUT_INLINE_BYTES;
    if (!yields && used + comma + inlineBytes <= room) {
      entries.push(inline);
      used += comma + inlineBytes;
    } else if (!yields && inlineBytes <= fullRoom && (entries.length || room < fullRoom)) {
      break; // it fits a page of its own: the next page starts with it, complete
    } else {
      const cut: PageEntry = { ...base, node: `n${childIndex}`, type: typeOf(child), bytes: jsonBytes(child) };
      const cutBytes = jsonBytes(cut);
      if (used + comma + cutBytes > room) break;
      entries.push(cut);
      used += comma + cutBytes;
      if (child !== null && typeof child === 'object') cuts.push({ entry: cut, value: child, index: childIndex });
    }
    childIndex += counter.count(child);
  }
  return { entries, next: j, cuts };
}

/**
 * Opens the first cut-off object or array of a page in the room the page leaves: its reference gains `count`, the
 * first entries that fit, `nextOffset` and `remaining`, so the first answer already carries most of a list that just
 * missed the budget. Nothing changes when not even its first entry fits.
 */
function openFirstCut(page: ResultPage, cuts: Cut[], budget: number, fullRoom: number, counter: Counter) {
  const first = cuts[0];
  if (!first) return;
  const members = Object.entries(first.value);
  const count = members.length;
  const { entry } = first;
  // What the reference grows by besides its entries, with the widest numbers it can carry.
  const widest = { ...entry, count, entries: [], nextOffset: count, remaining: count };
  const room = budget - jsonBytes({ result_page: page }) - (jsonBytes(widest) - jsonBytes(entry));
  if (room <= 0) return;
  const opened = fill(members, Array.isArray(first.value), entry.path, first.index + 1, 0, room, fullRoom, counter);
  if (!opened.entries.length) return;
  entry.count = count;
  entry.entries = opened.entries;
  setNext(entry, opened.next, count);
}

function stringPage(
  s: string,
  head: { snapshot: string; node: string; path?: string },
  offset: number,
  budget: number,
): ResultPage {
  if (offset > s.length) throw beyond(offset, s.length);
  const page: ResultPage = {
    ...head,
    type: 'string',
    bytes: jsonBytes(s),
    count: s.length,
    offset,
    chunk: '',
    nextOffset: null,
  };
  const room =
    budget -
    Math.max(
      jsonBytes({ result_page: { ...page, nextOffset: s.length, remaining: s.length } }),
      jsonBytes({ result_page: page }),
    );
  // The longest chunk whose JSON fits: a binary search, since a longer chunk is never smaller.
  let lo = offset;
  let hi = s.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (jsonBytes(s.slice(offset, mid)) - 2 <= room) lo = mid;
    else hi = mid - 1;
  }
  let end = lo;
  // Never split a surrogate pair between pages: a lone half is not text any client can keep.
  if (end < s.length && end - 1 > offset && isHighSurrogate(s.charCodeAt(end - 1)) && isLowSurrogate(s.charCodeAt(end)))
    end -= 1;
  page.chunk = s.slice(offset, end);
  setNext(page, end, s.length);
  return page;
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;
