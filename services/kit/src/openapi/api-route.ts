// A REST route described once: its method, path and OpenAPI operation (zod schemas included). Services mount their
// handlers through `mountApiRoute`, so the path that is served and the path that is documented are the same value.
import type { RequestHandler, Router } from 'express';
import type { ZodOpenApiOperationObject } from 'zod-openapi';

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Error statuses a route may declare; 500 is documented on every route, 400/413/415 on every route with a body. */
export type DocumentedErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429;

export interface ApiRoute {
  method: HttpMethod;
  /** Express notation (`/api/v1/merchant/api-keys/:id`); the document shows `{id}`. */
  path: string;
  operation: ZodOpenApiOperationObject;
  /** Error statuses the route answers with, rendered in the service's error format. */
  errors?: readonly DocumentedErrorStatus[];
}

/** Identity with type checking: keeps a module's route definitions literal and checked. */
export function defineApiRoute<const R extends ApiRoute>(route: R): R {
  return route;
}

/** Registers `handlers` under the route's own method and path. */
export function mountApiRoute(router: Router, route: ApiRoute, ...handlers: RequestHandler[]): void {
  router[route.method](route.path, ...handlers);
}

/** `/a/:id` -> `/a/{id}`. */
export function toOpenApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}
