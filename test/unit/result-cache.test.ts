import { describe, expect, it } from 'vitest';
import type { Caller } from '../../src/core/context.js';
import { SnapshotCache } from '../../src/surfaces/result-pages/snapshot-cache.js';

const caller = (over: Partial<Caller> = {}): Caller => ({
  userId: 'u',
  memberId: 'm',
  studioId: 's',
  role: 'owner',
  tokenId: 't',
  via: 'api_token',
  permissions: new Set(),
  ...over,
});

describe('SnapshotCache', () => {
  it('finds a snapshot only for the same caller, role, action, input and snapshot', () => {
    const base = SnapshotCache.key(caller(), 'list_lines', { projectId: 'p' }, 'snap');
    expect(SnapshotCache.key(caller(), 'list_lines', { projectId: 'p' }, 'snap')).toBe(base);
    for (const other of [
      SnapshotCache.key(caller({ tokenId: 't2' }), 'list_lines', { projectId: 'p' }, 'snap'),
      SnapshotCache.key(caller({ memberId: 'm2' }), 'list_lines', { projectId: 'p' }, 'snap'),
      SnapshotCache.key(caller({ role: 'assistant' }), 'list_lines', { projectId: 'p' }, 'snap'),
      SnapshotCache.key(caller({ studioId: 's2' }), 'list_lines', { projectId: 'p' }, 'snap'),
      SnapshotCache.key(caller(), 'list_schedule_lines', { projectId: 'p' }, 'snap'),
      SnapshotCache.key(caller(), 'list_lines', { projectId: 'q' }, 'snap'),
      SnapshotCache.key(caller(), 'list_lines', { projectId: 'p' }, 'snap2'),
    ])
      expect(other).not.toBe(base);
  });

  it('keeps at most its byte budget, dropping the oldest first', () => {
    const cache = new SnapshotCache(1000, 60_000);
    cache.set('a', { a: 1 }, 200, 0);
    cache.set('b', { b: 1 }, 200, 0);
    cache.set('c', { c: 1 }, 200, 0);
    cache.set('d', { d: 1 }, 200, 0);
    cache.set('e', { e: 1 }, 200, 0);
    cache.set('f', { f: 1 }, 200, 0);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('f', 1)?.doc).toEqual({ f: 1 });
    // A result larger than a quarter of the budget is never kept (it would push out everyone else's).
    cache.set('big', {}, 300, 0);
    expect(cache.get('big', 1)).toBeUndefined();
  });

  it('forgets a snapshot once it expires', () => {
    const cache = new SnapshotCache(1000, 100);
    cache.set('a', { a: 1 }, 10, 0);
    expect(cache.get('a', 99)).toBeDefined();
    expect(cache.get('a', 100)).toBeUndefined();
  });
});
