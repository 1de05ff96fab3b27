// DomainErrors surface in GraphQL as errors with a stable extensions.code (the gateway passes them through);
// anything unexpected is reduced to a generic INTERNAL_SERVER_ERROR so internals never reach a client.
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { databaseUnavailableError } from '../database/unavailable.js';
import {
  BusinessRuleError,
  ForbiddenError,
  RateLimitedError,
  ValidationError,
  isDomainError,
  type DomainError,
  type DomainErrorKind,
} from '../errors/index.js';

export const graphqlErrorCodes: Record<DomainErrorKind, string> = {
  validation: 'BAD_USER_INPUT',
  business_rule: 'BAD_USER_INPUT',
  authentication: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  route_not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  rate_limited: 'RATE_LIMITED',
  malformed_json: 'BAD_REQUEST',
  unsupported_media_type: 'BAD_REQUEST',
  payload_too_large: 'BAD_REQUEST',
  malformed_request: 'BAD_REQUEST',
  method_not_allowed: 'BAD_REQUEST',
  http_client_error: 'BAD_REQUEST',
  unavailable: 'SERVICE_UNAVAILABLE',
  internal: 'INTERNAL_SERVER_ERROR',
};

const graphqlMessages: Record<DomainErrorKind, string> = {
  validation: 'The given data was invalid.',
  business_rule: 'The request could not be processed.',
  authentication: 'Unauthenticated.',
  forbidden: 'Forbidden.',
  not_found: 'Not found.',
  route_not_found: 'Not found.',
  conflict: 'Conflict.',
  rate_limited: 'Too Many Attempts.',
  malformed_json: 'Bad request.',
  unsupported_media_type: 'Bad request.',
  payload_too_large: 'Bad request.',
  malformed_request: 'Bad request.',
  method_not_allowed: 'Bad request.',
  http_client_error: 'Bad request.',
  unavailable: 'Service temporarily unavailable.',
  internal: 'Internal server error.',
};

export const INTERNAL_ERROR_MESSAGE = graphqlMessages.internal;

export function domainErrorExtensions(error: DomainError): Record<string, unknown> {
  const extensions: Record<string, unknown> = {};
  if (error instanceof ForbiddenError || error instanceof BusinessRuleError) Object.assign(extensions, error.details);
  if (error instanceof BusinessRuleError && error.code) extensions.reason = error.code;
  if ((error instanceof ValidationError || error instanceof BusinessRuleError) && error.fields) extensions.fields = error.fields;
  if (error instanceof RateLimitedError) extensions.retryAfterSeconds = error.retryAfterSeconds;
  extensions.code = graphqlErrorCodes[error.kind];
  return extensions;
}

export function domainErrorMessage(error: DomainError): string {
  return error.kind === 'internal' ? graphqlMessages.internal : (error.publicMessage ?? graphqlMessages[error.kind]);
}

/** For code paths outside resolvers (context creation) that must throw a ready-made GraphQLError. */
export function toGraphQLError(error: DomainError): GraphQLError {
  return new GraphQLError(domainErrorMessage(error), {
    originalError: error,
    // 200 keeps the body intact through the gateway, which turns non-2xx subgraph answers into opaque errors.
    extensions: { ...domainErrorExtensions(error), http: { status: 200 } },
  });
}

/** The error a resolver (or context function) actually threw, looking through Apollo's wrappers. */
export function originalErrorOf(error: unknown): unknown {
  const unwrapped = unwrapResolverError(error);
  return unwrapped instanceof GraphQLError && unwrapped.originalError ? unwrapped.originalError : unwrapped;
}

/** Apollo `formatError`. */
export function formatSubgraphError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const thrown = originalErrorOf(error);
  const original = isDomainError(thrown) ? thrown : (databaseUnavailableError(thrown) ?? thrown);
  const position = {
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
  };
  if (isDomainError(original)) {
    return { message: domainErrorMessage(original), ...position, extensions: domainErrorExtensions(original) };
  }
  // Parse/validation/variable errors carry their own client-facing code and message: keep them.
  if (formatted.extensions?.code !== 'INTERNAL_SERVER_ERROR') return formatted;
  return { message: INTERNAL_ERROR_MESSAGE, ...position, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}
