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
import { walkSchema } from '../../src/core/schema-marks.js';
import { STUDIO_PERMISSIONS } from '../../src/core/permissions.js';
import { standaloneJsonSchema, toJsonSchema } from '../../src/contract/json-schema.js';
import { FILE_FIELD } from '../../src/surfaces/mcp/request-body.js';
import { fileFields } from '../../src/surfaces/mcp/uploads.js';
import { ROOT } from '../helpers/server.js';
import { propertiesAnywhere } from '../helpers/json-keys.js';

/**
 * Input fields that take an id but deliberately are NOT references `invoke` checks for ownership (not marked with
 * `Ref`). Each entry says why; adding one is a decision, not a way to silence the test.
 */
const UNCHECKED_ID_FIELDS: Record<string, string> = {
  // list_audit_events filter: names a record of any kind (line, section, project …). The feed is already bounded to
  // the caller's studio and project, so an unknown or foreign id simply matches no events; nothing is revealed.
  targetId: 'audit feed filter over records of any kind',
};

const SCOPES = new Set<string>([...STUDIO_PERMISSIONS, 'member', 'capability']);
const NAME = /^[a-z]+(_[a-z0-9]+)+$/;

/** Names of the properties anywhere in a JSON Schema whose value is an id (`$ref: Id`, alone, nullable or in arrays). */
function idPropertyNames(schema: unknown, out = new Set<string>()): Set<string> {
  const isId = (v: unknown): boolean => {
    if (!v || typeof v !== 'object') return false;
    const o = v as Record<string, unknown>;
    if (o.$ref === '#/$defs/Id') return true;
    if (Array.isArray(o.anyOf)) return o.anyOf.some(isId);
    return o.type === 'array' && isId(o.items);
  };
  if (Array.isArray(schema)) for (const s of schema) idPropertyNames(s, out);
  else if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      if (k === 'properties' && v && typeof v === 'object') {
        for (const [name, prop] of Object.entries(v)) if (isId(prop)) out.add(name);
      }
      idPropertyNames(v, out);
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

  it('declares how its capability opens exactly when its scope is capability, on a string field of its input', () => {
    expect(action.capability !== undefined, 'scope capability ⇔ a capability binding').toBe(
      action.scope === 'capability',
    );
    if (action.capability) {
      expect(action.fullInput.shape).toHaveProperty(action.capability.field);
      expect(action.fullInput.shape[action.capability.field]).toBeInstanceOf(z.ZodString);
    }
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

  it('takes ids only in fields declared as references (Ref), or deliberately unchecked ones', () => {
    const referenced = new Set(action.plan.refs.map((r) => r.path.filter((step) => step !== '*').at(-1)));
    const idFields = [...idPropertyNames(standaloneJsonSchema(action.fullInput, 'input'))];
    // An action authorised by a capability (a share token) has no caller whose records a Ref could check: the ids it
    // takes are bounded by what the capability opens, and its handler refuses any other (decide_estimate: the link's
    // one revision, and that revision's pieces).
    const capabilityBound = action.scope === 'capability';
    const unchecked = idFields.filter((f) => !referenced.has(f) && !(f in UNCHECKED_ID_FIELDS) && !capabilityBound);
    expect(
      unchecked,
      'declare these with Ref(ENTITY) (actions/shared/refs.ts) or, with a reason, in UNCHECKED_ID_FIELDS',
    ).toEqual([]);
  });

  it('declares every amount of money in its output as priced or public', () => {
    const bare: string[] = [];
    walkSchema(
      action.output,
      () => undefined,
      (path, cover) => {
        if (!cover) bare.push(path.join('.') || '(output)');
      },
    );
    expect(bare, 'wrap these in priced(…) (withheld without pricing:read) or publicMoney(…)').toEqual([]);
  });

  it('takes a sort with every cursor, as every collection must (seed: cursor, limit, sort and named filters)', () => {
    const shape = action.fullInput.shape as Record<string, unknown>;
    if ('cursor' in shape) expect(shape, 'add sort: z.enum(namedSorts(...) names)').toHaveProperty('sort');
  });

  it('uses versioned/keyed only where they mean something', () => {
    if (action.versioned) {
      expect(action.effect).toBe('mutation');
      // 'studioId' names the caller's own studio, which invoke supplies; every other idField is an input field. A
      // record no single id names reads its version itself (versionOf).
      const versioning = action.versioned;
      if ('idField' in versioning && versioning.idField !== 'studioId') {
        expect(action.fullInput.shape, `versioned idField ${versioning.idField}`).toHaveProperty(versioning.idField);
      }
    }
    if (action.keyed) expect(action.effect).toBe('mutation');
  });
});

const twins = ACTIONS.filter((a) => a.twinOf).map((a) => [a.name, a] as [string, AnyAction]);

describe.each(twins)('resource %s and its procedure twin', (_name, resource) => {
  const procedure = ACTIONS.find((a) => a.name === resource.twinOf)!;

  it('binds a procedure of the catalog', () => {
    expect(procedure?.kind).toBe('procedure');
  });

  it('shares its scope, guards, output, errors and effect', () => {
    expect(resource.scope).toBe(procedure.scope);
    expect(resource.guards).toBe(procedure.guards);
    expect(resource.output).toBe(procedure.output);
    expect(resource.errors).toBe(procedure.errors);
    expect(resource.effect).toBe(procedure.effect);
  });

  it('takes the same fields and filters, under the seed names, with the controls of its surface', () => {
    // The seed names two path parameters for what procedures call by the record's name.
    const SEED_PATH_NAMES: Record<string, string> = { itemId: 'lineId', opId: 'operationId' };
    const controls = new Set(['ifMatch', 'idempotencyKey', 'expectedVersion', 'commandKey']);
    const fieldsOf = (a: AnyAction) =>
      Object.entries(a.fullInput.shape as Record<string, z.ZodType>)
        .filter(([f]) => !controls.has(f))
        .flatMap(([f, schema]) => (f === 'patch' ? Object.keys((schema as z.ZodObject).shape) : [f]))
        .map((f) => SEED_PATH_NAMES[f] ?? f)
        .sort();
    expect(fieldsOf(resource)).toEqual(fieldsOf(procedure));
    for (const filter of resource.http?.filters ?? []) expect(resource.fullInput.shape).toHaveProperty(filter);
  });
});

/**
 * Mutations that name a project but may run while it is archived: its own lifecycle and who may reach it. Every other
 * write under a project takes the frozenWhenArchived guard; adding an entry here is a decision, with its reason.
 */
const WRITABLE_WHEN_ARCHIVED: Record<string, string> = {
  archive_studio_project: 'the archival itself (a second one answers ALREADY_ARCHIVED)',
  restore_project: 'the way out of the archive',
  duplicate_project: 'copies the archived project into a new, active one',
  grant_project_access: 'who may read an archived project is still managed',
  update_project_grant: 'who may read an archived project is still managed',
  revoke_project_access: 'who may read an archived project is still managed',
  add_library_product: 'reads a line into studio reference data; the project does not change',
  create_template_from_project: 'reads the project into a studio template; the project does not change',
  revoke_project_share:
    "withdraws a link without changing the project; an archived job's links must still be stoppable",
};

describe('the archived-project freeze', () => {
  const writesUnderProjects = ACTIONS.filter(
    // A project the action only reads (a member's own layout of its schedule) is not written under.
    (a) => a.effect === 'mutation' && a.plan.refs.some((r) => r.entity.name === 'project' && !r.reads),
  );

  it.each(writesUnderProjects.map((a) => [a.name, a] as const))('%s is frozen or deliberately not', (name, a) => {
    const frozen = (a.guards ?? []).some((g) => g.name === 'frozenWhenArchived');
    expect(frozen, `${name}: add guards: [frozenWhenArchived] or list it in WRITABLE_WHEN_ARCHIVED with a reason`).toBe(
      !(name in WRITABLE_WHEN_ARCHIVED) && !(a.twinOf !== undefined && a.twinOf in WRITABLE_WHEN_ARCHIVED),
    );
  });

  it('lists no action that does not exist', () => {
    expect(Object.keys(WRITABLE_WHEN_ARCHIVED).filter((n) => !ACTIONS.some((a) => a.name === n))).toEqual([]);
  });
});

describe('the catalog as a whole', () => {
  it('takes a file only in data, and every data field is a file (an MCP body streams a long one to disk)', () => {
    const fields = fileFields(ACTIONS);
    const withData = ACTIONS.filter((a) => Object.hasOwn(a.fullInput.shape, FILE_FIELD)).map((a) => a.name);
    expect(withData).toContain('add_line_photograph');
    for (const name of withData) expect(fields.get(name), `${name}.${FILE_FIELD} is not a file field`).toBe(FILE_FIELD);
    for (const [name, field] of fields) expect(field, name).toBe(FILE_FIELD);
  });

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

  it('names every property in camelCase, but for the seed names archived_at and result_page', () => {
    // by_others: counts keyed by the ValueState members themselves (get_project_totals), spelled as the enum is.
    const SEED_NAMES = new Set(['archived_at', 'result_page', 'by_others']);
    const doc = JSON.parse(readFileSync(join(ROOT, 'generated/actions.json'), 'utf8'));
    const odd = [...propertiesAnywhere(doc)].filter((n) => !/^[a-z][a-zA-Z0-9]*$/.test(n) && !SEED_NAMES.has(n));
    expect(odd).toEqual([]);
  });

  it('keeps every allow-listed unchecked id field in use (stale entries are removed)', () => {
    const used = new Set(ACTIONS.flatMap((a) => [...propertiesAnywhere(standaloneJsonSchema(a.fullInput, 'input'))]));
    expect(Object.keys(UNCHECKED_ID_FIELDS).filter((f) => !used.has(f))).toEqual([]);
  });
});
