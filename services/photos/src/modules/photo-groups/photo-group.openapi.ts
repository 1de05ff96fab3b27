// The photo group routes as OpenAPI operations; photo-group.routes.ts mounts its handlers on these.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import { ACCESS_TOKEN_SECURITY } from '../../api-security.js';
import { photoResource } from '../photos/index.js';
import { PHOTO_GROUPS_PER_PAGE, createPhotoGroupBody, listPhotoGroupsQuery } from './photo-group.validation.js';

export const photoGroupResource = z
  .object({
    id: z.number().int(),
    project: z.object({ id: z.number().int(), name: z.string() }).nullable().meta({ description: 'The before photo\'s project (both halves had it when paired).' }),
    before: photoResource,
    after: photoResource,
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'PhotosPhotoGroup' });

const groupPageMeta = z
  .object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() })
  .meta({ id: 'PhotosPhotoGroupPageMeta' });

export const photoGroupResponse = z.object({ data: photoGroupResource });
export const photoGroupListResponse = z.object({ data: z.array(photoGroupResource), meta: groupPageMeta });

export const photoGroupApi = {
  create: defineApiRoute({
    method: 'post',
    path: `${REST_BASE}/photo-groups`,
    errors: [401, 403, 409, 422],
    operation: {
      operationId: 'createPhotoGroup',
      summary: 'Pair two photos as before and after',
      description:
        'Both photos of the caller\'s team and of one project, different, the before photo captured no later than the after photo: else 422 naming the field (another team\'s photo reads as not found). The same ordered pair again: 409. Answers 201 with the pair, both halves resolved. Needs `photos:write` (or `capture`).',
      tags: ['Photos'],
      security: ACCESS_TOKEN_SECURITY,
      requestBody: { required: true, content: { 'application/json': { schema: createPhotoGroupBody } } },
      responses: { '201': { description: 'The new pair.', content: { 'application/json': { schema: photoGroupResponse } } } },
    },
  }),
  list: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/photo-groups`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'listPhotoGroups',
      summary: "List the team's before/after pairs",
      description: `Newest first, ${PHOTO_GROUPS_PER_PAGE} per page, both halves resolved as full photos. Needs \`photos:read\` (or \`capture\`).`,
      tags: ['Photos'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { query: listPhotoGroupsQuery },
      responses: { '200': { description: 'One page of pairs.', content: { 'application/json': { schema: photoGroupListResponse } } } },
    },
  }),
};
