import { enumMapping } from '@tributary/kit';
import type { CreatePhotosProjectInput, PhotosMatchDecision, PhotosProjectStatus, PhotosUnassignedReason, Resolvers } from '../../graphql/resolvers-types.js';
import type { ProjectStatus } from './project.entity.js';
import type { UnassignedReason } from './project-matching.js';

const projectStatus = enumMapping<ProjectStatus, PhotosProjectStatus>({ active: 'ACTIVE', archived: 'ARCHIVED' });
const matchDecision = enumMapping<'matched' | 'unassigned', PhotosMatchDecision>({ matched: 'MATCHED', unassigned: 'UNASSIGNED' });
const unassignedReason = enumMapping<UnassignedReason, PhotosUnassignedReason>({
  ambiguous: 'AMBIGUOUS',
  low_accuracy: 'LOW_ACCURACY',
  outside_radius: 'OUTSIDE_RADIUS',
  no_fix: 'NO_FIX',
});

/** The GraphQL input as the REST create body, so both are checked by one schema and errors name the REST fields. */
function createBody(input: CreatePhotosProjectInput): Record<string, unknown> {
  return {
    name: input.name,
    address: input.address,
    coordinates: input.coordinates,
    ...(input.radiusM == null ? {} : { radius_m: input.radiusM }),
    // An ID that is not digits fails the body's check (a number is expected).
    ...(input.customerId == null ? {} : { customer_id: /^\d{1,10}$/.test(input.customerId) ? Number(input.customerId) : input.customerId }),
  };
}

// Typed by the Resolvers generated from schema/subgraphs/photos.graphql (PhotosProject's parent is the Project entity,
// PhotosNearbyDecision's the service's NearbyProjects).
export const projectResolvers = {
  Query: {
    photosProjects: async (_parent, _args, ctx) => (await ctx.projects.list(await ctx.principalWith('projects:read'), {})).items,
    photosNearbyProjects: async (_parent, args, ctx) =>
      ctx.projects.nearby(await ctx.principalWith('projects:read', { capture: true }), { lat: args.lat, lng: args.lng, accuracyM: args.accuracyM }),
  },
  Mutation: {
    createPhotosProject: async (_parent, { input, idempotencyKey }, ctx) =>
      (await ctx.projects.create(await ctx.principalWith('projects:write'), createBody(input), { idempotencyKey })).project,
  },
  PhotosProject: {
    // _entities enforces authentication like every other field: no principal, no data.
    __resolveReference: async (ref, ctx) => ctx.projects.findVisibleProject(await ctx.principalWith('projects:read'), ref.id),
    id: (project) => String(project.id),
    status: (project) => projectStatus(project.status),
    address: (project) => project.address ?? null,
    coordinates: (project) => project.coordinates(),
    team: async (_project, _args, ctx) => ctx.teams.getTeam(await ctx.principal()),
    createdAt: (project) => project.createdAt.toISOString(),
    lastActivityAt: (project) => project.lastActivityAt.toISOString(),
    counts: async (project, _args, ctx) => Object.entries(await ctx.projects.countsOf(project)).map(([key, count]) => ({ key, count })),
  },
  PhotosNearbyDecision: {
    decision: (nearby) => matchDecision(nearby.match.decision),
    reason: (nearby) => (nearby.match.decision === 'unassigned' ? unassignedReason(nearby.match.reason) : null),
    project: (nearby) => (nearby.match.decision === 'matched' ? nearby.match.project : null),
    distanceM: (nearby) => (nearby.match.decision === 'matched' ? nearby.match.distanceM : null),
    fix: (nearby) => nearby.fix,
    accuracyThresholdM: (nearby) => nearby.accuracyThresholdM,
    candidates: (nearby) => nearby.match.candidates,
  },
  PhotosNearbyCandidate: {
    project: (candidate) => candidate.project,
    distanceM: (candidate) => candidate.distanceM,
    radiusM: (candidate) => candidate.radiusM,
    couldContain: (candidate) => candidate.couldContain,
  },
} satisfies Resolvers;
