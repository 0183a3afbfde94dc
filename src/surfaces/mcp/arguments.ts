import type { AnyAction } from '../../core/define-action.js';
import { ServiceError } from '../../core/errors.js';

/** At most 40 code points of a field name the caller sent (never half a surrogate pair). */
const clip = (name: string) => {
  const points = [...name];
  return points.length > 40 ? `${points.slice(0, 40).join('')}…` : name;
};
/** Field names as a message lists them: each once, at most 20, none longer than 40 characters. */
const fieldList = (names: string[]) => {
  const unique = [...new Set(names)];
  return unique.slice(0, 20).map(clip).join(', ') + (unique.length > 20 ? ', …' : '');
};

/**
 * call_action's `arguments` as the action's input: a procedure's input is wrapped in `input`, every other action takes
 * its fields at the top level. The two mix-ups are refused by name, with the call to make instead, rather than as the
 * missing fields they would otherwise look like.
 */
export function inputOf(action: AnyAction, args: Record<string, unknown> | undefined): unknown {
  const sent = args ?? {};
  if (action.kind === 'procedure') {
    const outside = Object.keys(sent).filter((k) => k !== 'input');
    if (outside.length) {
      const inside = Object.hasOwn(sent, 'input') && sent.input && typeof sent.input === 'object' ? sent.input : {};
      const fields = fieldList([...Object.keys(inside), ...outside]);
      throw new ServiceError(
        'VALIDATION_FAILED',
        `${action.name} is a procedure: wrap these fields in input, i.e. send arguments: { input: { ${fields} } }.`,
        {
          errors: outside
            .slice(0, 20)
            .map((k) => ({ path: clip(k), message: 'Outside input: procedures take every field inside input.' })),
        },
      );
    }
    return sent.input ?? {};
  }
  if (Object.hasOwn(sent, 'input') && !Object.hasOwn(action.fullInput.shape, 'input')) {
    const wrapped = sent.input && typeof sent.input === 'object' ? Object.keys(sent.input) : [];
    const fields = fieldList([...wrapped, ...Object.keys(sent).filter((k) => k !== 'input')]);
    throw new ServiceError(
      'VALIDATION_FAILED',
      `${action.name} takes its fields at the top level, not wrapped in input: send arguments: { ${fields || '…'} }.`,
      {
        errors: [
          { path: 'input', message: 'Unknown field: this action takes its fields at the top level; unwrap them.' },
        ],
      },
    );
  }
  return sent;
}

/**
 * call_action and read_action_result take the action's own fields inside `arguments`. An agent that puts them beside
 * `name` (or under `input`, `args`, `params`) is told the exact call to make, not only that a field is unknown.
 */
export function refuseMisplacedArguments(
  tool: string,
  args: Record<string, unknown> | undefined,
  own: ReadonlySet<string>,
  byName: ReadonlyMap<string, AnyAction>,
) {
  const sent = args ?? {};
  const beside = Object.keys(sent).filter((k) => !own.has(k));
  if (!beside.length) return;
  const action = typeof sent.name === 'string' ? byName.get(sent.name) : undefined;
  const wrapper = beside.length === 1 && /^(input|args|params|parameters)$/.test(beside[0]!) ? beside[0]! : undefined;
  const value = wrapper ? sent[wrapper] : undefined;
  const fields = fieldList(value && typeof value === 'object' ? Object.keys(value) : beside);
  const inner = action?.kind === 'procedure' ? `{ input: { ${fields} } }` : `{ ${fields} }`;
  throw new ServiceError(
    'VALIDATION_FAILED',
    `${tool} takes the action's fields inside arguments, not beside name: send { name: ${JSON.stringify(sent.name ?? '…')}, arguments: ${inner} }.`,
    {
      errors: beside
        .slice(0, 20)
        .map((k) => ({ path: clip(k), message: `Not a field of ${tool}: move it inside arguments.` })),
    },
  );
}
