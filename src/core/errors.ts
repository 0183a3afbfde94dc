import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';

/**
 * The one error catalog. Every failure any surface reports is a `ServiceError` carrying one of these codes.
 * Status, tRPC code and the sentence a person can act on live here and nowhere else; the OpenAPI
 * `x-service-error-map`, docs/errors.md (both written by `npm run generate`) and the surfaces' envelopes are derived
 * from this object. `trpc` is the tRPC code whose HTTP status (tRPC's own table) is `status`, so the procedure API
 * answers with the same status as REST without patching it; test/contract/error-catalog.test.ts checks each pair.
 */
export const ERROR_CATALOG = {
  VALIDATION_FAILED: {
    status: 400,
    trpc: 'BAD_REQUEST',
    title: 'The request is not valid',
    sentence: 'Some input is malformed or out of range; fix the fields listed in errors[] and send the request again.',
  },
  IDEMPOTENCY_KEY_REQUIRED: {
    status: 400,
    trpc: 'BAD_REQUEST',
    title: 'An idempotency key is required',
    sentence: 'Creates need an Idempotency-Key header (a fresh UUID); send the request again with one.',
  },
  UNAUTHENTICATED: {
    status: 401,
    trpc: 'UNAUTHORIZED',
    title: 'Authentication is required',
    sentence: 'Send a valid API token as "Authorization: Bearer <token>"; create one with `studio token create`.',
  },
  FORBIDDEN: {
    status: 403,
    trpc: 'FORBIDDEN',
    title: 'Not allowed',
    sentence: 'Your role or token does not grant the permission this needs; ask a studio admin for access.',
  },
  CONFIRMATION_DECLINED: {
    status: 403,
    trpc: 'FORBIDDEN',
    title: 'The person did not confirm',
    sentence:
      'The person was asked to confirm this act and did not agree, so nothing changed; do not repeat it unless they ask you to.',
  },
  VERIFICATION_FAILED: {
    status: 403,
    trpc: 'FORBIDDEN',
    title: 'The verification code is not right',
    sentence:
      'That code is wrong, expired or already used (triesLeft says how many wrong tries remain): check the latest email and send its code, or call without verificationCode for a new one.',
  },
  NOT_FOUND: {
    status: 404,
    trpc: 'NOT_FOUND',
    title: 'Not found',
    sentence:
      'Nothing with that id exists here; check the ids in the path and that the record belongs to this project.',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    trpc: 'METHOD_NOT_SUPPORTED',
    title: 'Method not allowed',
    sentence: 'This path does not accept that HTTP method; see the Allow header or the API documentation.',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    trpc: 'TIMEOUT',
    title: 'The request took too long to arrive',
    sentence:
      'The server stopped waiting for the rest of the request; send the headers and body promptly, in one go, and retry.',
  },
  VERSION_CONFLICT: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'The record has changed',
    sentence:
      'Someone changed this record since you read it; read it again, reapply your change and report, never replay blindly.',
  },
  ALREADY_ARCHIVED: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'Already archived',
    sentence: 'This record is already archived; restore it first if it should change again.',
  },
  ARCHIVED: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'The record is archived',
    sentence: 'Archived records cannot be changed; restore the record first.',
  },
  NOT_ARCHIVED: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'Not archived',
    sentence: 'Only archived records can be restored; this one is active.',
  },
  SNAPSHOT_CHANGED: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'The snapshot changed',
    sentence: 'The data changed since the first page was read; start a fresh read instead of combining versions.',
  },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'The first request with this key is still running',
    sentence:
      'A request with this idempotency key is still being processed; wait a moment and retry with the same key.',
  },
  SECTION_NOT_EMPTY: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'The section still holds lines',
    sentence: 'Only an empty section can be archived; move or archive its active lines first.',
  },
  GRANT_EXISTS: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'The member already has access',
    sentence: 'This member already holds a grant on the project; change its level with update_project_grant.',
  },
  IMPORT_WRONG_STATE: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'The import is not at that stage',
    sentence:
      'The import has moved past this step (or not reached it yet); read it (get_schedule_import) and take the step its status allows.',
  },
  ALREADY_MEMBER: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'Already a member',
    sentence:
      'This person is already an active member of the studio; change their role with update_member_role instead of inviting them.',
  },
  INVITATION_PENDING: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'An invitation is already waiting',
    sentence:
      'This address already has a pending invitation to the studio; send it again with resend_invitation, or revoke it first.',
  },
  INVITATION_CLOSED: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'The invitation is closed',
    sentence:
      'This invitation was accepted or revoked and cannot change; create a new invitation, or manage the member it made.',
  },
  OWNERSHIP_TRANSFER_REQUIRED: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'The studio must keep its owner',
    sentence:
      'A studio always has exactly one owner, who cannot leave, be removed or change role; the owner first hands the studio to another member with transfer_studio_ownership.',
  },
  CHARGE_INVOICED: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'The charge has been invoiced',
    sentence:
      'This charge is on an invoice, so it can no longer change or be archived; to bill more raise a new charge (create_project_charge), to bill less raise a credit note in the accounting system.',
  },
  ENQUIRY_WRONG_STATE: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'The enquiry is not at that stage',
    sentence:
      'The enquiry (or its response) has moved past this step, or not reached it yet; read it (get_enquiry) and take the step its state allows.',
  },
  REVISION_SUPERSEDED: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'The revision is no longer the one on offer',
    sentence:
      'A later revision superseded this one, or the estimate was voided; read the estimate again and decide on its current revision.',
  },
  REVISION_EXPIRED: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'The revision has expired',
    sentence:
      'The offer was valid until a date that has passed; the studio issues a new revision (issue_estimate_revision) before it can be decided.',
  },
  REVISION_DIGEST_MISMATCH: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'The digest does not match the revision',
    sentence:
      "The digest sent is not the revision's; read the revision again (its digest is in the answer) and decide on what it says.",
  },
  REVISION_ALREADY_DECIDED: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'The revision is already decided',
    sentence:
      'A decision on this revision was already recorded and never changes; read it with get_estimate_revision, or start again with duplicate_estimate.',
  },
  ESTIMATE_CLOSED: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'The estimate is closed',
    sentence:
      'This estimate was decided or voided, so its draft no longer changes; duplicate_estimate starts a new draft from it.',
  },
  PURCHASE_ORDER_WRONG_STATE: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'The purchase order does not allow that now',
    sentence:
      'The purchase order is not in a state that allows this (a draft not yet issued, deliveries begun, delivered or cancelled); read it (get_purchase_order) and take the step its state allows.',
  },
  OVER_RECEIVED: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'More received than is still to come',
    sentence:
      'A line would receive more than was ordered less what it already received; read the order (get_purchase_order) and record what is still outstanding at most.',
  },
  ALREADY_INVOICED: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'Already invoiced',
    sentence:
      'What you asked to bill is already on an invoice pushed to the accounting system, so it is not billed twice; list_accounting_sync_events names that invoice.',
  },
  ACCOUNTING_NOT_CONNECTED: {
    status: 409,
    trpc: 'CONFLICT',
    title: 'Accounting is not connected',
    sentence:
      'The studio has no working Xero connection (never connected, disconnected, or Xero refused its tokens); connect_accounting and open the link it answers, then try again.',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    trpc: 'PAYLOAD_TOO_LARGE',
    title: 'The request body is too large',
    sentence: 'The body exceeds the size limit for this endpoint; send less data or split it into several requests.',
  },
  STORAGE_QUOTA_EXCEEDED: {
    status: 413,
    trpc: 'PAYLOAD_TOO_LARGE',
    title: "The studio's storage is full",
    sentence:
      "The studio's files would pass its storage quota, so nothing was kept; remove photographs or cancel imports it no longer needs (get_studio_usage shows the figure), or ask whoever runs the server to raise STUDIO_STORAGE_QUOTA_BYTES, then send it again.",
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    trpc: 'UNSUPPORTED_MEDIA_TYPE',
    title: 'Unsupported media type',
    sentence:
      'Send the body as application/json (application/merge-patch+json for updates); photographs as JPEG, PNG, WebP, HEIC or AVIF.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    trpc: 'UNPROCESSABLE_CONTENT',
    title: 'The idempotency key was used for other input',
    sentence: 'This idempotency key was already used with different input; use a new key for a new request.',
  },
  IMAGE_TOO_LARGE: {
    status: 422,
    trpc: 'UNPROCESSABLE_CONTENT',
    title: 'The image has too many pixels',
    sentence:
      'The image is larger in pixels than a photograph is kept at; resize it (24 megapixels is plenty) and send it again.',
  },
  IMAGE_UNREADABLE: {
    status: 422,
    trpc: 'UNPROCESSABLE_CONTENT',
    title: 'The image cannot be decoded',
    sentence: 'The file is damaged or incomplete; send the original photograph again.',
  },
  IMPORT_UNREADABLE: {
    status: 422,
    trpc: 'UNPROCESSABLE_CONTENT',
    title: 'The file cannot be read as a spreadsheet',
    sentence:
      'Send a CSV file or an Excel workbook (.xlsx) with a row of headings; an old .xls, a damaged or an empty file is refused.',
  },
  IMPORT_HAS_ERRORS: {
    status: 422,
    trpc: 'UNPROCESSABLE_CONTENT',
    title: 'Some rows cannot become lines',
    sentence:
      'Some cells cannot be read (see errors[] for row and column); fix them and upload again, change the mapping, or commit with skipRowsWithErrors.',
  },
  ESTIMATE_INCOMPLETE: {
    status: 422,
    trpc: 'UNPROCESSABLE_CONTENT',
    title: 'The estimate cannot be issued yet',
    sentence:
      'Some pieces it offers have no set client price (or it offers none); set their prices or mark them excludedFromTotal with update_estimate_draft, then issue again.',
  },
  PRECONDITION_REQUIRED: {
    status: 428,
    trpc: 'PRECONDITION_REQUIRED',
    title: 'A version is required',
    sentence:
      'Writes to an existing record need its current version: send the ETag from your last read in If-Match (expectedVersion in the procedure API).',
  },
  CONFIRMATION_REQUIRED: {
    status: 428,
    trpc: 'PRECONDITION_REQUIRED',
    title: 'Confirmation is required',
    sentence:
      "This act needs the person's own agreement: ask them, and only once they agree repeat it with confirm set to true.",
  },
  VERIFICATION_REQUIRED: {
    status: 428,
    trpc: 'PRECONDITION_REQUIRED',
    title: 'The client must verify their email first',
    sentence:
      "A 6-digit code was emailed to the link's recipient (sentTo shows the address, masked): ask them for it, then send the same call again with verificationCode.",
  },
  VERIFICATION_LIMITED: {
    status: 429,
    trpc: 'TOO_MANY_REQUESTS',
    title: 'Too many verification codes or wrong tries',
    sentence:
      'This link has had too many codes or wrong tries in the last 24 hours; try again later (retryAfter), or ask the studio to record the decision themselves.',
  },
  INTERNAL: {
    status: 500,
    trpc: 'INTERNAL_SERVER_ERROR',
    title: 'Internal error',
    sentence:
      'Something went wrong on our side and nothing was changed; retry later and quote the requestId if it persists.',
  },
  DELIVERY_FAILED: {
    status: 502,
    trpc: 'BAD_GATEWAY',
    title: 'The mail server refused the message',
    sentence:
      "The mail server did not take the email; check the recipient's address (the delivery's error says what the server answered) and deliver it again.",
  },
  ACCOUNTING_PROVIDER_FAILED: {
    status: 502,
    trpc: 'BAD_GATEWAY',
    title: 'Xero did not answer as expected',
    sentence:
      'Xero refused or failed the request (its answer is in the detail); nothing was changed here. Try again in a few minutes.',
  },
  OPERATION_INTERRUPTED: {
    status: 503,
    trpc: 'SERVICE_UNAVAILABLE',
    title: 'The operation was interrupted',
    sentence:
      'The server stopped while working on this operation, more than once; nothing of it was applied. Start it again.',
  },
  SERVER_BUSY: {
    status: 503,
    trpc: 'SERVICE_UNAVAILABLE',
    title: 'The server is busy',
    sentence:
      'Too many requests with a body are being received at once; wait a moment (see Retry-After) and send it again.',
  },
  DELIVERY_NOT_CONFIGURED: {
    status: 503,
    trpc: 'SERVICE_UNAVAILABLE',
    title: 'Email delivery is not configured',
    sentence:
      'This server sends no email until STUDIO_SMTP_URL and STUDIO_MAIL_FROM are set; download the document instead (download_document) and send the link yourself.',
  },
  ACCOUNTING_NOT_CONFIGURED: {
    status: 503,
    trpc: 'SERVICE_UNAVAILABLE',
    title: 'Accounting is not configured',
    sentence:
      'This server has no Xero app registration until STUDIO_XERO_CLIENT_ID and STUDIO_XERO_CLIENT_SECRET are set; ask whoever runs the server to set them, then connect_accounting again.',
  },
} as const satisfies Record<string, { status: number; trpc: TRPC_ERROR_CODE_KEY; title: string; sentence: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;
export const ERROR_CODES = Object.keys(ERROR_CATALOG) as ErrorCode[];

/** Errors every action can raise, whatever it declares (authentication, input, limits, failures). */
export const UNIVERSAL_ERRORS: readonly ErrorCode[] = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'PAYLOAD_TOO_LARGE',
  'INTERNAL',
];

export interface FieldProblem {
  /** JSON pointer-ish dotted path of the offending field, e.g. `quantity.amount4`. */
  path: string;
  message: string;
}

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly detail: string;
  readonly errors?: FieldProblem[];
  /** Extra machine-readable facts safe to show, e.g. the current version on a conflict. */
  readonly extra?: Record<string, string | number>;

  constructor(
    code: ErrorCode,
    detail?: string,
    opts: { errors?: FieldProblem[]; extra?: Record<string, string | number> } = {},
  ) {
    super(detail ?? ERROR_CATALOG[code].sentence);
    this.name = 'ServiceError';
    this.code = code;
    this.detail = detail ?? ERROR_CATALOG[code].sentence;
    this.errors = opts.errors;
    this.extra = opts.extra;
  }

  get status(): number {
    return ERROR_CATALOG[this.code].status;
  }
}

/**
 * A write's refusal whose writes stand: thrown by a handler, it commits what the handler wrote and then answers its
 * `refusal`, where any other error undoes everything. For refusals that are themselves an act: a one-time code sent
 * (the code and its email must exist, yet the call is not done), a wrong try counted against the limit.
 */
export class StandingRefusal extends Error {
  constructor(readonly refusal: ServiceError) {
    super(refusal.detail);
    this.name = 'StandingRefusal';
  }
}

/** Any thrown value as a ServiceError; unknown failures become INTERNAL without leaking their message. */
export function toServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  if (err instanceof StandingRefusal) return err.refusal;
  return new ServiceError('INTERNAL');
}

/** The body every surface shares; REST wraps it as problem+json, tRPC as its envelope, MCP as an isError result. */
export function problemBody(err: ServiceError, requestId: string) {
  const meta = ERROR_CATALOG[err.code];
  return {
    type: `/docs/errors#${err.code}`,
    title: meta.title,
    status: meta.status,
    code: err.code,
    detail: err.detail,
    requestId,
    ...(err.errors ? { errors: err.errors } : {}),
    ...(err.extra ? err.extra : {}),
  };
}
