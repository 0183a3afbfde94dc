import { describe, expect, it } from 'vitest';
import { eventDigest, GENESIS_DIGEST } from '../../src/core/audit.js';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { newId, sha256 } from '../../src/core/ids.js';

/**
 * A studio's audit chain is verified by recomputing every digest: the text an event hashes to must never change, or
 * every chain already stored would stop verifying. These digests were computed when the text was first written by
 * canonicalJson; eventDigest must give them still.
 */
const event = {
  id: '0123456789abcdefghjkmnpqrs',
  studioId: 's0123456789abcdefghjkmnpq',
  seq: 7,
  projectId: null,
  actorKind: 'member',
  actorId: 'm0123456789abcdefghjkmnpq',
  actorVia: null,
  action: 'update_line',
  targetKind: 'line',
  targetId: 'l0123456789abcdefghjkmnpq',
  at: '2026-11-23T10:00:00.000Z',
  summary: 'Changed the finish — “oak”',
  changes: '{"finish":{"from":"a","to":"b"}}',
};

describe('audit event digest', () => {
  it('hashes an event as its chain was first written (without a channel, and with one)', () => {
    expect(eventDigest(GENESIS_DIGEST, event)).toBe('1fa2a03287e5c18303894c8c41f03eb13f77d3817c9fa1b5c82fdf4ea25cc1f4');
    expect(eventDigest('ab'.repeat(32), { ...event, actorVia: 'mcp', projectId: 'p0123456789abcdefghjkmnpq' })).toBe(
      '310b447e7bf3a4a567c9d436c345d664be1386d721b3a5bc8638036b2aec91c3',
    );
  });

  it('hashes the canonical JSON of the event, whatever its values', () => {
    for (let i = 0; i < 200; i++) {
      const e = {
        ...event,
        id: newId(),
        seq: i,
        projectId: i % 3 ? newId() : null,
        actorId: i % 5 ? newId() : null,
        actorKind: i % 5 ? 'member' : 'system',
        actorVia: [null, 'mcp', 'rest', 'trpc'][i % 4] ?? null,
        targetKind: i % 7 ? 'line' : null,
        targetId: i % 7 ? newId() : null,
        summary: `Summary ${i} \u{1F600} "quoted" \\ ${'x'.repeat(i)}`,
        changes: i % 2 ? canonicalJson({ n: i, s: `v${i}` }) : null,
      };
      const { actorVia, ...rest } = e;
      expect(eventDigest(GENESIS_DIGEST, e)).toBe(sha256(GENESIS_DIGEST + canonicalJson(actorVia === null ? rest : e)));
    }
  });

  it('mints distinct ids of the minted shape, past the random pool refilling', () => {
    const ids = Array.from({ length: 1000 }, newId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
  });
});
