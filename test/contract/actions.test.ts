/**
 * The contract every action keeps, checked over the whole catalog at once: whatever is declared in actions/** is
 * covered here without being listed. A failure names the action and the rule it breaks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ACTIONS } from '../../actions/index.js';
import { camelCase, type AnyAction } from '../../src/core/define-action.js';
import { ERROR_CATALOG } from '../../src/core/errors.js';
import { ID_FIELDS } from '../../src/core/entities.js';
import { STUDIO_PERMISSIONS } from '../../src/core/permissions.js';
import { standaloneJsonSchema, toJsonSchema } from '../../src/contract/json-schema.js';
import { ROOT } from '../helpers/server.js';

/**
 * Input fields that end in `Id`/`Ids` but are deliberately NOT ownership claims checked by `invoke` (they are not in
 * ID_FIELDS). Each entry says why; adding one is a decision, not a way to silence the test.
 */
const UNCHECKED_ID_FIELDS: Record<string, string> = {
  // list_audit_events filter: names a record of any kind (line, section, project …). The feed is already bounded to
  // the caller's studio and project, so an unknown or foreign id simply matches no events; nothing is revealed.
  targetId: 'audit feed filter over records of any kind',
};

const SCOPES = new Set<string>([...STUDIO_PERMISSIONS, 'member', 'capability']);
const NAME = /^[a-z]+(_[a-z0-9]+)+$/;

/** Every property name anywhere in a JSON Schema: nested objects, arrays, unions and `$defs` included. */
function propertyNames(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) propertyNames(s, out);
  else if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      if (k === 'properties' && v && typeof v === 'object') for (const name of Object.keys(v)) out.add(name);
      propertyNames(v, out);
    }
  }
  return out;
}

const rows = ACTIONS.map((a) => [a.name, a] as [string, AnyAction]);

it('the catalog is not empty', () => {
  expect(ACTIONS.length).toBeGreaterThan(0);
});

describe.each(rows)('%s', (name, action) => {
  it('is named verb_noun in snake_case', () => {
    expect(name).toMatch(NAME);
  });

  it('has a one-sentence summary (≤ 100 characters, ending with ".") and a description', () => {
    expect(action.summary.trim().length).toBeGreaterThan(0);
    expect(action.summary.length).toBeLessThanOrEqual(100);
    expect(action.summary.endsWith('.')).toBe(true);
    expect(action.description.trim().length).toBeGreaterThan(0);
  });

  it('declares a scope from the closed StudioPermission union (or member / capability)', () => {
    expect(SCOPES.has(action.scope), `scope ${action.scope}`).toBe(true);
  });

  it('has input and output schemas that convert to JSON Schema', () => {
    for (const [io, schema] of [
      ['input', action.fullInput],
      ['output', action.output],
    ] as const) {
      expect(() => toJsonSchema(schema, io)).not.toThrow();
      // The surfaces fall back to `{}` for unrepresentable types; here nothing may need that fallback, so no published
      // schema silently accepts anything.
      expect(
        () => z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'throw', cycles: 'ref' }),
        `${io} schema`,
      ).not.toThrow();
    }
  });

  it('declares only error codes from the one catalog', () => {
    const unknown = action.errors.filter((c) => !(c in ERROR_CATALOG));
    expect(unknown).toEqual([]);
  });

  it('is reachable the way its kind says: resources by HTTP route, procedures by tRPC path', () => {
    if (action.kind === 'resource') {
      expect(action.http, 'resource actions need http').toBeDefined();
      expect(action.http!.path.startsWith('/')).toBe(true);
      expect(action.trpcPath).toBeUndefined();
    } else if (action.kind === 'procedure') {
      expect(action.trpcPath).toBe(`${action.domain}.${camelCase(name)}`);
      expect(action.http).toBeUndefined();
    } else {
      expect(action.http).toBeUndefined();
      expect(action.trpcPath).toBeUndefined();
    }
  });

  it('is consequential exactly when it writes', () => {
    expect(['query', 'mutation']).toContain(action.effect);
    expect(action.consequential).toBe(action.effect === 'mutation');
  });

  it('has an example (when it has one) that its full input accepts', () => {
    if (!action.example) return;
    const parsed = action.fullInput.safeParse(action.example);
    expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
  });

  it('names ids only in fields invoke checks for ownership, or deliberately unchecked ones', () => {
    const idFields = [...propertyNames(standaloneJsonSchema(action.fullInput, 'input'))].filter((f) =>
      /(Id|Ids)$/.test(f),
    );
    const unchecked = idFields.filter((f) => !(f in ID_FIELDS) && !(f in UNCHECKED_ID_FIELDS));
    expect(
      unchecked,
      'add these to ID_FIELDS (src/core/entities.ts) or, with a reason, to UNCHECKED_ID_FIELDS',
    ).toEqual([]);
  });

  it('uses versioned/keyed only where they mean something', () => {
    if (action.versioned) {
      expect(action.effect).toBe('mutation');
      // 'studioId' names the caller's own studio, which invoke supplies; every other idField is an input field.
      if (action.versioned.idField !== 'studioId') {
        expect(action.fullInput.shape, `versioned idField ${action.versioned.idField}`).toHaveProperty(
          action.versioned.idField,
        );
      }
    }
    if (action.keyed) expect(action.effect).toBe('mutation');
  });
});

describe('the catalog as a whole', () => {
  it('has unique names', () => {
    const names = ACTIONS.map((a) => a.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it('gives no two actions the same HTTP method and path', () => {
    const routes = ACTIONS.filter((a) => a.http).map(
      (a) => `${a.http!.method} ${a.http!.path.replace(/\{\w+\}/g, '{}')}`,
    );
    expect(routes.filter((r, i) => routes.indexOf(r) !== i)).toEqual([]);
  });

  it('gives no two actions the same tRPC path', () => {
    const paths = ACTIONS.flatMap((a) => (a.trpcPath ? [a.trpcPath] : []));
    expect(paths.filter((p, i) => paths.indexOf(p) !== i)).toEqual([]);
  });

  it('is what generated/actions.json lists (run `npm run generate` after adding actions)', () => {
    const doc = JSON.parse(readFileSync(join(ROOT, 'generated/actions.json'), 'utf8')) as {
      actions: Array<{ name: string }>;
      counts: { total: number };
    };
    expect(doc.actions.map((a) => a.name).sort()).toEqual(ACTIONS.map((a) => a.name).sort());
    expect(doc.counts.total).toBe(ACTIONS.length);
  });

  it('keeps every allow-listed unchecked id field in use (stale entries are removed)', () => {
    const used = new Set(ACTIONS.flatMap((a) => [...propertyNames(standaloneJsonSchema(a.fullInput, 'input'))]));
    expect(Object.keys(UNCHECKED_ID_FIELDS).filter((f) => !used.has(f))).toEqual([]);
  });
});
