// The page routes as OpenAPI operations; page.routes.ts mounts its handlers on these.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import { ACCESS_TOKEN_SECURITY } from '../../api-security.js';
import { EXCERPT_MAX } from './page-render.js';
import { PAGES_PER_PAGE, createPageBody, editPageBody, listPagesQuery } from './page.validation.js';

/** A page as lists answer it: the spec's fields without the bodies. */
export const pageSummary = z
  .object({
    id: z.number().int(),
    title: z.string(),
    excerpt: z.string().meta({ description: `The body as plain text, at most ${EXCERPT_MAX} characters cut at a word boundary, then "…".` }),
    project: z.object({ id: z.number().int(), name: z.string() }),
    updated_by: z.string().meta({ description: 'Name of the last editor (as it was when they saved).' }),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'PhotosPageSummary' });

export const pageResource = pageSummary
  .extend({
    body: z.string().meta({ description: 'Markdown source as authored.' }),
    body_html: z.string().meta({
      description: 'The body as already-escaped HTML: raw HTML in the source is text; links only to http(s), mailto or relative destinations; images only from https URLs.',
    }),
  })
  .meta({ id: 'PhotosPage' });

const pageListMeta = z
  .object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() })
  .meta({ id: 'PhotosPageListMeta' });

export const pageResponse = z.object({ data: pageResource });
export const pageListResponse = z.object({ data: z.array(pageSummary), meta: pageListMeta });

const pageIdParam = z.object({ page: z.string().meta({ description: 'The page id (digits; anything else is 404).' }) });

export const pageApi = {
  list: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/pages`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'listPages',
      summary: "List the team's pages",
      description: `Last edited first, ${PAGES_PER_PAGE} per page, without bodies. Needs \`pages:read\`.`,
      tags: ['Pages'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { query: listPagesQuery },
      responses: { '200': { description: 'One page of pages.', content: { 'application/json': { schema: pageListResponse } } } },
    },
  }),
  create: defineApiRoute({
    method: 'post',
    path: `${REST_BASE}/pages`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'createPage',
      summary: 'Write a page',
      description: 'A Markdown page of a project of the team (another team\'s project: 422 on `project_id`). The caller becomes `updated_by`. Announces `page.created`. Needs `pages:write`.',
      tags: ['Pages'],
      security: ACCESS_TOKEN_SECURITY,
      requestBody: { required: true, content: { 'application/json': { schema: createPageBody } } },
      responses: {
        '201': {
          description: 'The new page.',
          content: { 'application/json': { schema: pageResponse } },
          headers: z.object({ Location: z.string().meta({ description: 'Path of the page: /api/v1/pages/{id}.' }) }),
        },
      },
    },
  }),
  get: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/pages/:page`,
    errors: [401, 403, 404],
    operation: {
      operationId: 'getPage',
      summary: 'One page with its body and body_html',
      description: "A page of the token's team; another team's or an unknown id is 404. Needs `pages:read`.",
      tags: ['Pages'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { path: pageIdParam },
      responses: { '200': { description: 'The page.', content: { 'application/json': { schema: pageResponse } } } },
    },
  }),
  edit: defineApiRoute({
    method: 'patch',
    path: `${REST_BASE}/pages/:page`,
    errors: [401, 403, 404, 422],
    operation: {
      operationId: 'editPage',
      summary: 'Edit a page',
      description: 'Changes the title and/or body. A real change records the caller as `updated_by`, moves `updated_at` and announces `page.updated`; the same values again change nothing. Needs `pages:write`.',
      tags: ['Pages'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { path: pageIdParam },
      requestBody: { required: true, content: { 'application/json': { schema: editPageBody } } },
      responses: { '200': { description: 'The page as it now is.', content: { 'application/json': { schema: pageResponse } } } },
    },
  }),
};
