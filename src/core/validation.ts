import { z } from 'zod';
import { ServiceError, type FieldProblem } from './errors.js';

/** Zod issues as field problems a person can act on: the path and a plain sentence, never zod's internals. */
export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.slice(0, 20).map((issue) => {
    const path = issue.path.map(String).join('.') || '(input)';
    let message = issue.message;
    if (issue.code === 'unrecognized_keys')
      message = `Unknown field(s): ${issue.keys.join(', ')}. Remove them; see the action's input schema.`;
    else if (issue.code === 'invalid_type') {
      const got = (issue as { input?: unknown }).input;
      const last = String(issue.path.at(-1) ?? '');
      if (got === undefined) message = 'This field is required.';
      else if (typeof got === 'number' && (last === 'amount4' || last === 'ratio4')) {
        message = 'Amounts are scale-4 integers in a string, never JSON numbers: send "125000" for 12.5.';
      } else message = `Expected ${issue.expected}, got ${describe(got)}.`;
    }
    return { path, message };
  });
}

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** A lone UTF-16 surrogate (half of a pair without the other half), or NUL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this refuses.
const MALFORMED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/;

/** Whether text is well-formed Unicode without NUL: what every string of every input must be. */
export const isWellFormedText = (text: string): boolean => !MALFORMED.test(text);

/**
 * Every string of the input, and every key, must be well-formed Unicode without NUL. A lone surrogate cannot be stored
 * as sent (SQLite would keep U+FFFD), so the audit digest, computed over what was sent, would never verify again; NUL
 * ends a string early in SQL patterns (a search for it matched everything). Checked before anything is parsed,
 * hashed or stored, for every action.
 */
function malformedText(value: unknown, depth: number): FieldProblem | undefined {
  const found = malformedAt(value, depth);
  return found && { path: found.path.reverse().join('.') || '(input)', message: found.message };
}

const within = (problem: { path: string[]; message: string }, step: string) => {
  problem.path.push(step);
  return problem;
};

/**
 * The first malformed string or key under `value`, its path from the innermost step outwards: the path is made only
 * for what is refused, not for every field of every call.
 */
function malformedAt(value: unknown, depth: number): { path: string[]; message: string } | undefined {
  if (typeof value === 'string') {
    return MALFORMED.test(value)
      ? { path: [], message: 'Text must be well-formed Unicode without NUL (it holds a lone surrogate or NUL).' }
      : undefined;
  }
  if (depth > 32 || !value || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = malformedAt(value[i], depth + 1);
      if (problem) return within(problem, String(i));
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (MALFORMED.test(key)) return { path: ['(key)'], message: 'Field names must be well-formed Unicode.' };
    const problem = malformedAt((value as Record<string, unknown>)[key], depth + 1);
    if (problem) return within(problem, key);
  }
  return undefined;
}

/**
 * Each schema's compiled twin (zod's `compile`, made on its first parse): a function generated for the schema checks
 * a valid input (about a tenth of the runtime parser's time), and anything it does not accept goes to the runtime
 * parser, whose issues are the ones reported. The schema itself stays as declared (JSON Schema, marks, descriptions).
 */
const COMPILED = new WeakMap<z.ZodType, z.ZodType>();
function compiled<T extends z.ZodType>(schema: T): T {
  let twin = COMPILED.get(schema);
  if (!twin) COMPILED.set(schema, (twin = z.compile(schema)));
  return twin as T;
}

/**
 * Parses an action's input (or a surface's own arguments) into a field-by-field VALIDATION_FAILED. `checkText: false`
 * is for envelopes that carry an action's input inside them (MCP call_action): `invoke` checks that input itself, so
 * a problem is named by the action's own field path.
 */
export function parseInput<T extends z.ZodType>(
  schema: T,
  raw: unknown,
  opts: { checkText?: boolean } = {},
): z.output<T> {
  const text = opts.checkText === false ? undefined : malformedText(raw, 0);
  if (text)
    throw new ServiceError('VALIDATION_FAILED', `Invalid input at ${text.path}: ${text.message}`, { errors: [text] });
  // reportInput lets messages name the type received; the value itself is never echoed back.
  const result = compiled(schema).safeParse(raw ?? {}, { reportInput: true });
  if (result.success) return result.data;
  const errors = fieldProblems(result.error);
  const first = errors[0];
  throw new ServiceError(
    'VALIDATION_FAILED',
    first ? `Invalid input at ${first.path}: ${first.message}` : 'The input is not valid.',
    { errors },
  );
}
