// The project as the Decisions table fixes it, its paginated list (`{data, meta}`), the project with counts and the
// nearby decision.
import type { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import type { Project } from './project.entity.js';
import type { nearbyResponse, projectDetailResponse, projectListResponse, projectResource } from './project.openapi.js';
import type { NearbyProjects, ProjectPage, ProjectWithCounts } from './project.service.js';

export function presentProject(project: Project): z.input<typeof projectResource> {
  const coordinates = project.coordinates();
  return {
    id: project.id,
    name: project.name,
    status: project.status,
    address: project.address ?? null,
    coordinates: coordinates ? { lat: coordinates.lat, lng: coordinates.lng, radius_m: coordinates.radiusM } : null,
    // The service loads the customer with every project it answers (ProjectService.withCustomers).
    customer: project.customer ? { id: project.customer.id, name: project.customer.name } : null,
    created_at: project.createdAt.toISOString(),
    last_activity_at: project.lastActivityAt.toISOString(),
  };
}

export function presentProjectPage(page: ProjectPage): z.input<typeof projectListResponse> {
  return {
    data: page.items.map(presentProject),
    meta: {
      current_page: page.page,
      per_page: page.perPage,
      total: page.total,
      last_page: Math.max(1, Math.ceil(page.total / page.perPage)),
    },
  };
}

export function projectPath(project: Project): string {
  return `${REST_BASE}/projects/${project.id}`;
}

export function presentProjectWithCounts({ project, counts }: ProjectWithCounts): z.input<typeof projectDetailResponse> {
  return { data: { ...presentProject(project), counts } };
}

export function presentNearby({ match, fix, accuracyThresholdM }: NearbyProjects): z.input<typeof nearbyResponse> {
  const matched = match.decision === 'matched';
  return {
    data: {
      decision: match.decision,
      reason: matched ? null : match.reason,
      project: matched ? presentProject(match.project) : null,
      distance_m: matched ? match.distanceM : null,
      fix: fix ? { lat: fix.lat, lng: fix.lng, accuracy_m: fix.accuracyM } : null,
      accuracy_threshold_m: accuracyThresholdM,
      candidates: match.candidates.map((candidate) => ({
        project: presentProject(candidate.project),
        distance_m: candidate.distanceM,
        radius_m: candidate.radiusM,
        could_contain: candidate.couldContain,
      })),
    },
  };
}
