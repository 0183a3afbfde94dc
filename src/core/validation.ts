import type { z } from 'zod';
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

export function parseInput<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  // reportInput lets messages name the type received; the value itself is never echoed back.
  const result = schema.safeParse(raw ?? {}, { reportInput: true });
  if (result.success) return result.data;
  const errors = fieldProblems(result.error);
  const first = errors[0];
  throw new ServiceError(
    'VALIDATION_FAILED',
    first ? `Invalid input at ${first.path}: ${first.message}` : 'The input is not valid.',
    { errors },
  );
}
