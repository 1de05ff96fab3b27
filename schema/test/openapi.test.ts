import { describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { SERVICE_NAMES } from '@tributary/workflows';
import { openApiDocumentPath, readOpenApiDocument } from '../src/index.js';

// Freshness and route coverage are checked in each service's test/openapi.test.ts (the service builds the document).
describe('checked-in OpenAPI documents', () => {
  it.each(SERVICE_NAMES)('%s: schema/openapi/%s.json is an OpenAPI 3.1 document with the standard routes', (name) => {
    expect(existsSync(openApiDocumentPath(name))).toBe(true);
    const document = JSON.parse(readOpenApiDocument(name)) as { openapi: string; info: { title: string }; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toMatch(/Tributary/);
    expect(Object.keys(document.paths['/healthz'] ?? {})).toEqual(['get']);
    // POST: GraphQL; GET: GraphiQL for browsers (and GraphQL over GET otherwise).
    expect(Object.keys(document.paths['/graphql'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(document.paths['/docs']?.get).toBeDefined();
  });

  it('refuses an unknown service name', () => {
    expect(() => openApiDocumentPath('nope' as never)).toThrow(/Unknown service/);
  });
});
