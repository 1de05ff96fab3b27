// Domain errors: services throw these and one error handler renders them through the service's ErrorFormat,
// so HTTP status codes and body shapes are decided in exactly one place per service.

export type DomainErrorKind =
  | 'validation'
  | 'authentication'
  | 'forbidden'
  | 'not_found'
  | 'business_rule'
  | 'conflict'
  | 'rate_limited'
  // Raised by the kit itself while reading a request, before any service code runs.
  | 'malformed_request'
  | 'malformed_json'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'route_not_found'
  | 'method_not_allowed'
  // A 4xx that Express or one of its helpers raised itself (e.g. 416 for an unsatisfiable Range on a static file).
  | 'http_client_error'
  // A dependency the request needs (the database) cannot be reached right now; the client may retry.
  | 'unavailable'
  // Anything that is not a DomainError; rendered with a generic message only.
  | 'internal';

/** Field path (dot-joined) -> human-readable messages, e.g. `{ "items.0.amount": ["Must be positive."] }`. */
export type FieldErrors = Record<string, string[]>;

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  /**
   * What the client may read. `undefined` means "use the error format's standard message for this kind"
   * (e.g. crypto's 401 "Invalid API credentials.", identical for every cause). `message` is for logs only.
   */
  readonly publicMessage: string | undefined;

  protected constructor(logMessage: string, publicMessage: string | undefined, options?: ErrorOptions) {
    super(logMessage, options);
    this.name = new.target.name;
    this.publicMessage = publicMessage;
  }
}

/** 422: the input failed validation; `fields` names every offending field. */
export class ValidationError extends DomainError {
  readonly kind = 'validation';
  readonly fields: FieldErrors;

  constructor(fields: FieldErrors, message?: string) {
    super(message ?? `Validation failed: ${Object.keys(fields).join(', ')}`, message);
    this.fields = fields;
  }
}

/**
 * 401: missing, malformed or revoked credentials. The reason is logged but never shown, so every cause
 * produces the same response (the crypto spec requires this; it also denies probing to the others).
 */
export class AuthenticationError extends DomainError {
  readonly kind = 'authentication';

  constructor(reason = 'Authentication failed') {
    super(reason, undefined);
  }
}

/** 403: authenticated but not allowed; `details` are rendered (photos names the missing scope). */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
  readonly details: Record<string, unknown>;

  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message, message);
    this.details = details;
  }
}

/**
 * 404: no such record, or one the caller may not see — deliberately the same answer.
 * `what` goes to the log only.
 */
export class NotFoundError extends DomainError {
  readonly kind = 'not_found';

  constructor(what = 'Record not found') {
    super(what, undefined);
  }
}

export interface BusinessRuleOptions {
  /** Stable machine-readable code for envelope formats (default `rule_violation`). */
  code?: string;
  details?: Record<string, unknown>;
}

/** 422: the input is well-formed but a business rule refuses it (e.g. cancelling a settled request). */
export class BusinessRuleError extends DomainError {
  readonly kind = 'business_rule';
  readonly fields: FieldErrors | undefined;
  readonly code: string | undefined;
  readonly details: Record<string, unknown>;

  constructor(message: string, fields?: FieldErrors, options: BusinessRuleOptions = {}) {
    super(message, message);
    this.fields = fields;
    this.code = options.code;
    this.details = options.details ?? {};
  }
}

/** 409: the request conflicts with the current state (duplicate, concurrent change). */
export class ConflictError extends DomainError {
  readonly kind = 'conflict';

  constructor(message: string) {
    super(message, message);
  }
}

/** 429: too many requests; rendered with a Retry-After header. */
export class RateLimitedError extends DomainError {
  readonly kind = 'rate_limited';
  readonly retryAfterSeconds: number;

  /** `publicMessage` replaces the format's standard one when the limit needs saying (what is limited, and how). */
  constructor(retryAfterSeconds: number, publicMessage?: string) {
    super(`Rate limit exceeded; retry after ${retryAfterSeconds}s`, publicMessage);
    // Retry-After is whole seconds and at least 1, or clients would retry immediately.
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

/**
 * 400: the request itself is unreadable: a URL whose path or query does not percent-decode to UTF-8 text without NUL,
 * or a request the HTTP parser refuses (a header holding a character HTTP does not allow). No service code has run.
 */
export class MalformedRequestError extends DomainError {
  readonly kind = 'malformed_request';

  constructor(reason: string, publicMessage?: string, options?: ErrorOptions) {
    super(reason, publicMessage, options);
  }
}

/** 400: the body claims to be JSON but does not parse. */
export class MalformedJsonError extends DomainError {
  readonly kind = 'malformed_json';

  constructor(reason = 'Malformed JSON body', options?: ErrorOptions) {
    super(reason, undefined, options);
  }
}

/**
 * 415: a request body that is not JSON where only JSON is accepted, or (with `publicMessage`) content a route refuses
 * by its own rule, e.g. an upload whose bytes are not an accepted image or video.
 */
export class UnsupportedMediaTypeError extends DomainError {
  readonly kind = 'unsupported_media_type';
  readonly contentType: string | undefined;

  constructor(contentType: string | undefined, publicMessage?: string) {
    super(`Unsupported Content-Type: ${contentType ?? '(none)'}`, publicMessage);
    this.contentType = contentType;
  }
}

/** 413: the body (or, with `publicMessage`, one part of it, e.g. an uploaded file) exceeds the configured limit. */
export class PayloadTooLargeError extends DomainError {
  readonly kind = 'payload_too_large';
  readonly limit: string;

  constructor(limit: string, options?: ErrorOptions & { publicMessage?: string }) {
    super(`Request body exceeds ${limit}`, options?.publicMessage, options);
    this.limit = limit;
  }
}

/** 404 for a path no route serves. */
export class RouteNotFoundError extends DomainError {
  readonly kind = 'route_not_found';

  constructor(method: string, path: string) {
    super(`No route for ${method} ${path}`, undefined);
  }
}

/** 405: the path is served, the method is not; `allowed` becomes the Allow header. */
export class MethodNotAllowedError extends DomainError {
  readonly kind = 'method_not_allowed';
  readonly allowed: readonly string[];

  constructor(method: string, path: string, allowed: readonly string[]) {
    super(`${method} ${path} is not served; allowed: ${allowed.join(', ')}`, undefined);
    this.allowed = allowed;
  }
}

/**
 * A 4xx that Express itself or one of its helpers raised as an http-errors error (`send` answering 412 to a failed
 * If-Match or 416 to an unsatisfiable Range on a static file): rendered with that status instead of a 500.
 */
export class HttpClientError extends DomainError {
  readonly kind = 'http_client_error';
  /** 400..499 */
  readonly status: number;

  constructor(status: number, message: string, options?: ErrorOptions) {
    super(message, undefined, options);
    this.status = status;
  }
}

/** Seconds a client should wait before retrying a request refused with 503. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * 503: a dependency the request needs (the database) is unreachable. Rendered with Retry-After and the format's
 * generic message only; the cause goes to the log.
 */
export class ServiceUnavailableError extends DomainError {
  readonly kind = 'unavailable';

  constructor(cause: unknown) {
    super('A dependency is unavailable', undefined, { cause });
  }
}

/** 500: wraps anything unexpected; only the format's generic message is ever rendered. */
export class InternalError extends DomainError {
  readonly kind = 'internal';

  constructor(cause: unknown) {
    super('Unexpected error', undefined, { cause });
  }
}

export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;
