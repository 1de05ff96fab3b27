import { describe, expect, it } from '@jest/globals';
import {
  AuthenticationError,
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  HttpClientError,
  InternalError,
  MalformedJsonError,
  MalformedRequestError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  RouteNotFoundError,
  ServiceUnavailableError,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
  UnsupportedMediaTypeError,
  ValidationError,
  databaseUnavailableError,
  envelopeErrorFormat,
  messageErrorFormat,
} from '../src/index.js';

const crypto = messageErrorFormat({
  authentication: 'Invalid API credentials.',
  not_found: 'Not found.',
  rate_limited: 'Too Many Attempts.',
});

describe('messageErrorFormat (crypto spec shape)', () => {
  it('renders validation failures as 422 {message, errors}', () => {
    expect(crypto.render(new ValidationError({ amount: ['The amount field is required.'] }))).toEqual({
      status: 422,
      body: { message: 'The given data was invalid.', errors: { amount: ['The amount field is required.'] } },
    });
  });

  it('uses the service message for 401, identical whatever the logged reason', () => {
    const revoked = crypto.render(new AuthenticationError('key revoked'));
    const unknown = crypto.render(new AuthenticationError('unknown key id'));
    expect(revoked).toEqual({ status: 401, body: { message: 'Invalid API credentials.' }, headers: { 'WWW-Authenticate': 'Bearer' } });
    expect(unknown).toEqual(revoked);
  });

  it('answers 404 the same for unknown records and unknown routes', () => {
    expect(crypto.render(new NotFoundError('payment request 7 of another merchant'))).toEqual({ status: 404, body: { message: 'Not found.' } });
    expect(crypto.render(new RouteNotFoundError('GET', '/nope'))).toEqual({ status: 404, body: { message: 'Not found.' } });
  });

  it('renders business rules with their own message and optional fields', () => {
    expect(crypto.render(new BusinessRuleError('A settled request cannot be cancelled.'))).toEqual({
      status: 422,
      body: { message: 'A settled request cannot be cancelled.' },
    });
    expect(crypto.render(new BusinessRuleError('Too precise.', { amount: ['At most 8 decimals.'] })).body).toEqual({
      message: 'Too precise.',
      errors: { amount: ['At most 8 decimals.'] },
    });
  });

  it('sets Retry-After on 429', () => {
    expect(crypto.render(new RateLimitedError(41.2))).toEqual({
      status: 429,
      body: { message: 'Too Many Attempts.' },
      headers: { 'Retry-After': '42' },
    });
    expect(crypto.render(new RateLimitedError(0)).headers).toEqual({ 'Retry-After': '1' });
  });

  it('maps transport errors to 400, 413 and 415', () => {
    expect(crypto.render(new MalformedJsonError()).status).toBe(400);
    expect(crypto.render(new PayloadTooLargeError('1mb')).status).toBe(413);
    expect(crypto.render(new UnsupportedMediaTypeError('text/plain')).status).toBe(415);
    expect(crypto.render(new ConflictError('Duplicate reference.'))).toEqual({ status: 409, body: { message: 'Duplicate reference.' } });
    expect(crypto.render(new ForbiddenError('Account suspended.')).status).toBe(403);
  });

  it('renders a malformed request as 400, a refused method as 405 with Allow, and a 4xx of Express with its own status', () => {
    expect(crypto.render(new MalformedRequestError('bad URL', 'The URL is bad.'))).toEqual({ status: 400, body: { message: 'The URL is bad.' } });
    expect(crypto.render(new MalformedRequestError('no public message'))).toEqual({ status: 400, body: { message: 'The request is malformed.' } });
    expect(crypto.render(new MethodNotAllowedError('PUT', '/a', ['GET', 'HEAD']))).toEqual({
      status: 405,
      body: { message: 'This method is not allowed on this path; the Allow header lists the methods that are.' },
      headers: { Allow: 'GET, HEAD' },
    });
    expect(crypto.render(new HttpClientError(416, 'Range Not Satisfiable'))).toEqual({ status: 416, body: { message: 'Range Not Satisfiable.' } });
  });

  it('never renders the cause of an internal error', () => {
    const rendered = crypto.render(new InternalError(new Error('connect ECONNREFUSED 10.0.0.5:5432')));
    expect(rendered).toEqual({ status: 500, body: { message: 'Server Error.' } });
  });
});

describe('envelopeErrorFormat (bnpl and photos)', () => {
  it('renders validation failures with a code and fields', () => {
    expect(envelopeErrorFormat.render(new ValidationError({ 'items.0.amount_cents': ['Must be positive.'] }))).toEqual({
      status: 422,
      body: { error: { code: 'validation_failed', message: 'The request is invalid.', fields: { 'items.0.amount_cents': ['Must be positive.'] } } },
    });
  });

  it('spreads forbidden details beside code and message (photos names the missing scope)', () => {
    expect(envelopeErrorFormat.render(new ForbiddenError('The token lacks the photos:write scope.', { missing_scope: 'photos:write' }))).toEqual({
      status: 403,
      body: { error: { code: 'forbidden', message: 'The token lacks the photos:write scope.', missing_scope: 'photos:write' } },
    });
  });

  it('lets details never override code or message', () => {
    const body = envelopeErrorFormat.render(new ForbiddenError('No.', { code: 'sneaky', message: 'sneaky' })).body;
    expect(body).toEqual({ error: { code: 'forbidden', message: 'No.' } });
  });

  it('uses a business rule code when given', () => {
    expect(
      envelopeErrorFormat.render(new BusinessRuleError('A photo is required for this item.', undefined, { code: 'photo_required' })).body,
    ).toEqual({ error: { code: 'photo_required', message: 'A photo is required for this item.' } });
    expect(envelopeErrorFormat.render(new BusinessRuleError('Refund exceeds principal.')).body).toEqual({
      error: { code: 'rule_violation', message: 'Refund exceeds principal.' },
    });
  });

  it('renders malformed requests, refused methods and Express 4xx errors with stable codes', () => {
    expect(envelopeErrorFormat.render(new MalformedRequestError('bad URL', 'The URL is bad.')).body).toEqual({ error: { code: 'malformed_request', message: 'The URL is bad.' } });
    expect(envelopeErrorFormat.render(new MethodNotAllowedError('PUT', '/a', ['POST']))).toMatchObject({
      status: 405,
      body: { error: { code: 'method_not_allowed' } },
      headers: { Allow: 'POST' },
    });
    expect(envelopeErrorFormat.render(new HttpClientError(412, 'Precondition Failed'))).toEqual({
      status: 412,
      body: { error: { code: 'precondition_failed', message: 'Precondition Failed.' } },
    });
  });

  it('renders 401, 404, 429 and 500 with stable codes', () => {
    expect(envelopeErrorFormat.render(new AuthenticationError('expired token'))).toEqual({
      status: 401,
      body: { error: { code: 'unauthenticated', message: 'Authentication is required.' } },
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
    expect(envelopeErrorFormat.render(new NotFoundError()).body).toEqual({ error: { code: 'not_found', message: 'Not found.' } });
    expect(envelopeErrorFormat.render(new RateLimitedError(30))).toEqual({
      status: 429,
      body: { error: { code: 'rate_limited', message: 'Too Many Attempts.', retry_after_seconds: 30 } },
      headers: { 'Retry-After': '30' },
    });
    expect(envelopeErrorFormat.render(new InternalError(new Error('secret internals')))).toEqual({
      status: 500,
      body: { error: { code: 'internal_error', message: 'An unexpected error occurred.' } },
    });
  });
});

describe('an unreachable database: 503 with Retry-After, in each format', () => {
  const retryAfter = { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) };

  it('renders ServiceUnavailableError without its cause', () => {
    const error = new ServiceUnavailableError(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    expect(crypto.render(error)).toEqual({ status: 503, body: { message: 'The service is temporarily unavailable; retry shortly.' }, headers: retryAfter });
    expect(envelopeErrorFormat.render(error)).toEqual({
      status: 503,
      body: { error: { code: 'service_unavailable', message: 'The service is temporarily unavailable; retry shortly.' } },
      headers: retryAfter,
    });
  });

  it('recognises the errors of a database that is not there, through wrappers, and nothing else', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const wrapped = new Error('query failed', { cause: refused });
    for (const error of [refused, shutdown, wrapped, new Error('Connection terminated unexpectedly'), new Error('timeout exceeded when trying to connect')]) {
      expect(databaseUnavailableError(error)).toBeInstanceOf(ServiceUnavailableError);
    }
    const unique = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
    for (const error of [unique, new Error('boom'), 'text', null]) expect(databaseUnavailableError(error)).toBeUndefined();
  });
});
