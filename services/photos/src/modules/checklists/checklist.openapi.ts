// The checklist routes as OpenAPI operations; checklist.routes.ts mounts its handlers on these.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import { ACCESS_TOKEN_SECURITY } from '../../api-security.js';
import { photoResource } from '../photos/index.js';
import { userRef } from '../teams/index.js';
import { CHECKLISTS_PER_PAGE, createChecklistBody, listChecklistsQuery, updateChecklistBody, updateChecklistItemBody } from './checklist.validation.js';

export const checklistItemResource = z
  .object({
    id: z.number().int(),
    checklist_id: z.number().int(),
    position: z.number().int().meta({ description: '1-based order within the checklist.' }),
    title: z.string(),
    requires_photo: z.boolean(),
    assignee: userRef.nullable(),
    ticked: z.boolean(),
    ticked_at: z.iso.datetime().nullable(),
    ticked_by: userRef.nullable(),
    evidence: z.object({
      note: z.string().nullable(),
      photos: z.array(photoResource).meta({ description: 'Attached photos (full photo resources), in the order attached.' }),
    }),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'PhotosChecklistItem' });

export const CHECKLIST_STATES = ['open', 'done'] as const;

export const checklistResource = z
  .object({
    id: z.number().int(),
    project: z.object({ id: z.number().int(), name: z.string() }),
    title: z.string(),
    status: z.enum(CHECKLIST_STATES).meta({ description: 'done when every item is ticked, else open.' }),
    progress: z.object({ ticked: z.number().int(), total: z.number().int() }),
    created_by: userRef.nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    items: z.array(checklistItemResource),
  })
  .meta({ id: 'PhotosChecklist' });

const pageMeta = z
  .object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() })
  .meta({ id: 'PhotosChecklistPageMeta' });

export const checklistResponse = z.object({ data: checklistResource });
export const checklistListResponse = z.object({ data: z.array(checklistResource), meta: pageMeta });
export const checklistItemResponse = z.object({ data: checklistItemResource });

const checklistPath = z.object({ checklist: z.string().meta({ description: 'Checklist id.' }) });
const itemPath = z.object({ item: z.string().meta({ description: 'Checklist item id.' }) });

export const checklistApi = {
  create: defineApiRoute({
    method: 'post',
    path: `${REST_BASE}/checklists`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'createChecklist',
      summary: 'Create a checklist for a project (additive to the spec)',
      description:
        'A title and its items in order, each with `requires_photo` and an optional assignee (a member of the team). The project and assignees must be the team\'s (else 422 naming the field). Answers 201 with the checklist. Needs `checklists:write`.',
      tags: ['Checklists'],
      security: ACCESS_TOKEN_SECURITY,
      requestBody: { required: true, content: { 'application/json': { schema: createChecklistBody } } },
      responses: { '201': { description: 'The new checklist.', content: { 'application/json': { schema: checklistResponse } } } },
    },
  }),
  list: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/checklists`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'listChecklists',
      summary: "List the team's checklists",
      description: `Newest first, ${CHECKLISTS_PER_PAGE} per page, each with its items and their evidence. \`mine=1\`: only checklists with an item assigned to the caller. Every project of the team is visible to each of its members. Needs \`checklists:read\` (or \`capture\`).`,
      tags: ['Checklists'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { query: listChecklistsQuery },
      responses: { '200': { description: 'One page of checklists.', content: { 'application/json': { schema: checklistListResponse } } } },
    },
  }),
  get: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/checklists/:checklist`,
    errors: [401, 403, 404],
    operation: {
      operationId: 'getChecklist',
      summary: 'One checklist with its items and their evidence',
      description: 'Evidence photos are full photo resources (signed URLs). Another team\'s checklist, an unknown id or one that is not digits: 404. Needs `checklists:read` (or `capture`).',
      tags: ['Checklists'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { path: checklistPath },
      responses: { '200': { description: 'The checklist.', content: { 'application/json': { schema: checklistResponse } } } },
    },
  }),
  update: defineApiRoute({
    method: 'patch',
    path: `${REST_BASE}/checklists/:checklist`,
    errors: [401, 403, 404, 422],
    operation: {
      operationId: 'updateChecklist',
      summary: 'Rename a checklist or append items (additive to the spec)',
      description: '`title` renames it; `add_items` are appended after the last item (at most 100 items in all; assignees members of the team, else 422 naming `add_items.N.assignee_id`). Answers 200 with the checklist. Needs `checklists:write`.',
      tags: ['Checklists'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { path: checklistPath },
      requestBody: { required: true, content: { 'application/json': { schema: updateChecklistBody } } },
      responses: { '200': { description: 'The checklist as it now is.', content: { 'application/json': { schema: checklistResponse } } } },
    },
  }),
  updateItem: defineApiRoute({
    method: 'patch',
    path: `${REST_BASE}/checklist-items/:item`,
    errors: [401, 403, 404, 422],
    operation: {
      operationId: 'updateChecklistItem',
      summary: 'Tick or untick an item, attach or remove evidence',
      description: [
        'Photos are attached and removed first, then the tick applies: attaching a photo and ticking in one PATCH works.',
        'Ticking an item flagged `requires_photo` with no photo attached: 422 `{"error":{"code":"photo_required","message":…,"fields":{"ticked":[…]}}}`, and nothing changes. Photos must be the team\'s photos of the checklist\'s project (else 422 on `attach_photo_ids`); a device token may attach only photos it uploaded and remove only photos it attached.',
        'Answers 200 with the item. Needs `checklists:write` (or `capture`).',
      ].join('\n\n'),
      tags: ['Checklists'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { path: itemPath },
      requestBody: { required: true, content: { 'application/json': { schema: updateChecklistItemBody } } },
      responses: { '200': { description: 'The item as it now is.', content: { 'application/json': { schema: checklistItemResponse } } } },
    },
  }),
};
