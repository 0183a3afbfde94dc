import { type ERROR_CATALOG, type ErrorCode, type FieldProblem, toServiceError } from '../../core/errors.js';
import type { NextCall } from './next-call.js';

/** What an agent should do next for each failure, so a tool error is never a dead end. */
const NEXT_STEP: Partial<Record<keyof typeof ERROR_CATALOG, string>> = {
  VERSION_CONFLICT:
    'Read the record again (get_line for a line), show the person what changed, and only then retry with the new etag (expectedVersion inside input for a procedure). Do not replay automatically.',
  PRECONDITION_REQUIRED:
    'Read the record first and send its etag as ifMatch (a procedure: its version as expectedVersion inside input).',
  NOT_FOUND: 'Check the ids and names: list_projects and list_lines give valid ids, search_actions gives action names.',
  SNAPSHOT_CHANGED:
    'Start again: repeat the first read without snapshot, path or offset, and do not combine its pages with older ones.',
  METHOD_NOT_ALLOWED: 'Only reads are paged; for a write, read the changed records with the matching read action.',
  VALIDATION_FAILED: 'Fix the arguments named in errors[]; get_action shows the exact input schema.',
  FORBIDDEN: 'Tell the person this needs more access; do not retry.',
  UNAUTHENTICATED: 'The server token is missing or revoked; the person must configure STUDIO_TOKEN.',
  IDEMPOTENCY_KEY_REQUIRED:
    'Send the call again with a fresh UUID as its key: idempotencyKey for a resource action, commandKey inside input for a procedure.',
  IDEMPOTENCY_KEY_REUSED: 'A different request needs a new key: send it with a fresh UUID.',
  IDEMPOTENCY_IN_PROGRESS: 'Wait a second, then send the same call with the same key.',
  ALREADY_ARCHIVED: 'Nothing to do: it is archived already.',
  CONFIRMATION_REQUIRED:
    'Put the question in the message to the person in so many words and wait for their answer; only if they agree, repeat the same call with confirm: true.',
  CONFIRMATION_DECLINED:
    'The person was asked and did not agree: tell them nothing changed and do not repeat the call (confirm: true does not replace their answer) unless they ask you to.',
  ARCHIVED: 'Restore the record first (restore_* actions), or tell the person it is archived.',
  OWNERSHIP_TRANSFER_REQUIRED:
    "Tell the person the owner must first hand the studio on (transfer_studio_ownership, the owner's own act); do not retry.",
  ALREADY_MEMBER: 'Nothing to invite: list_studio_members shows them; change their role with update_member_role.',
  INVITATION_PENDING:
    'Find it with list_invitations (email filter) and resend_invitation it rather than inviting again.',
  INVITATION_CLOSED: 'Create a new invitation (create_invitation), or manage the member it made (list_studio_members).',
  VERIFICATION_LIMITED:
    'Tell the person this link takes no more codes for now (retryAfter); the studio can record their decision itself (record_estimate_decision). Do not retry.',
};

/**
 * The text a model reads: the code, the sentence, every field problem of errors[] (a client that shows only the text
 * must still see the real mistake), the next step, and the call that takes it when there is one.
 */
function textOf(code: string, detail: string, errors: readonly FieldProblem[] | undefined, next: NextStep | undefined) {
  const more = (errors ?? []).map((e) => `${e.path}: ${e.message}`).filter((e) => !detail.includes(e));
  const fields = more.length ? ` Also: ${more.join(' | ')}` : '';
  const call = next?.call ? ` nextCall: ${JSON.stringify(next.call)}` : '';
  return `${code}: ${detail}${fields}${next ? ` Next: ${next.says}${call}` : ''}`;
}

interface NextStep {
  says: string;
  call?: NextCall;
}

/**
 * A failure as an MCP tool result: `isError`, the stable code, the sentence, and the next step; where the next step is
 * a call (`hint`: read the record again, repeat with a fresh key), `nextCall` holds it exactly as it can be sent.
 */
export function toolError(
  err: unknown,
  requestId: string,
  hint?: (code: ErrorCode) => { call: NextCall; says: string } | undefined,
) {
  const se = toServiceError(err);
  const fixed = NEXT_STEP[se.code];
  const next: NextStep | undefined = hint?.(se.code) ?? (fixed ? { says: fixed } : undefined);
  const body = {
    code: se.code,
    message: se.detail,
    ...(next ? { nextStep: next.says } : {}),
    ...(next?.call ? { nextCall: next.call } : {}),
    ...(se.errors ? { errors: se.errors } : {}),
    ...(se.extra ?? {}),
    requestId,
  };
  return {
    isError: true,
    content: [{ type: 'text' as const, text: textOf(se.code, se.detail, se.errors, next) }],
    structuredContent: body,
  };
}
