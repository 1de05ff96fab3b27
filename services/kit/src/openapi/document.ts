// Builds a service's OpenAPI 3.1 document from its ApiRoutes (zod-openapi renders the zod schemas) and adds what
// every service serves the same way: the probes, the GraphQL endpoint, the document itself and the docs page.
import { z } from 'zod';
import { createDocument, type oas31, type ZodOpenApiObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { SUBGRAPH_PATH } from '../graphql/subgraph-path.js';
import { toOpenApiPath, type ApiRoute, type DocumentedErrorStatus } from './api-route.js';

export type OpenApiDocument = ReturnType<typeof createDocument>;

export interface ServiceApiDocumentOptions {
  title: string;
  version: string;
  description?: string;
  /** The spec's REST prefix; the document is served at `<restBase>/openapi.json`. */
  restBase: string;
  /** Where the human docs page is served. Default `/docs`. */
  docsPath?: string;
  /** The service's error body (`messageErrorBody` or `envelopeErrorBody`). */
  errorBody: z.ZodType;
  securitySchemes: Record<string, oas31.SecuritySchemeObject>;
  /** Credentials `/graphql` accepts (alternatives); default none. */
  graphqlSecurity?: oas31.SecurityRequirementObject[];
  tags?: oas31.TagObject[];
  routes: readonly ApiRoute[];
  /**
   * Path prefixes behind a rate limiter (`/api/pay` covers `/api/pay` and everything below it, not `/api/payments`):
   * every operation there documents 429, so a client or fuzzer reads every status it can meet.
   */
  rateLimitedPaths?: readonly string[];
  /**
   * Refused credentials spend a per-client budget (authenticationFailureLimit): every operation that answers 401 also
   * documents 429, which a client meets once its budget is spent.
   */
  authenticationFailureLimited?: boolean;
}

const MALFORMED_REQUEST_DESCRIPTION =
  'Malformed request: the path or query does not percent-decode to UTF-8 text without NUL characters, or a header holds a character HTTP does not allow.';

const errorDescriptions: Record<DocumentedErrorStatus | 500, string> = {
  400: MALFORMED_REQUEST_DESCRIPTION,
  401: 'Missing, malformed, unknown, revoked or expired credentials (the body never says which).',
  403: 'The credentials are valid but lack permission for this action.',
  404: 'No such resource visible to the caller.',
  409: 'The request conflicts with the current state of the resource.',
  413: 'The request body is larger than the service accepts.',
  415: 'The request body is not JSON (`Content-Type: application/json` is required).',
  422: 'The input is invalid; the body names every offending field.',
  429: 'Too many requests; retry after the number of seconds in `Retry-After`.',
  500: 'Unexpected error (details are logged with the request id, never returned).',
};

const requestIdHeader = z.string().meta({ description: 'The request id (echoed from the request or generated); quote it when reporting a problem.' });

/** Whether `path` (Express notation) is `prefix` or below it. */
function isUnder(path: string, prefix: string): boolean {
  const base = prefix.replace(/\/+$/, '');
  return path === base || path.startsWith(`${base}/`);
}

/**
 * Every error status the route can answer: its own, 400 everywhere (malformed URL or header; on routes with a body
 * also bad JSON, with 413, 415 and 422), 429 under a rate-limited prefix, 500 on the service's own routes.
 */
function errorStatuses(route: ApiRoute, options: { standard: boolean; rateLimitedPaths: readonly string[]; authenticationFailureLimited: boolean }): Array<DocumentedErrorStatus | 500> {
  const statuses = new Set<DocumentedErrorStatus | 500>(route.errors ?? []);
  statuses.add(400);
  // A bare JSON value (`null`, `"x"`) is a validation error on `body` wherever a body is read (json-body.ts).
  if (route.operation.requestBody) for (const status of [413, 415, 422] as const) statuses.add(status);
  if (options.rateLimitedPaths.some((prefix) => isUnder(route.path, prefix))) statuses.add(429);
  if (options.authenticationFailureLimited && statuses.has(401)) statuses.add(429);
  if (!options.standard) statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}

function errorResponse(status: DocumentedErrorStatus | 500, route: ApiRoute, errorBody: z.ZodType): ZodOpenApiResponseObject {
  const headers: Record<string, z.ZodType> = { 'X-Request-Id': requestIdHeader };
  if (status === 401) headers['WWW-Authenticate'] = z.literal('Bearer').meta({ description: 'Authentication challenge.' });
  if (status === 429) headers['Retry-After'] = z.string().meta({ description: 'Seconds to wait before retrying.' });
  const description = status === 400 && route.operation.requestBody ? `${errorDescriptions[400]} Or the request body is not valid JSON.` : errorDescriptions[status];
  return { description, headers: z.object(headers), content: { 'application/json': { schema: errorBody } } };
}

/** The operation's own responses (they win: a standard route documents its own 400) plus its error responses, by status. */
function responsesOf(route: ApiRoute, options: ServiceApiDocumentOptions, standard: boolean): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = { ...route.operation.responses };
  for (const status of errorStatuses(route, { standard, rateLimitedPaths: options.rateLimitedPaths ?? [], authenticationFailureLimited: options.authenticationFailureLimited ?? false })) {
    responses[`${status}`] ??= errorResponse(status, route, options.errorBody);
  }
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

const readinessReport = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.record(z.string(), z.enum(['ok', 'failed', 'timed_out'])),
  failing: z.array(z.string()).optional(),
});

/** The routes every service app serves besides its own REST routes (see createServiceApp, mountSubgraph, mountApiDocs). */
export function standardApiRoutes(opts: { restBase: string; docsPath?: string; graphqlSecurity?: oas31.SecurityRequirementObject[] }): ApiRoute[] {
  const operational = ['Operations'];
  return [
    {
      method: 'get',
      path: '/healthz',
      operation: {
        operationId: 'healthz',
        summary: 'Liveness probe',
        tags: operational,
        security: [],
        responses: { '200': { description: 'The process is up.', content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } } } },
      },
    },
    {
      method: 'get',
      path: '/readyz',
      operation: {
        operationId: 'readyz',
        summary: 'Readiness probe (database and Temporal)',
        tags: operational,
        security: [],
        responses: {
          '200': { description: 'Every dependency answers.', content: { 'application/json': { schema: readinessReport } } },
          '503': { description: 'At least one dependency does not answer; the body lists the failing checks.', content: { 'application/json': { schema: readinessReport } } },
        },
      },
    },
    {
      method: 'post',
      path: SUBGRAPH_PATH,
      operation: {
        operationId: 'graphql',
        summary: 'GraphQL (Federation 2 subgraph)',
        description:
          'The service\'s subgraph, normally reached through the gateway. Send `Content-Type: application/json`. Errors follow GraphQL conventions (`errors[].extensions.code`: UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, BAD_USER_INPUT, CONFLICT, RATE_LIMITED), not the REST error format. The SDL is in `schema/subgraphs/`.',
        tags: ['GraphQL'],
        security: opts.graphqlSecurity ?? [],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: z.object({
                query: z.string(),
                operationName: z.string().optional(),
                variables: z.record(z.string(), z.unknown()).optional(),
              }),
            },
          },
        },
        responses: {
          '200': {
            description: 'A GraphQL response (field errors, including authentication, are in `errors`).',
            content: {
              'application/json': {
                schema: z.object({
                  data: z.record(z.string(), z.unknown()).nullable().optional(),
                  errors: z.array(z.looseObject({ message: z.string(), extensions: z.record(z.string(), z.unknown()).optional() })).optional(),
                }),
              },
            },
          },
          '400': { description: 'The request is not a valid GraphQL request.' },
        },
      },
    },
    {
      method: 'get',
      path: SUBGRAPH_PATH,
      operation: {
        operationId: 'graphiql',
        summary: 'GraphiQL (in a browser)',
        description:
          'A browser (`Accept` preferring `text/html`) gets GraphiQL, self-hosted, with example queries and the `Authorization` header in its headers editor. Other GET requests are GraphQL requests over GET.',
        tags: ['GraphQL'],
        security: [],
        responses: {
          '200': { description: 'HTML page.', content: { 'text/html': { schema: z.string() } } },
          // As on POST: Apollo's own refusals (no query, CSRF prevention of a simple GET) are GraphQL error responses,
          // while a malformed URL or header gets the service's error body, so no one schema describes every 400.
          '400': { description: 'Not a valid GraphQL request over GET (GraphQL `errors`), or a malformed URL or header (the service\'s error body).' },
        },
      },
    },
    {
      method: 'get',
      path: `${opts.restBase}/openapi.json`,
      operation: {
        operationId: 'openapiDocument',
        summary: 'This OpenAPI document',
        tags: ['Documentation'],
        security: [],
        responses: { '200': { description: 'The OpenAPI 3.1 document.', content: { 'application/json': { schema: z.looseObject({ openapi: z.string() }) } } } },
      },
    },
    {
      method: 'get',
      path: opts.docsPath ?? '/docs',
      operation: {
        operationId: 'apiDocs',
        summary: 'API documentation page',
        description: 'Human-readable rendering of this document (self-hosted Swagger UI).',
        tags: ['Documentation'],
        security: [],
        responses: { '200': { description: 'HTML page.', content: { 'text/html': { schema: z.string() } } } },
      },
    },
  ];
}

/** The service's OpenAPI 3.1 document; paths are sorted so the checked-in JSON diffs cleanly. */
export function createServiceApiDocument(options: ServiceApiDocumentOptions): OpenApiDocument {
  const routes = [...options.routes, ...standardApiRoutes(options)];
  const paths: ZodOpenApiPathsObject = {};
  const seen = new Set<string>();
  for (const route of [...routes].sort((a, b) => a.path.localeCompare(b.path))) {
    const path = toOpenApiPath(route.path);
    const key = `${route.method.toUpperCase()} ${path}`;
    if (seen.has(key)) throw new Error(`OpenAPI: ${key} is defined twice`);
    seen.add(key);
    const standard = !options.routes.includes(route);
    paths[path] = { ...paths[path], [route.method]: { ...route.operation, responses: responsesOf(route, options, standard) } };
  }
  const document: ZodOpenApiObject = {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version, ...(options.description ? { description: options.description } : {}) },
    ...(options.tags ? { tags: options.tags } : {}),
    paths,
    components: { securitySchemes: options.securitySchemes },
  };
  return createDocument(document);
}

/** The checked-in form of a document (stable key order from the builder, 2-space indent, trailing newline). */
export function serializeApiDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
