// The operations of an OpenAPI document as the fuzz suite needs them: parameters and body schema with $refs resolved,
// the credentials each accepts, and every status it documents.
import type { OpenApiDocument } from '../../openapi/index.js';

/** A JSON Schema object as zod-openapi renders it (OpenAPI 3.1). */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  default?: unknown;
};

export interface FuzzParameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface FuzzOperation {
  /** Upper case. */
  method: string;
  /** OpenAPI template, `/a/{id}`. */
  path: string;
  pathParams: FuzzParameter[];
  queryParams: FuzzParameter[];
  /** The JSON request body's schema, when the operation takes one. */
  body: JsonSchema | undefined;
  /** The multipart/form-data request body's schema (each property a part), when the operation takes one. */
  multipart: JsonSchema | undefined;
  /** Each entry: the security schemes that together authenticate (`[]` inside means public); empty = public. */
  security: string[][];
  /** Documented statuses (`'200'`, `'422'`, `'default'`). */
  statuses: ReadonlySet<string>;
  /** Documented statuses whose body is JSON. */
  jsonStatuses: ReadonlySet<string>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface RawOperation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: Array<Record<string, string[]>>;
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

/** `schema` with its `$ref`s into `#/components/schemas/` replaced by their targets, recursively. */
export function resolveRefs(schema: JsonSchema, document: OpenApiDocument, seen: ReadonlySet<string> = new Set()): JsonSchema {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    if (seen.has(name)) return {};
    const target = document.components?.schemas?.[name] as JsonSchema | undefined;
    if (!target) throw new Error(`fuzz: unresolvable $ref ${schema.$ref}`);
    return resolveRefs(target, document, new Set([...seen, name]));
  }
  const resolve = (inner: JsonSchema) => resolveRefs(inner, document, seen);
  const out: JsonSchema = { ...schema };
  if (schema.anyOf) out.anyOf = schema.anyOf.map(resolve);
  if (schema.oneOf) out.oneOf = schema.oneOf.map(resolve);
  if (schema.allOf) out.allOf = schema.allOf.map(resolve);
  if (schema.items) out.items = resolve(schema.items);
  if (schema.properties) out.properties = Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key, resolve(value)]));
  return out;
}

function parametersIn(operation: RawOperation, location: 'path' | 'query', document: OpenApiDocument): FuzzParameter[] {
  return (operation.parameters ?? [])
    .filter((parameter) => parameter.in === location)
    .map((parameter) => ({ name: parameter.name, required: parameter.required === true, schema: resolveRefs(parameter.schema ?? {}, document) }));
}

/** Every operation of `document`, in document order. */
export function operationsOf(document: OpenApiDocument): FuzzOperation[] {
  const operations: FuzzOperation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, RawOperation | undefined>)[method];
      if (!operation) continue;
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      const multipartSchema = operation.requestBody?.content?.['multipart/form-data']?.schema;
      const responses = Object.entries(operation.responses ?? {});
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parametersIn(operation, 'path', document),
        queryParams: parametersIn(operation, 'query', document),
        body: bodySchema ? resolveRefs(bodySchema, document) : undefined,
        multipart: multipartSchema ? resolveRefs(multipartSchema, document) : undefined,
        security: (operation.security ?? []).map((requirement) => Object.keys(requirement)),
        statuses: new Set(responses.map(([status]) => status)),
        jsonStatuses: new Set(responses.filter(([, response]) => response.content?.['application/json']).map(([status]) => status)),
      });
    }
  }
  return operations;
}
