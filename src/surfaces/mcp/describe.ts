import type { AnyAction } from '../../core/define-action.js';
import { contractOf, identityOf, sortedDefs } from '../../contract/actions-json.js';
import { compactSchema } from './compact-schema.js';

type Schema = Record<string, unknown>;

/**
 * One action as get_action describes it, what a caller needs first (its arguments, a worked example, its errors)
 * before what it returns; its schemas refer to shared shapes as `#/$defs/<name>`, which come after every action.
 */
function describeOne(a: AnyAction, defs: Record<string, Schema>) {
  const { input, output, errors } = contractOf(a, defs);
  return {
    ...identityOf(a),
    writes: a.effect === 'mutation',
    ...(a.versioned ? { versioned: a.kind === 'resource' ? 'ifMatch' : 'expectedVersion' } : {}),
    ...(a.keyed ? { keyed: a.kind === 'resource' ? 'idempotencyKey' : 'commandKey' } : {}),
    // The person must agree: asked through the client where it supports elicitation, else confirm: true.
    ...(a.confirmation ? { confirmation: 'confirm' } : {}),
    // call_action's `arguments`: a procedure's input is wrapped in a field named `input`.
    arguments:
      a.kind === 'procedure'
        ? { type: 'object', properties: { input }, required: ['input'], additionalProperties: false }
        : input,
    example: a.kind === 'procedure' ? { input: a.example } : a.example,
    errors,
    // Last: a paged read of several actions answers how to call each before what each returns.
    output,
  };
}

export type ActionDescription = ReturnType<typeof describeOne>;

/**
 * What get_action returns: each action with everything needed to call it through call_action, and the shapes they
 * share (Line, Money …) once under `$defs`, so describing several related actions does not repeat them.
 */
export function describeActions(actions: readonly AnyAction[]): {
  actions: ActionDescription[];
  $defs?: Record<string, Schema>;
} {
  const defs: Record<string, Schema> = {};
  const described = actions.map((a) => describeOne(a, defs));
  const sorted = sortedDefs(defs);
  return compactSchema({ actions: described, ...(Object.keys(sorted).length ? { $defs: sorted } : {}) });
}

/** One action's call_action arguments as a self-contained JSON Schema (its `$defs` included). */
export function argumentsSchemaOf(a: AnyAction): Schema {
  const d = describeActions([a]);
  return { ...d.actions[0]!.arguments, ...(d.$defs ? { $defs: d.$defs } : {}) };
}
