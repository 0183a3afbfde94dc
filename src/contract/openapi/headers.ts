import type { HeaderObject } from 'openapi3-ts/oas31';

/** Response headers, each described once. */
export const HEADERS = {
  etagVersion: {
    required: true,
    description:
      'The record\'s version and a digest of this body, quoted ("4-1c9e0a7b"; a line\'s adds a digest of its ordering, "4-1c9e0a7b-5d2e81aa", which If-Match does not compare): send it back as If-Match to change the record, or as If-None-Match to read it again.',
    schema: { type: 'string', pattern: '^"[0-9]+-[0-9a-f]+(-[0-9a-f]+)?"$' },
  },
  etagContent: {
    required: true,
    description: 'A digest of this representation, quoted: send it back as If-None-Match to read it again.',
    schema: { type: 'string', pattern: '^"[0-9a-z]+"$' },
  },
  etagMedia: {
    required: true,
    description:
      'A strong validator naming exactly this answer (the record, or with ?variant= the bytes), for If-None-Match.',
    schema: { type: 'string', pattern: '^"[^"]+"$' },
  },
  location: {
    required: true,
    description: 'The path of what was made, under /v1: read it there.',
    schema: { type: 'string', format: 'uri-reference' },
  },
  wwwAuthenticate: {
    required: true,
    description: 'RFC 6750: `Bearer realm="studio"`, with error="invalid_token" when a token was sent and refused.',
    schema: { type: 'string' },
  },
  allow: {
    required: true,
    description: 'The methods this path serves, comma-separated (HEAD wherever GET is).',
    schema: { type: 'string' },
  },
  retryAfter: {
    required: true,
    description: 'Seconds to wait before sending the request again.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  pollAfter: {
    required: false,
    description: 'Sent while the operation is queued or running: seconds to wait before polling again.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  operationLocation: {
    required: true,
    description: 'Where to poll the operation: /v1/operations/{opId} (get_operation).',
    schema: { type: 'string', format: 'uri-reference' },
  },
} satisfies Record<string, HeaderObject>;
