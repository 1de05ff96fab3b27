// How an upload or an edit decides a photo's project (spec: assignment.source, distance_m, reason). Pure: the matching
// decision comes from ProjectService.matchCapture, the chosen project from the caller.
//   gps         matching found exactly one project: distance_m is the fix's distance to its centre
//   manual      the upload named project_id
//   corrected   a PATCH moved the photo to another project
//   unassigned  no project: reason is matching's (ambiguous, low_accuracy, outside_radius, no_fix); distance_m null
// For manual and corrected, distance_m is the fix's distance to the project's centre when both are known, else null.
import { greatCircleDistanceM, type MatchDecision, type UnassignedReason } from '../projects/index.js';
import type { AssignmentSource } from './photo.entity.js';

export interface LocatedProject {
  coordinates(): { lat: number; lng: number } | null;
}

export interface Assignment<P> {
  project: P | null;
  source: AssignmentSource;
  distanceM: number | null;
  reason: UnassignedReason | null;
}

export interface Fix {
  lat: number | null;
  lng: number | null;
}

export function assignmentFromMatch<P>(decision: MatchDecision<P>): Assignment<P> {
  if (decision.decision === 'matched') return { project: decision.project, source: 'gps', distanceM: decision.distanceM, reason: null };
  return { project: null, source: 'unassigned', distanceM: null, reason: decision.reason };
}

export function chosenAssignment<P extends LocatedProject>(project: P, fix: Fix, source: 'manual' | 'corrected'): Assignment<P> {
  const centre = project.coordinates();
  const distanceM = centre && fix.lat !== null && fix.lng !== null ? greatCircleDistanceM({ lat: fix.lat, lng: fix.lng }, centre) : null;
  return { project, source, distanceM, reason: null };
}
