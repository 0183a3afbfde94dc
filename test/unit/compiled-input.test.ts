/**
 * `parseInput` checks every input with zod's compiled twin of the action's schema (src/core/validation.ts), which
 * hands anything it does not accept to the runtime parser. Whatever the input, the twin must answer exactly what the
 * declared schema answers: the same parsed value, or the same issues. Checked for every action's input schema, on its
 * example and on the example with each field replaced by arbitrary JSON.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { ACTIONS } from '../../actions/index.js';

const answer = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input, { reportInput: true });
  return r.success
    ? { ok: true, data: r.data }
    : { ok: false, issues: r.error.issues.map((i) => ({ code: i.code, path: i.path, message: i.message })) };
};

const json = fc.jsonValue({ maxDepth: 2 });

describe("an action's compiled input check answers what its schema answers", () => {
  it('for every action, on its example and on the example with any field replaced', () => {
    let compared = 0;
    for (const action of ACTIONS) {
      const schema = action.fullInput;
      const twin = z.compile(schema);
      const example = (action.example ?? {}) as Record<string, unknown>;
      expect(answer(twin, example), action.name).toEqual(answer(schema, example));
      const fields = [...Object.keys((schema as z.ZodObject).shape ?? {}), 'unknownField'];
      fc.assert(
        fc.property(fc.constantFrom(...fields), json, (field, value) => {
          const input = { ...example, [field]: value };
          expect(answer(twin, input), `${action.name}.${field}`).toEqual(answer(schema, input));
          compared++;
        }),
        { numRuns: 12 },
      );
    }
    expect(compared).toBeGreaterThan(ACTIONS.length * 10);
  });
});
