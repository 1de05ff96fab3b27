// How a service renders errors on the wire. The crypto spec fixes `{message, errors?}`; bnpl and photos share
// the `{"error": {...}}` envelope. Both keep the same statuses and headers so only the body shape differs.
import { STATUS_CODES } from 'node:http';
import {
  BusinessRuleError,
  ForbiddenError,
  HttpClientError,
  MethodNotAllowedError,
  RateLimitedError,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
  ValidationError,
  type DomainError,
  type DomainErrorKind,
  type FieldErrors,
} from './domain-errors.js';

export interface RenderedError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface ErrorFormat {
  render(error: DomainError): RenderedError;
}

export const errorStatus: Record<DomainErrorKind, number> = {
  validation: 422,
  authentication: 401,
  forbidden: 403,
  not_found: 404,
  business_rule: 422,
  conflict: 409,
  rate_limited: 429,
  malformed_request: 400,
  malformed_json: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  route_not_found: 404,
  method_not_allowed: 405,
  // Nominal: an HttpClientError carries its own 4xx (statusOf).
  http_client_error: 400,
  unavailable: 503,
  internal: 500,
};

/** The HTTP status an error renders with. */
export function statusOf(error: DomainError): number {
  return error instanceof HttpClientError ? error.status : errorStatus[error.kind];
}

/** `Range Not Satisfiable.` for 416: what a client reads for an HttpClientError. */
function httpClientErrorMessage(error: HttpClientError): string {
  return `${STATUS_CODES[error.status] ?? 'Client Error'}.`;
}

export type ErrorMessages = Partial<Record<DomainErrorKind, string>>;

const standardMessages: Record<DomainErrorKind, string> = {
  validation: 'The given data was invalid.',
  authentication: 'Unauthenticated.',
  forbidden: 'This action is unauthorized.',
  not_found: 'Not found.',
  business_rule: 'The request could not be processed.',
  conflict: 'The request conflicts with the current state of the resource.',
  rate_limited: 'Too Many Attempts.',
  malformed_request: 'The request is malformed.',
  malformed_json: 'The request body is not valid JSON.',
  unsupported_media_type: 'The request body must be JSON (Content-Type: application/json).',
  payload_too_large: 'The request body is too large.',
  route_not_found: 'Not found.',
  method_not_allowed: 'This method is not allowed on this path; the Allow header lists the methods that are.',
  http_client_error: 'The request cannot be served.',
  unavailable: 'The service is temporarily unavailable; retry shortly.',
  internal: 'Server Error.',
};

function headersFor(error: DomainError): Record<string, string> | undefined {
  if (error instanceof RateLimitedError) return { 'Retry-After': String(error.retryAfterSeconds) };
  if (error instanceof MethodNotAllowedError) return { Allow: error.allowed.join(', ') };
  if (error.kind === 'unavailable') return { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) };
  // RFC 9110: a 401 carries a challenge; every service authenticates with bearer credentials.
  if (error.kind === 'authentication') return { 'WWW-Authenticate': 'Bearer' };
  return undefined;
}

function fieldsOf(error: DomainError): FieldErrors | undefined {
  const fields = error instanceof ValidationError || error instanceof BusinessRuleError ? error.fields : undefined;
  return fields && Object.keys(fields).length > 0 ? fields : undefined;
}

function detailsOf(error: DomainError): Record<string, unknown> {
  return error instanceof ForbiddenError || error instanceof BusinessRuleError ? error.details : {};
}

function withHeaders(rendered: Omit<RenderedError, 'headers'>, error: DomainError): RenderedError {
  const headers = headersFor(error);
  return headers ? { ...rendered, headers } : rendered;
}

/**
 * `{ "message": "...", "errors"?: { "field": ["..."] } }` — the crypto spec's shape.
 * The thrown error's public message wins; otherwise the service's message for that kind; otherwise the standard one.
 * Internal errors always use the configured/standard message, never the thrown one.
 */
export function messageErrorFormat(messages: ErrorMessages = {}): ErrorFormat {
  const resolved: Record<DomainErrorKind, string> = { ...standardMessages, ...messages };
  // A 404 for an unknown route reads the same as one for an unknown record unless a service says otherwise.
  if (messages.not_found !== undefined && messages.route_not_found === undefined) {
    resolved.route_not_found = messages.not_found;
  }
  return {
    render(error) {
      const message = error.kind === 'internal' ? resolved.internal : (error.publicMessage ?? kindMessage(error, resolved));
      const errors = fieldsOf(error);
      return withHeaders({ status: statusOf(error), body: errors ? { message, errors } : { message } }, error);
    },
  };
}

function kindMessage(error: DomainError, messages: Record<DomainErrorKind, string>): string {
  return error instanceof HttpClientError ? httpClientErrorMessage(error) : messages[error.kind];
}

const envelopeCodes: Record<DomainErrorKind, string> = {
  validation: 'validation_failed',
  authentication: 'unauthenticated',
  forbidden: 'forbidden',
  not_found: 'not_found',
  business_rule: 'rule_violation',
  conflict: 'conflict',
  rate_limited: 'rate_limited',
  malformed_request: 'malformed_request',
  malformed_json: 'malformed_json',
  unsupported_media_type: 'unsupported_media_type',
  payload_too_large: 'payload_too_large',
  route_not_found: 'not_found',
  method_not_allowed: 'method_not_allowed',
  http_client_error: 'client_error',
  unavailable: 'service_unavailable',
  internal: 'internal_error',
};

/** `range_not_satisfiable` for 416: the status's reason phrase in snake case, stable like every other code. */
function envelopeCodeOf(error: DomainError): string {
  if (error instanceof BusinessRuleError && error.code) return error.code;
  if (error instanceof HttpClientError) {
    const phrase = STATUS_CODES[error.status];
    return phrase ? phrase.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '') : envelopeCodes.http_client_error;
  }
  return envelopeCodes[error.kind];
}

const envelopeMessages: Record<DomainErrorKind, string> = {
  ...standardMessages,
  validation: 'The request is invalid.',
  authentication: 'Authentication is required.',
  internal: 'An unexpected error occurred.',
};

/**
 * `{ "error": { "code": "validation_failed", "message": "...", "fields"?: {...}, ...details } }` — bnpl and photos.
 * `code` is stable and machine-readable; `message` is for humans; details (e.g. `missing_scope`) sit beside them.
 */
export const envelopeErrorFormat: ErrorFormat = {
  render(error) {
    const code = envelopeCodeOf(error);
    const message = error.kind === 'internal' ? envelopeMessages.internal : (error.publicMessage ?? kindMessage(error, envelopeMessages));
    const fields = fieldsOf(error);
    const extra: Record<string, unknown> =
      error instanceof RateLimitedError ? { retry_after_seconds: error.retryAfterSeconds } : {};
    // Details are spread first so they can never overwrite code/message/fields.
    const body = { error: { ...detailsOf(error), ...extra, code, message, ...(fields ? { fields } : {}) } };
    return withHeaders({ status: statusOf(error), body }, error);
  },
};
