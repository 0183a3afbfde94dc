import type { AnyAction } from '../../core/define-action.js';
import { allErrorsOf } from '../../core/action-errors.js';
import { standaloneJsonSchema } from '../json-schema.js';

/** What get_action returns for one action: everything needed to call it through call_action. */
export function describeAction(a: AnyAction) {
  const input = standaloneJsonSchema(a.fullInput, 'input');
  return {
    name: a.name,
    kind: a.kind,
    domain: a.domain,
    summary: a.summary,
    description: a.description,
    scope: a.scope,
    writes: a.effect === 'mutation',
    // call_action wraps a procedure's input in a field named `input`.
    callArguments: a.kind === 'procedure' ? { type: 'object', properties: { input }, required: ['input'], additionalProperties: false } : input,
    output: standaloneJsonSchema(a.output, 'output'),
    errors: [...allErrorsOf(a)].sort(),
    ...(a.example ? { example: a.kind === 'procedure' ? { input: a.example } : a.example } : {}),
  };
}
