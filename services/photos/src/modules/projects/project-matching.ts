// Matching a capture's GPS fix to a project, which never guesses (spec "What the service does"). Pure: the candidates
// come from the repository's indexed query, the decision is made here.
//
// Geometry (decided here, see the README's Decisions table): a fix is a point with an uncertainty circle of radius
// accuracy_m; a project with coordinates is a circle of radius radius_m. The distance between the two centres is the
// great-circle (haversine) distance on a sphere of the Earth's mean radius. A project *could contain* the fix when the
// two circles touch: distance_m <= radius_m + accuracy_m. The decision:
//   no_fix          no usable fix (lat, lng or accuracy_m missing or out of range)
//   low_accuracy    accuracy_m is worse than the team's accuracy threshold
//   outside_radius  no project could contain the fix
//   ambiguous       more than one project could contain the fix (the nearest is never picked)
//   matched         exactly one project could contain the fix

export const EARTH_MEAN_RADIUS_M = 6_371_008.8;
/** The largest radius_m a project may have, metres: bounds the area a match has to search. */
export const MAX_PROJECT_RADIUS_M = 5_000;

export const UNASSIGNED_REASONS = ['ambiguous', 'low_accuracy', 'outside_radius', 'no_fix'] as const;
export type UnassignedReason = (typeof UNASSIGNED_REASONS)[number];

/** A GPS fix as the capture app reports it; any part may be missing. */
export interface CaptureFix {
  lat?: number | null | undefined;
  lng?: number | null | undefined;
  accuracyM?: number | null | undefined;
}

/** A fix that passed the checks: a real point with a real uncertainty. */
export interface UsableFix {
  lat: number;
  lng: number;
  accuracyM: number;
}

/** A project with coordinates, as matching sees it. */
export interface MatchableProject<P = unknown> {
  project: P;
  lat: number;
  lng: number;
  radiusM: number;
}

export interface MatchCandidate<P = unknown> extends MatchableProject<P> {
  /** Great-circle distance from the fix to the project's centre, metres. */
  distanceM: number;
  /** Whether the fix's uncertainty circle touches the project's circle (distance_m <= radius_m + accuracy_m). */
  couldContain: boolean;
}

export type MatchDecision<P = unknown> =
  | { decision: 'matched'; project: P; distanceM: number; candidates: MatchCandidate<P>[] }
  | { decision: 'unassigned'; reason: UnassignedReason; candidates: MatchCandidate<P>[] };

/** The fix, when it is one: finite lat in [-90, 90], lng in [-180, 180], accuracy_m >= 0. */
export function usableFix(fix: CaptureFix | null | undefined): UsableFix | null {
  if (!fix) return null;
  const { lat, lng, accuracyM } = fix;
  if (!isFiniteNumber(lat) || !isFiniteNumber(lng) || !isFiniteNumber(accuracyM)) return null;
  if (lat < -90 || lat > 90 || lng < -180 || lng > 180 || accuracyM < 0) return null;
  return { lat, lng, accuracyM };
}

/** Haversine distance in metres. */
export function greatCircleDistanceM(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const toRad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * toRad;
  const dLng = (b.lng - a.lng) * toRad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * toRad) * Math.cos(b.lat * toRad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_MEAN_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A latitude/longitude box that holds every point within `distanceM` of the centre: what the repository's indexed
 * query asks for before the exact distance is computed here. Longitude spans widen towards the poles; near a pole or
 * across the antimeridian the box gives up on longitude (the whole band of latitudes is asked for).
 */
export function boundingBox(center: { lat: number; lng: number }, distanceM: number): { minLat: number; maxLat: number; minLng: number; maxLng: number } {
  const dLat = (distanceM / EARTH_MEAN_RADIUS_M) * (180 / Math.PI);
  const minLat = Math.max(-90, center.lat - dLat);
  const maxLat = Math.min(90, center.lat + dLat);
  const widestCos = Math.min(Math.cos(minLat * (Math.PI / 180)), Math.cos(maxLat * (Math.PI / 180)));
  const dLng = widestCos <= 1e-9 ? 360 : dLat / widestCos;
  if (dLng >= 180 || center.lng - dLng < -180 || center.lng + dLng > 180) return { minLat, maxLat, minLng: -180, maxLng: 180 };
  return { minLat, maxLat, minLng: center.lng - dLng, maxLng: center.lng + dLng };
}

/**
 * How far from the fix a project's centre may lie and still matter: the largest project radius plus the fix's
 * accuracy, capped at the team's threshold (a worse fix is low_accuracy whatever lies around it).
 */
export function searchDistanceM(fix: UsableFix, accuracyThresholdM: number): number {
  return MAX_PROJECT_RADIUS_M + Math.min(fix.accuracyM, accuracyThresholdM);
}

/** Every candidate with its distance, nearest first (ties by the caller's order). */
export function measureCandidates<P>(fix: UsableFix, projects: readonly MatchableProject<P>[]): MatchCandidate<P>[] {
  return projects
    .map((candidate) => {
      const distanceM = greatCircleDistanceM(fix, candidate);
      return { ...candidate, distanceM, couldContain: distanceM <= candidate.radiusM + fix.accuracyM };
    })
    .sort((a, b) => a.distanceM - b.distanceM);
}

/**
 * The decision for one capture. `projects` must include every project whose circle could contain the fix (the
 * repository asks for a box of radius max(radius_m) + accuracy_m); extra ones are harmless.
 */
export function decideProjectMatch<P>(fix: CaptureFix | null | undefined, projects: readonly MatchableProject<P>[], accuracyThresholdM: number): MatchDecision<P> {
  const usable = usableFix(fix);
  if (!usable) return { decision: 'unassigned', reason: 'no_fix', candidates: [] };
  const candidates = measureCandidates(usable, projects);
  if (usable.accuracyM > accuracyThresholdM) return { decision: 'unassigned', reason: 'low_accuracy', candidates };
  const containing = candidates.filter((candidate) => candidate.couldContain);
  if (containing.length === 0) return { decision: 'unassigned', reason: 'outside_radius', candidates };
  if (containing.length > 1) return { decision: 'unassigned', reason: 'ambiguous', candidates };
  const [only] = containing as [MatchCandidate<P>];
  return { decision: 'matched', project: only.project, distanceM: only.distanceM, candidates };
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
