import { enumMapping, parseInput } from '@tributary/kit';
import type { PhotosAssignmentSource, PhotosMediaType, PhotosUnassignedReason, Resolvers } from '../../graphql/resolvers-types.js';
import type { UnassignedReason } from '../projects/index.js';
import type { AssignmentSource, MediaType } from './photo.entity.js';
import { editPhotoBody, listPhotosQuery, photoChangesOf, photoListQueryOf, type PhotoChanges, type PhotoListQuery } from './photo.validation.js';

const assignmentSource = enumMapping<AssignmentSource, PhotosAssignmentSource>({ gps: 'GPS', manual: 'MANUAL', corrected: 'CORRECTED', unassigned: 'UNASSIGNED' });
const unassignedReason = enumMapping<UnassignedReason, PhotosUnassignedReason>({ ambiguous: 'AMBIGUOUS', low_accuracy: 'LOW_ACCURACY', outside_radius: 'OUTSIDE_RADIUS', no_fix: 'NO_FIX' });
const mediaType = enumMapping<MediaType, PhotosMediaType>({ photo: 'PHOTO', video: 'VIDEO' });

interface ListArgs {
  projectId?: string | null;
  tag?: string | null;
  source?: PhotosAssignmentSource | null;
  capturedFrom?: string | null;
  capturedTo?: string | null;
  page?: number | null;
}

/** GraphQL list arguments through the REST query's schema: the same checks and the same 422 field names. */
function listQueryOf(args: ListArgs): PhotoListQuery {
  const raw = {
    project: args.projectId ?? undefined,
    tag: args.tag ?? undefined,
    source: args.source ? assignmentSource.fromGraphql(args.source) : undefined,
    captured_from: args.capturedFrom ?? undefined,
    captured_to: args.capturedTo ?? undefined,
    page: args.page == null ? undefined : String(args.page),
  };
  return photoListQueryOf(parseInput(listPhotosQuery, raw));
}

interface EditInput {
  caption?: string | null;
  description?: string | null;
  tags?: string[] | null;
  projectId?: string | null;
}

/**
 * The edit input through the PATCH body's schema (null meaning "not given"): the same checks, the caption's alias rule
 * and the same 422 field names. An ID that is not digits stays text, which the schema refuses on `project`.
 */
function changesOf(input: EditInput): PhotoChanges {
  const raw = {
    caption: input.caption ?? undefined,
    description: input.description ?? undefined,
    tags: input.tags ?? undefined,
    project: input.projectId == null ? undefined : /^\d{1,10}$/.test(input.projectId) ? Number(input.projectId) : input.projectId,
  };
  return photoChangesOf(parseInput(editPhotoBody, raw));
}

// Typed by the Resolvers generated from schema/subgraphs/photos.graphql (PhotosPhoto's parent is the Photo entity).
export const photoResolvers = {
  Mutation: {
    updatePhotosPhoto: async (_parent, args, ctx) => ctx.photos.edit(await ctx.principalWith('photos:write'), args.id, changesOf(args.input)),
  },
  PhotosTeam: {
    photos: async (_team, args, ctx) => ctx.photos.list(await ctx.principalWith('photos:read'), listQueryOf(args)),
  },
  PhotosProject: {
    photos: async (project, args, ctx) => ctx.photos.list(await ctx.principalWith('photos:read'), { ...listQueryOf(args), projectId: project.id }),
  },
  PhotosPhoto: {
    __resolveReference: async (ref, ctx) => ctx.photos.findVisible(await ctx.principalWith('photos:read'), ref.id),
    id: (photo) => String(photo.id),
    localCaptureId: (photo) => photo.localCaptureId,
    project: (photo) => photo.project ?? null,
    capturedAt: (photo) => photo.capturedAt?.toISOString() ?? null,
    uploadedAt: (photo) => photo.uploadedAt.toISOString(),
    mediaType: (photo) => mediaType(photo.mediaType),
    location: (photo) => photo.location(),
    assignment: (photo) => ({
      source: assignmentSource(photo.assignmentSource),
      distanceM: photo.distanceM ?? null,
      reason: photo.unassignedReason ? unassignedReason(photo.unassignedReason) : null,
    }),
    urls: (photo, _args, ctx) => ({
      full: ctx.mediaUrls.url(photo.id, 'full'),
      thumb: ctx.mediaUrls.url(photo.id, 'thumb'),
      annotated: null,
      poster: photo.mediaType === 'video' && photo.posterKey ? ctx.mediaUrls.url(photo.id, 'poster') : null,
    }),
    durationSeconds: (photo) => photo.durationSeconds ?? null,
  },
} satisfies Resolvers;
