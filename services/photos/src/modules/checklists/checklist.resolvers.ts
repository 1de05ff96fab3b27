import { enumMapping } from '@tributary/kit';
import { definedOnly, idInput } from '../../graphql-ids.js';
import type {
  CreatePhotosChecklistInput, PhotosChecklistItemInput, PhotosChecklistStatus, PhotosChecklistStatusFilter, Resolvers, UpdatePhotosChecklistInput, UpdatePhotosChecklistItemInput,
} from '../../graphql/resolvers-types.js';
import { checklistListQueryOf, type ChecklistListQuery, type ChecklistStatusFilter } from './checklist.validation.js';

const statusFilter = enumMapping<ChecklistStatusFilter, PhotosChecklistStatusFilter>({ open: 'OPEN', done: 'DONE', all: 'ALL' });
const checklistStatus = enumMapping<'open' | 'done', PhotosChecklistStatus>({ open: 'OPEN', done: 'DONE' });
const CHECKLIST_READ = ['checklists:read', { capture: true }] as const;

interface ListArgs {
  projectId?: string | null;
  status?: PhotosChecklistStatusFilter | null;
  mine?: boolean | null;
  page?: number | null;
}

/** GraphQL list arguments through the REST query's schema: the same checks and 422 field names. */
function listQueryOf(args: ListArgs): ChecklistListQuery {
  return checklistListQueryOf({
    project: args.projectId ?? undefined,
    status: args.status ? statusFilter.fromGraphql(args.status) : undefined,
    mine: args.mine ? '1' : undefined,
    page: args.page == null ? undefined : String(args.page),
  });
}

/** The GraphQL input as the REST create body, so both are checked by one schema and errors name the REST fields. */
function createBody(input: CreatePhotosChecklistInput) {
  return {
    project_id: idInput(input.projectId),
    title: input.title,
    items: input.items.map(newItem),
  };
}

function newItem(item: PhotosChecklistItemInput) {
  return definedOnly({ title: item.title, requires_photo: item.requiresPhoto ?? undefined, assignee_id: item.assigneeId == null ? undefined : idInput(item.assigneeId) });
}

function updateBody(input: UpdatePhotosChecklistInput) {
  return definedOnly({ title: input.title ?? undefined, add_items: input.addItems?.map(newItem) });
}

function itemBody(input: UpdatePhotosChecklistItemInput) {
  return definedOnly({
    ticked: input.ticked ?? undefined,
    attach_photo_ids: input.attachPhotoIds?.map(idInput),
    detach_photo_ids: input.detachPhotoIds?.map(idInput),
    note: input.note,
  });
}

// Typed by the Resolvers generated from schema/subgraphs/photos.graphql (PhotosChecklist's parent is the entity).
export const checklistResolvers = {
  Query: {
    photosChecklist: async (_parent, args, ctx) => ctx.checklists.findVisible(await ctx.principalWith(...CHECKLIST_READ), args.id),
  },
  Mutation: {
    createPhotosChecklist: async (_parent, { input }, ctx) => ctx.checklists.create(await ctx.principalWith('checklists:write'), createBody(input)),
    updatePhotosChecklist: async (_parent, { id, input }, ctx) => ctx.checklists.update(await ctx.principalWith('checklists:write'), id, updateBody(input)),
    updatePhotosChecklistItem: async (_parent, { id, input }, ctx) => ctx.checklists.updateItem(await ctx.principalWith('checklists:write', { capture: true }), id, itemBody(input)),
  },
  PhotosTeam: {
    checklists: async (_team, args, ctx) => ctx.checklists.list(await ctx.principalWith(...CHECKLIST_READ), listQueryOf(args)),
  },
  PhotosProject: {
    checklists: async (project, args, ctx) => ctx.checklists.list(await ctx.principalWith(...CHECKLIST_READ), { ...listQueryOf(args), projectId: project.id }),
  },
  PhotosChecklist: {
    id: (checklist) => String(checklist.id),
    status: (checklist) => checklistStatus(checklist.progress().status),
    progress: (checklist) => checklist.progress(),
    createdBy: (checklist) => checklist.createdBy ?? null,
    createdAt: (checklist) => checklist.createdAt.toISOString(),
    updatedAt: (checklist) => checklist.updatedAt.toISOString(),
    items: (checklist) => checklist.items.getItems(),
  },
  PhotosChecklistItem: {
    id: (item) => String(item.id),
    checklistId: (item) => String(item.checklist.id),
    assignee: (item) => item.assignee ?? null,
    ticked: (item) => item.isTicked(),
    tickedAt: (item) => item.tickedAt?.toISOString() ?? null,
    tickedBy: (item) => (item.isTicked() ? (item.tickedBy ?? null) : null),
    evidence: (item) => ({ note: item.note ?? null, photos: item.evidence.getItems().map((evidence) => evidence.photo) }),
    updatedAt: (item) => item.updatedAt.toISOString(),
  },
  PhotosUserRef: {
    id: (user) => String(user.id),
  },
} satisfies Resolvers;
