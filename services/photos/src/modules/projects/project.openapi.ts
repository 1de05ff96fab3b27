// The project routes as OpenAPI operations: the input schemas (project.validation.ts) are the ones the routes parse with;
// project.routes.ts mounts its handlers on these definitions.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import { ACCESS_TOKEN_SECURITY } from '../../api-security.js';
import { PLANNED_PROJECT_COUNT_KEYS } from './project-counts.js';
import { MAX_PROJECT_RADIUS_M, UNASSIGNED_REASONS } from './project-matching.js';
import { PROJECT_STATUSES } from './project.entity.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENT_REPLAYED_HEADER } from './project.idempotency.js';
import { NEARBY_CANDIDATES_MAX } from './project.service.js';
import { MIN_PROJECT_RADIUS_M, PROJECTS_PER_PAGE, createProjectBody, listProjectsQuery, nearbyProjectsQuery } from './project.validation.js';

export const projectResource = z
  .object({
    id: z.number().int(),
    name: z.string(),
    status: z.enum(PROJECT_STATUSES),
    address: z.string().nullable(),
    coordinates: z
      .object({ lat: z.number(), lng: z.number(), radius_m: z.number().meta({ description: 'Match radius in metres (default 150).' }) })
      .nullable(),
    customer: z.object({ id: z.number().int(), name: z.string() }).nullable().meta({ description: 'The linked customer; null when none is linked.' }),
    created_at: z.iso.datetime(),
    last_activity_at: z.iso.datetime(),
  })
  .meta({ id: 'PhotosProject' });

export const pageMeta = z
  .object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() })
  .meta({ id: 'PhotosPageMeta' });

export const projectListResponse = z.object({ data: z.array(projectResource), meta: pageMeta });
export const projectResponse = z.object({ data: projectResource });

export const projectCounts = z.record(z.string(), z.number().int()).meta({
  id: 'PhotosProjectCounts',
  description: `What the project holds, by kind: ${PLANNED_PROJECT_COUNT_KEYS.map((key) => `\`${key}\``).join(', ')}; each key is present when the module that owns it is (an empty object until then).`,
});
export const projectDetailResponse = z.object({ data: projectResource.extend({ counts: projectCounts }).meta({ id: 'PhotosProjectWithCounts' }) });

export const nearbyCandidate = z
  .object({
    project: projectResource,
    distance_m: z.number().meta({ description: 'Great-circle distance from the fix to the project centre, metres.' }),
    radius_m: z.number(),
    could_contain: z.boolean().meta({ description: 'distance_m <= radius_m + accuracy_m: the fix\'s uncertainty circle touches the project\'s circle.' }),
  })
  .meta({ id: 'PhotosNearbyCandidate' });

export const nearbyResponse = z.object({
  data: z
    .object({
      decision: z.enum(['matched', 'unassigned']),
      reason: z.enum(UNASSIGNED_REASONS).nullable().meta({ description: 'Why nothing was matched; null when matched.' }),
      project: projectResource.nullable().meta({ description: 'The matched project; null when unassigned.' }),
      distance_m: z.number().nullable().meta({ description: 'Distance to the matched project, metres; null when unassigned.' }),
      fix: z.object({ lat: z.number(), lng: z.number(), accuracy_m: z.number() }).nullable().meta({ description: 'The fix as weighed; null for no_fix.' }),
      accuracy_threshold_m: z.number().meta({ description: "The team's threshold: a fix with a larger accuracy_m is low_accuracy." }),
      candidates: z.array(nearbyCandidate).meta({ description: `Active projects with coordinates within ${MAX_PROJECT_RADIUS_M} m + accuracy_m (capped at the threshold) of the fix, nearest first, at most ${NEARBY_CANDIDATES_MAX}; empty for no_fix.` }),
    })
    .meta({ id: 'PhotosNearbyDecision' }),
});

const projectIdParam = z.object({ project: z.string().meta({ description: 'The project id (digits; anything else is 404).' }) });

export const projectApi = {
  list: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/projects`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'listProjects',
      summary: "List the team's projects",
      description: `Newest activity first, ${PROJECTS_PER_PAGE} per page. \`q\` searches name and address. Needs the \`projects:read\` ability (or a device token's \`capture\`; 403 with \`missing_scope\` otherwise).`,
      tags: ['Projects'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { query: listProjectsQuery },
      responses: { '200': { description: 'One page of projects.', content: { 'application/json': { schema: projectListResponse } } } },
    },
  }),
  create: defineApiRoute({
    method: 'post',
    path: `${REST_BASE}/projects`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'createProject',
      summary: 'Create a project',
      description: `Needs \`projects:write\`; every role may create projects. Without coordinates the project is never matched by GPS. \`radius_m\` (${MIN_PROJECT_RADIUS_M} to ${MAX_PROJECT_RADIUS_M}, only with coordinates) defaults to the team's \`default_match_radius_m\`. Send an \`${IDEMPOTENCY_KEY_HEADER}\` to make a retry safe: the same key with the same body answers 201 with the project the first attempt created (\`${IDEMPOTENT_REPLAYED_HEADER}: true\`); the same key with a different body is a 422.`,
      tags: ['Projects'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: {
        header: z.object({
          [IDEMPOTENCY_KEY_HEADER]: z
            .string()
            .regex(IDEMPOTENCY_KEY_PATTERN)
            .optional()
            .meta({ description: `Optional, 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters (a UUID). Scoped to the team and kept for the life of the project.` }),
        }),
      },
      requestBody: { content: { 'application/json': { schema: createProjectBody } } },
      responses: {
        '201': {
          description: 'Created (or, with a replayed Idempotency-Key, the project the first attempt created).',
          content: { 'application/json': { schema: projectResponse } },
          headers: z.object({
            Location: z.string().meta({ description: 'Path of the project: /api/v1/projects/{id}.' }),
            [IDEMPOTENT_REPLAYED_HEADER]: z.literal('true').optional().meta({ description: 'Present when the Idempotency-Key was seen before.' }),
          }),
        },
      },
    },
  }),
  nearby: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/projects/nearby`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'nearbyProjects',
      summary: 'The GPS matching decision for a fix, with its reasoning',
      description:
        'The decision an upload with this fix would get: `matched` with one project, or `unassigned` with a reason: `no_fix` (lat, lng or accuracy_m missing or out of range), `low_accuracy` (accuracy_m above the team threshold), `outside_radius` (no project could contain the fix), `ambiguous` (more than one could; the nearest is never picked). A value that is not a number (e.g. `lat=abc`) is a 422 naming the parameter. Needs `projects:read` (or a device token\'s `capture`).',
      tags: ['Projects'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { query: nearbyProjectsQuery },
      responses: { '200': { description: 'The decision and the nearest candidates.', content: { 'application/json': { schema: nearbyResponse } } } },
    },
  }),
  get: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/projects/:project`,
    errors: [401, 403, 404],
    operation: {
      operationId: 'getProject',
      summary: 'One project with counts',
      description: 'A project of the token\'s team with `counts`; another team\'s or an unknown id is 404. Needs `projects:read` (or `capture`).',
      tags: ['Projects'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { path: projectIdParam },
      responses: { '200': { description: 'The project.', content: { 'application/json': { schema: projectDetailResponse } } } },
    },
  }),
};
