import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

/**
 * OAuth's own error vocabulary (RFC 6749 §4.1.2.1 and §5.2, RFC 7591 §3.2.2, RFC 8707 §2): the SDK's error classes,
 * each with its standard `error` code, plus the one it lacks. Every refusal of the authorization server is one of
 * these, answered as `{ "error": code, "error_description": sentence }`: never a stack trace, never the service's own
 * error catalog, which is for the APIs behind the tokens.
 */
export {
  AccessDeniedError,
  InvalidClientError,
  InvalidClientMetadataError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  OAuthError,
  ServerError,
  TooManyRequestsError,
  UnsupportedGrantTypeError,
  UnsupportedResponseTypeError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';

/** RFC 7591 §3.2.2: a registration whose redirect URIs this server will not send codes to. */
export class InvalidRedirectUriError extends OAuthError {
  static override errorCode = 'invalid_redirect_uri';
}
