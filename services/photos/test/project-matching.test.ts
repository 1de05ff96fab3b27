// GPS matching that never guesses (README Decisions "GPS matching"), on the pure decision.
import { describe, expect, it } from '@jest/globals';
import {
  boundingBox,
  decideProjectMatch,
  greatCircleDistanceM,
  usableFix,
  type MatchableProject,
} from '../src/modules/projects/project-matching.js';

/** A point `northM` metres north and `eastM` metres east of (lat, lng), on the sphere (small offsets). */
function offset(lat: number, lng: number, northM: number, eastM: number) {
  const metresPerDegree = (6_371_008.8 * Math.PI) / 180;
  return { lat: lat + northM / metresPerDegree, lng: lng + eastM / (metresPerDegree * Math.cos((lat * Math.PI) / 180)) };
}

const site = { lat: -36.8433, lng: 174.7676 };
const project = (name: string, at: { lat: number; lng: number }, radiusM = 100): MatchableProject<string> => ({ project: name, ...at, radiusM });
const THRESHOLD = 50;

describe('great-circle distance', () => {
  it('is 0 for the same point and symmetric', () => {
    expect(greatCircleDistanceM(site, site)).toBe(0);
    const other = offset(site.lat, site.lng, 300, -400);
    expect(greatCircleDistanceM(site, other)).toBeCloseTo(greatCircleDistanceM(other, site), 9);
  });

  it('measures 500 m as 500 m (3-4-5 offsets)', () => {
    expect(greatCircleDistanceM(site, offset(site.lat, site.lng, 300, 400))).toBeCloseTo(500, 0);
  });

  it('measures a known long distance: Auckland to Wellington ~ 494 km', () => {
    expect(greatCircleDistanceM({ lat: -36.8485, lng: 174.7633 }, { lat: -41.2865, lng: 174.7762 }) / 1000).toBeCloseTo(493.4, 0);
  });
});

describe('usableFix', () => {
  it.each([
    ['missing lat', { lng: 1, accuracyM: 5 }],
    ['missing accuracy', { lat: 1, lng: 1 }],
    ['NaN', { lat: Number.NaN, lng: 1, accuracyM: 5 }],
    ['Infinity accuracy', { lat: 1, lng: 1, accuracyM: Number.POSITIVE_INFINITY }],
    ['lat out of range', { lat: 90.0001, lng: 1, accuracyM: 5 }],
    ['lng out of range', { lat: 1, lng: -180.5, accuracyM: 5 }],
    ['negative accuracy', { lat: 1, lng: 1, accuracyM: -1 }],
  ])('refuses %s', (_label, fix) => {
    expect(usableFix(fix)).toBeNull();
  });

  it('accepts the edges: poles, the antimeridian, accuracy 0', () => {
    expect(usableFix({ lat: 90, lng: 180, accuracyM: 0 })).toEqual({ lat: 90, lng: 180, accuracyM: 0 });
  });
});

describe('decideProjectMatch', () => {
  const a = project('A', site, 100);

  it('no fix: unassigned no_fix, no candidates', () => {
    expect(decideProjectMatch(null, [a], THRESHOLD)).toEqual({ decision: 'unassigned', reason: 'no_fix', candidates: [] });
    expect(decideProjectMatch({ lat: site.lat, lng: site.lng }, [a], THRESHOLD)).toMatchObject({ reason: 'no_fix' });
  });

  it('accuracy worse than the threshold: low_accuracy even at the very centre of one project', () => {
    const decision = decideProjectMatch({ ...site, accuracyM: THRESHOLD + 0.1 }, [a], THRESHOLD);
    expect(decision).toMatchObject({ decision: 'unassigned', reason: 'low_accuracy' });
    expect(decision.candidates.map((c) => c.project)).toEqual(['A']);
  });

  it('accuracy exactly at the threshold is still usable', () => {
    expect(decideProjectMatch({ ...site, accuracyM: THRESHOLD }, [a], THRESHOLD)).toMatchObject({ decision: 'matched', project: 'A' });
  });

  it('inside one project: matched with the distance', () => {
    const fix = { ...offset(site.lat, site.lng, 30, 40), accuracyM: 10 };
    const decision = decideProjectMatch(fix, [a], THRESHOLD);
    expect(decision).toMatchObject({ decision: 'matched', project: 'A' });
    expect(decision.decision === 'matched' && decision.distanceM).toBeCloseTo(50, 0);
  });

  it('outside the radius but within radius + accuracy of only one project: matched (nothing else could contain it)', () => {
    const fix = { ...offset(site.lat, site.lng, 120, 0), accuracyM: 30 };
    expect(decideProjectMatch(fix, [a], THRESHOLD)).toMatchObject({ decision: 'matched', project: 'A' });
  });

  it('beyond radius + accuracy of every project: outside_radius, candidates still reported', () => {
    const fix = { ...offset(site.lat, site.lng, 140, 0), accuracyM: 30 };
    const decision = decideProjectMatch(fix, [a], THRESHOLD);
    expect(decision).toMatchObject({ decision: 'unassigned', reason: 'outside_radius' });
    expect(decision.candidates).toEqual([expect.objectContaining({ project: 'A', couldContain: false })]);
  });

  it('two circles that could both contain the fix: ambiguous, never the nearest', () => {
    const b = project('B', offset(site.lat, site.lng, 0, 180), 100);
    // 80 m from A's centre, 100 m from B's: inside both radii.
    const fix = { ...offset(site.lat, site.lng, 0, 80), accuracyM: 5 };
    const decision = decideProjectMatch(fix, [a, b], THRESHOLD);
    expect(decision).toMatchObject({ decision: 'unassigned', reason: 'ambiguous' });
    expect(decision.candidates.map((c) => [c.project, c.couldContain])).toEqual([['A', true], ['B', true]]);
  });

  it('inside one radius, but the uncertainty reaches a neighbour: ambiguous', () => {
    const b = project('B', offset(site.lat, site.lng, 0, 250), 100);
    // 90 m from A (inside), 160 m from B: B could contain the fix once accuracy_m >= 60.
    expect(decideProjectMatch({ ...offset(site.lat, site.lng, 0, 90), accuracyM: 40 }, [a, b], THRESHOLD)).toMatchObject({ decision: 'matched', project: 'A' });
    expect(decideProjectMatch({ ...offset(site.lat, site.lng, 0, 90), accuracyM: 45 }, [a, b], 100)).toMatchObject({ decision: 'matched', project: 'A' });
    expect(decideProjectMatch({ ...offset(site.lat, site.lng, 0, 90), accuracyM: 70 }, [a, b], 100)).toMatchObject({ decision: 'unassigned', reason: 'ambiguous' });
  });

  it('candidates come back nearest first', () => {
    const far = project('far', offset(site.lat, site.lng, 2000, 0));
    const near = project('near', offset(site.lat, site.lng, 500, 0));
    const decision = decideProjectMatch({ ...site, accuracyM: 5 }, [far, near, a], THRESHOLD);
    expect(decision.candidates.map((c) => c.project)).toEqual(['A', 'near', 'far']);
  });
});

describe('boundingBox', () => {
  it('holds every point at the distance in each direction', () => {
    const box = boundingBox(site, 5000);
    for (const [n, e] of [[5000, 0], [-5000, 0], [0, 5000], [0, -5000], [3535, 3535]] as const) {
      const point = offset(site.lat, site.lng, n * 0.999, e * 0.999);
      expect(point.lat).toBeGreaterThanOrEqual(box.minLat);
      expect(point.lat).toBeLessThanOrEqual(box.maxLat);
      expect(point.lng).toBeGreaterThanOrEqual(box.minLng);
      expect(point.lng).toBeLessThanOrEqual(box.maxLng);
    }
  });

  it('gives up on longitude across the antimeridian and near a pole', () => {
    expect(boundingBox({ lat: 0, lng: 179.99 }, 5000)).toMatchObject({ minLng: -180, maxLng: 180 });
    expect(boundingBox({ lat: 89.99, lng: 10 }, 5000)).toMatchObject({ minLng: -180, maxLng: 180, maxLat: 90 });
  });
});
