// Projects over real HTTP against the real database: create (idempotent), one project with counts, the nearby decision
// and the candidate index (README Decisions "Project create", "Project counts", "Nearby", "Matching index").
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IDEMPOTENCY_MESSAGES } from '@tributary/kit';
import { IDEMPOTENT_RETRY_BURST } from '@tributary/kit/testing';
import type { PhotosPrincipal } from '../src/modules/auth/index.js';
import { NEARBY_CANDIDATES_MAX, Project, ProjectService, type ProjectCountSource } from '../src/modules/projects/index.js';
import { Team } from '../src/modules/teams/index.js';
import { createTeam as createTestTeam, gql, startHarness, type Harness } from './helpers.js';

let h: Harness;
let url: string;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const json = (token: string, extra: Record<string, string> = {}) => ({ ...bearer(token), 'content-type': 'application/json', ...extra });

beforeAll(async () => {
  h = await startHarness();
  url = h.service.url;
});
afterAll(async () => {
  await h?.close();
});

const createTeam = (name: string, token?: Parameters<typeof createTestTeam>[2]) => createTestTeam(h, name, token);

/** A point `northM` metres north and `eastM` metres east of `at` (small offsets on the sphere). */
function offset(at: { lat: number; lng: number }, northM: number, eastM: number) {
  const metresPerDegree = (6_371_008.8 * Math.PI) / 180;
  return { lat: at.lat + northM / metresPerDegree, lng: at.lng + eastM / (metresPerDegree * Math.cos((at.lat * Math.PI) / 180)) };
}

async function postProject(token: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/api/v1/projects`, { method: 'POST', headers: json(token, headers), body: JSON.stringify(body) });
  return { res, body: (await res.json()) as { data: Record<string, unknown> & { id: number }; error?: { code: string; fields?: Record<string, string[]> } } };
}

describe('POST /api/v1/projects', () => {
  it('creates a project with coordinates; radius_m defaults to the team setting; 201 with Location', async () => {
    const team = await createTeam('Create Team');
    await h.orm.em.fork().nativeUpdate(Team, { id: team.team.id }, { defaultMatchRadiusM: 120 });
    const { res, body } = await postProject(team.token, { name: '  Quay Street  ', address: '1 Quay St', coordinates: { lat: -36.84, lng: 174.76 } });
    expect(res.status).toBe(201);
    expect(body.data).toMatchObject({ name: 'Quay Street', status: 'active', address: '1 Quay St', coordinates: { lat: -36.84, lng: 174.76, radius_m: 120 } });
    expect(res.headers.get('location')).toBe(`/api/v1/projects/${body.data.id}`);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    const got = await fetch(`${url}${res.headers.get('location')}`, { headers: bearer(team.token) });
    // A new project holds nothing yet: the registered sources (photos, photo groups) report zeros.
    expect(await got.json()).toEqual({ data: { ...body.data, counts: { photos: 0, videos: 0, photo_groups: 0, open_tasks: 0 } } });
  });

  it('without coordinates: coordinates null (never matched); an explicit radius needs coordinates', async () => {
    const team = await createTeam('No Coordinates Team');
    const { res, body } = await postProject(team.token, { name: 'Office fit-out' });
    expect(res.status).toBe(201);
    expect(body.data).toMatchObject({ name: 'Office fit-out', address: null, coordinates: null });
    const refused = await postProject(team.token, { name: 'Radius only', radius_m: 200 });
    expect(refused.res.status).toBe(422);
    expect(refused.body.error?.fields).toEqual({ radius_m: ['Only allowed with coordinates.'] });
  });

  it('refuses invalid bodies with 422 naming every field, and creates nothing', async () => {
    const team = await createTeam('Invalid Body Team');
    const cases: Array<[unknown, string[]]> = [
      [{}, ['name']],
      [{ name: '   ' }, ['name']],
      [{ name: 'x'.repeat(192) }, ['name']],
      [{ name: 'A', coordinates: { lat: 91, lng: 0 } }, ['coordinates.lat']],
      [{ name: 'A', coordinates: { lat: 0, lng: -181 } }, ['coordinates.lng']],
      [{ name: 'A', coordinates: { lat: '1', lng: 2 } }, ['coordinates.lat']],
      [{ name: 'A', coordinates: { lat: 0, lng: 0 }, radius_m: 9 }, ['radius_m']],
      [{ name: 'A', coordinates: { lat: 0, lng: 0 }, radius_m: 5001 }, ['radius_m']],
      [{ name: 'A', status: 'archived' }, ['status']],
      [{ name: 'A\u0000' }, ['name']],
      [[1, 2], ['body']],
    ];
    for (const [payload, fields] of cases) {
      const { res, body } = await postProject(team.token, payload);
      expect({ payload, status: res.status, fields: Object.keys(body.error?.fields ?? {}).sort() }).toEqual({ payload, status: 422, fields });
    }
    const bounds = await postProject(team.token, { name: 'Bounds', coordinates: { lat: 0, lng: 0 }, radius_m: 5000 });
    expect(bounds.res.status).toBe(201);
    expect(await h.orm.em.fork().count(Project, { team: team.team.id })).toBe(2); // the factory's project and Bounds
  });

  it('a member may create projects; a token without projects:write (a device token too) gets 403 naming it', async () => {
    const member = await createTeam('Member Team');
    expect(member.membership.role).toBe('member');
    expect((await postProject(member.token, { name: 'By a member' })).res.status).toBe(201);
    for (const abilities of [['projects:read'], ['capture']]) {
      const scoped = await createTeam(`Scoped ${abilities[0]}`, { abilities });
      const { res, body } = await postProject(scoped.token, { name: 'Refused' });
      expect(res.status).toBe(403);
      expect(body).toMatchObject({ error: { code: 'forbidden', missing_scope: 'projects:write' } });
    }
    const writer = await createTeam('Writer Team', { abilities: ['projects:write'] });
    expect((await postProject(writer.token, { name: 'By an integration' })).res.status).toBe(201);
  });
});

describe('Idempotency-Key on POST /api/v1/projects', () => {
  const body = { name: 'Retried site', coordinates: { lat: -41.29, lng: 174.78 }, radius_m: 80 };

  it('the same key and body answer 201 with the first project (Idempotent-Replayed); another body is 422', async () => {
    const team = await createTeam('Idempotent Team');
    const first = await postProject(team.token, body, { 'Idempotency-Key': 'site-42' });
    const again = await postProject(team.token, { radius_m: 80, coordinates: { lng: 174.78, lat: -41.29 }, name: ' Retried site ' }, { 'Idempotency-Key': 'site-42' });
    expect(again.res.status).toBe(201);
    expect(again.res.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    const other = await postProject(team.token, { ...body, radius_m: 90 }, { 'Idempotency-Key': 'site-42' });
    expect(other.res.status).toBe(422);
    expect(other.body.error).toMatchObject({ code: 'idempotency_key_reused', fields: { 'Idempotency-Key': [IDEMPOTENCY_MESSAGES.reused] } });
    expect(await h.orm.em.fork().count(Project, { team: team.team.id, name: 'Retried site' })).toBe(1);
  });

  it('concurrent creates with one key make one project; keys are per team', async () => {
    const team = await createTeam('Concurrent Team');
    const results = await Promise.all(Array.from({ length: IDEMPOTENT_RETRY_BURST }, () => postProject(team.token, body, { 'Idempotency-Key': 'race' })));
    expect(results.map((r) => r.res.status)).toEqual(Array(IDEMPOTENT_RETRY_BURST).fill(201));
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(results.filter((r) => r.res.headers.get('idempotent-replayed') === 'true')).toHaveLength(IDEMPOTENT_RETRY_BURST - 1);
    expect(await h.orm.em.fork().count(Project, { team: team.team.id, name: 'Retried site' })).toBe(1);
    const otherTeam = await createTeam('Other Key Team');
    const other = await postProject(otherTeam.token, body, { 'Idempotency-Key': 'race' });
    expect(other.res.status).toBe(201);
    expect(other.body.data.id).not.toBe(results[0]!.body.data.id);
  });

  it('a malformed key is a 422 on the header, reported with the body\'s problems', async () => {
    const team = await createTeam('Malformed Key Team');
    const { res, body: answer } = await postProject(team.token, {}, { 'Idempotency-Key': 'has space' });
    expect(res.status).toBe(422);
    expect(Object.keys(answer.error?.fields ?? {}).sort()).toEqual(['Idempotency-Key', 'name']);
  });
});

describe('GET /api/v1/projects/{project}', () => {
  it("answers 404 for another team's project, unknown ids and ids that are not digits", async () => {
    const own = await createTeam('Own Team');
    const other = await createTeam('Foreign Project Team');
    for (const id of [String(other.project.id), '999999999', 'abc', '1.5', '99999999999']) {
      const res = await fetch(`${url}/api/v1/projects/${id}`, { headers: bearer(own.token) });
      expect({ id, status: res.status, code: ((await res.json()) as { error: { code: string } }).error.code }).toEqual({ id, status: 404, code: 'not_found' });
    }
    const res = await fetch(`${url}/api/v1/projects/${own.project.id}`, { headers: bearer(own.token) });
    expect(await res.json()).toMatchObject({ data: { id: own.project.id, coordinates: null, counts: { photos: 0, videos: 0, photo_groups: 0, open_tasks: 0 } } });
  });

  it('merges the counts of every registered source (a later source wins a shared key)', async () => {
    const team = await createTeam('Counts Team');
    const seen: Array<[number, number]> = [];
    const photos: ProjectCountSource = {
      countsFor: async (teamId, projectId) => {
        seen.push([teamId, projectId]);
        return { photos: 3, videos: 1 };
      },
    };
    const tasks: ProjectCountSource = { countsFor: async () => ({ open_tasks: 2, videos: 4 }) };
    const principal: PhotosPrincipal = { userId: team.user.id, teamId: team.team.id, tokenId: 0, role: 'member', abilities: null, kind: 'session', deviceId: null };
    const service = new ProjectService(h.orm.em.fork(), { countSources: [photos, tasks] });
    const { project, counts } = await service.get(principal, String(team.project.id));
    expect(project.id).toBe(team.project.id);
    expect(counts).toEqual({ photos: 3, videos: 4, open_tasks: 2 });
    expect(seen).toEqual([[team.team.id, team.project.id]]);
    expect((await new ProjectService(h.orm.em.fork()).get(principal, String(team.project.id))).counts).toEqual({});
  });
});

describe('GET /api/v1/projects/nearby', () => {
  const site = { lat: -43.5321, lng: 172.6362 };
  let team: Awaited<ReturnType<typeof createTeam>>;
  let ids: Record<string, number>;

  const nearby = async (query: string, token = team.token) => {
    const res = await fetch(`${url}/api/v1/projects/nearby?${query}`, { headers: bearer(token) });
    return { status: res.status, body: (await res.json()) as { data: NearbyBody; error?: { code: string; fields: Record<string, string[]> } } };
  };
  const at = (point: { lat: number; lng: number }, accuracyM: number) => `lat=${point.lat}&lng=${point.lng}&accuracy_m=${accuracyM}`;

  beforeAll(async () => {
    team = await createTeam('Nearby Team');
    const other = await createTeam('Nearby Other Team');
    const em = h.orm.em.fork();
    const make = (name: string, point: { lat: number; lng: number } | null, extra: Partial<Project> = {}, owner = team.team) =>
      em.create(Project, { team: owner, name, status: 'active', address: null, latitude: point?.lat ?? null, longitude: point?.lng ?? null, radiusM: 100, ...extra });
    const east = make('East', offset(site, 0, 250));
    const west = make('West', offset(site, 0, -250));
    make('Archived on site', site, { status: 'archived' });
    make('Foreign on site', site, {}, other.team);
    make('No coordinates', null);
    await em.flush();
    ids = { east: east.id, west: west.id };
  });

  it('matched: one project could contain the fix; reasoning and candidates, nearest first', async () => {
    const { status, body } = await nearby(at(offset(site, 0, 230), 10));
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ decision: 'matched', reason: null, project: { id: ids.east, name: 'East' }, accuracy_threshold_m: 50, fix: { accuracy_m: 10 } });
    expect(body.data.distance_m).toBeCloseTo(20, 0);
    expect(body.data.candidates.map((c) => [c.project.name, c.could_contain, c.radius_m])).toEqual([['East', true, 100], ['West', false, 100]]);
    expect(body.data.candidates[1]!.distance_m).toBeCloseTo(480, 0);
  });

  it('ambiguous: both circles touch the uncertainty circle, and the nearer is not picked', async () => {
    // 10 m east of the middle: East is 240 m, West 260 m away; radius 100 + accuracy 50 reach neither.
    const { body } = await nearby(at(offset(site, 0, 10), 50));
    expect(body.data).toMatchObject({ decision: 'unassigned', reason: 'outside_radius', project: null, distance_m: null });
    // With radius 220 m both circles reach a fix of accuracy 40 m there.
    await h.orm.em.fork().nativeUpdate(Project, { id: { $in: [ids.east!, ids.west!] } }, { radiusM: 220 });
    try {
      const ambiguous = await nearby(at(offset(site, 0, 10), 40));
      expect(ambiguous.body.data).toMatchObject({ decision: 'unassigned', reason: 'ambiguous', project: null });
      expect(ambiguous.body.data.candidates.map((c) => [c.project.name, c.could_contain])).toEqual([['East', true], ['West', true]]);
    } finally {
      await h.orm.em.fork().nativeUpdate(Project, { id: { $in: [ids.east!, ids.west!] } }, { radiusM: 100 });
    }
  });

  it('low_accuracy: accuracy above the team threshold, with the threshold used', async () => {
    const { body } = await nearby(at(offset(site, 0, 250), 51));
    expect(body.data).toMatchObject({ decision: 'unassigned', reason: 'low_accuracy', accuracy_threshold_m: 50 });
    expect(body.data.candidates[0]!.project.name).toBe('East');
  });

  it('no_fix: a missing, empty or out-of-range value (200, no candidates)', async () => {
    for (const query of ['', 'lat=-43.5&lng=172.6', 'lat=&lng=172.6&accuracy_m=5', 'lat=91&lng=172.6&accuracy_m=5', 'lat=-43.5&lng=181&accuracy_m=5', 'lat=-43.5&lng=172.6&accuracy_m=-1', 'lat=1e999&lng=0&accuracy_m=5']) {
      const { status, body } = await nearby(query);
      expect({ query, status, data: body.data }).toEqual({
        query,
        status: 200,
        data: { decision: 'unassigned', reason: 'no_fix', project: null, distance_m: null, fix: null, accuracy_threshold_m: 50, candidates: [] },
      });
    }
  });

  it('a value that is not a number is a 422 naming each such parameter', async () => {
    const { status, body } = await nearby('lat=abc&lng=0x10&accuracy_m=5');
    expect(status).toBe(422);
    expect(body.error?.fields).toEqual({ lat: ['Must be a number.'], lng: ['Must be a number.'] });
    for (const query of ['lat=NaN&lng=1&accuracy_m=1', 'lat=1&lng=Infinity&accuracy_m=1', 'lat=1&lng=1&accuracy_m=1m', 'lat=1&lat=2&lng=1&accuracy_m=1']) {
      expect((await nearby(query)).status).toBe(422);
    }
  });

  it(`lists at most ${NEARBY_CANDIDATES_MAX} candidates, nearest first, while the decision weighs them all`, async () => {
    const crowded = await createTeam('Crowded Team');
    const em = h.orm.em.fork();
    for (let i = 0; i < NEARBY_CANDIDATES_MAX + 3; i += 1) {
      const point = offset(site, 0, 300 + i * 50);
      em.create(Project, { team: crowded.team, name: `P${i}`, status: 'active', address: null, latitude: point.lat, longitude: point.lng, radiusM: 10 });
    }
    // The farthest one is the only one that could contain a fix right on it.
    await em.flush();
    const farthest = offset(site, 0, 300 + (NEARBY_CANDIDATES_MAX + 2) * 50);
    const { body } = await nearby(at(farthest, 5), crowded.token);
    expect(body.data).toMatchObject({ decision: 'matched', project: { name: `P${NEARBY_CANDIDATES_MAX + 2}` } });
    expect(body.data.candidates).toHaveLength(NEARBY_CANDIDATES_MAX);
    const distances = body.data.candidates.map((c) => c.distance_m);
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
  });

  it('is a capture endpoint: a device token reaches it (and the list and one project); photos:read alone does not', async () => {
    const device = await createTeam('Device Team', { abilities: ['capture'] });
    expect((await nearby(at(site, 5), device.token)).status).toBe(200);
    expect((await fetch(`${url}/api/v1/projects`, { headers: bearer(device.token) })).status).toBe(200);
    expect((await fetch(`${url}/api/v1/projects/${device.project.id}`, { headers: bearer(device.token) })).status).toBe(200);
    const photosOnly = await createTeam('Photos Only Team', { abilities: ['photos:read'] });
    const refused = await nearby(at(site, 5), photosOnly.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { missing_scope: 'projects:read' } });
  });
});

interface NearbyBody {
  decision: string;
  reason: string | null;
  project: { id: number; name: string } | null;
  distance_m: number | null;
  fix: { lat: number; lng: number; accuracy_m: number } | null;
  accuracy_threshold_m: number;
  candidates: Array<{ project: { id: number; name: string }; distance_m: number; radius_m: number; could_contain: boolean }>;
}

describe('matching index', () => {
  it('the candidate query reads the partial (team, latitude, longitude) index, not the table', async () => {
    const team = await createTeam('Index Team');
    const conn = h.orm.em.getConnection();
    // 20 000 projects over 50 teams and a 4° square, a few without coordinates or archived; statistics refreshed.
    await conn.execute(`insert into teams (name, created_at, updated_at, default_match_radius_m, accuracy_threshold_m)
      select 'Index filler ' || g, now(), now(), 150, 50 from generate_series(1, 49) g`);
    await conn.execute(`insert into projects (team_id, name, status, latitude, longitude, radius_m, created_at, updated_at, last_activity_at)
      select case when g % 50 = 0 then ${team.team.id} else (select min(id) from teams where name like 'Index filler %') + g % 49 end,
             'P' || g, case when g % 97 = 0 then 'archived' else 'active' end,
             case when g % 89 = 0 then null else -45 + random() * 4 end, 168 + random() * 4, 150, now(), now(), now()
      from generate_series(1, 20000) g`);
    await conn.execute('analyze projects');
    const sql: Array<{ query: string; params: unknown[] }> = [];
    const logger = h.orm.config.getLogger();
    const original = logger.logQuery.bind(logger);
    logger.logQuery = (context) => {
      sql.push({ query: context.query ?? '', params: (context.params ?? []) as unknown[] });
      original(context);
    };
    try {
      await new ProjectService(h.orm.em.fork()).matchCapture(team.team.id, { lat: -43, lng: 170, accuracyM: 10 });
    } finally {
      logger.logQuery = original;
    }
    const candidateQuery = sql.find(({ query }) => query.includes('from "projects"'));
    expect(candidateQuery).toBeDefined();
    const [plan] = (await conn.execute(`explain (format json) ${candidateQuery!.query}`, candidateQuery!.params)) as Array<{ 'QUERY PLAN': unknown }>;
    const text = JSON.stringify(plan!['QUERY PLAN']);
    expect(text).toContain('projects_matchable_team_id_latitude_longitude_index');
    expect(text).not.toContain('Seq Scan');
  });
});

describe('GraphQL', () => {
  const create = `mutation($input: CreatePhotosProjectInput!, $key: String) {
    createPhotosProject(input: $input, idempotencyKey: $key) { id name address coordinates { lat lng radiusM } counts { key count } }
  }`;
  const nearbyQuery = `query($lat: Float, $lng: Float, $acc: Float) {
    photosNearbyProjects(lat: $lat, lng: $lng, accuracyM: $acc) {
      decision reason distanceM accuracyThresholdM fix { lat lng accuracyM }
      project { id name } candidates { project { name } distanceM radiusM couldContain }
    }
  }`;

  it('createPhotosProject creates like POST (same Idempotency-Key space, REST field names in errors)', async () => {
    const team = await createTeam('GraphQL Create Team');
    const input = { name: 'Via GraphQL', coordinates: { lat: -45.87, lng: 170.5 }, radiusM: 60 };
    const { body } = await gql(url, create, bearer(team.token), { input, key: 'gql-1' });
    expect(body.errors).toBeUndefined();
    const created = body.data?.createPhotosProject as { id: string };
    expect(created).toMatchObject({ name: 'Via GraphQL', address: null, coordinates: { lat: -45.87, lng: 170.5, radiusM: 60 }, counts: [{ key: 'photos', count: 0 }, { key: 'videos', count: 0 }, { key: 'photo_groups', count: 0 }, { key: 'open_tasks', count: 0 }] });
    const rest = await postProject(team.token, { name: 'Via GraphQL', coordinates: { lat: -45.87, lng: 170.5 }, radius_m: 60 }, { 'Idempotency-Key': 'gql-1' });
    expect(rest.res.headers.get('idempotent-replayed')).toBe('true');
    expect(String(rest.body.data.id)).toBe(created.id);

    const invalid = await gql(url, create, bearer(team.token), { input: { name: 'No coordinates', radiusM: 60 } });
    expect(invalid.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { radius_m: ['Only allowed with coordinates.'] } });
    const reader = await createTeam('GraphQL Reader Team', { abilities: ['projects:read'] });
    const refused = await gql(url, create, bearer(reader.token), { input });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', missing_scope: 'projects:write' });
  });

  it('photosNearbyProjects gives the REST decision', async () => {
    const team = await createTeam('GraphQL Nearby Team');
    const site = { lat: -45.0302, lng: 168.6627 };
    const em = h.orm.em.fork();
    em.create(Project, { team: team.team, name: 'Queenstown', status: 'active', address: null, latitude: site.lat, longitude: site.lng, radiusM: 100 });
    await em.flush();
    const fix = offset(site, 30, 40);
    const { body } = await gql(url, nearbyQuery, bearer(team.token), { lat: fix.lat, lng: fix.lng, acc: 8 });
    expect(body.errors).toBeUndefined();
    const decision = body.data?.photosNearbyProjects as { distanceM: number; candidates: Array<{ distanceM: number }> };
    expect(decision).toMatchObject({ decision: 'MATCHED', reason: null, accuracyThresholdM: 50, fix: { accuracyM: 8 }, project: { name: 'Queenstown' } });
    expect(decision.distanceM).toBeCloseTo(50, 0);
    expect(decision.candidates).toEqual([{ project: { name: 'Queenstown' }, distanceM: decision.distanceM, radiusM: 100, couldContain: true }]);
    const rest = (await (await fetch(`${url}/api/v1/projects/nearby?lat=${fix.lat}&lng=${fix.lng}&accuracy_m=8`, { headers: bearer(team.token) })).json()) as { data: NearbyBody };
    expect(rest.data.distance_m).toBe(decision.distanceM);

    const noFix = await gql(url, nearbyQuery, bearer(team.token), { lat: fix.lat });
    expect(noFix.body.data?.photosNearbyProjects).toMatchObject({ decision: 'UNASSIGNED', reason: 'NO_FIX', fix: null, project: null, candidates: [] });
    const low = await gql(url, nearbyQuery, bearer(team.token), { lat: fix.lat, lng: fix.lng, acc: 500 });
    expect(low.body.data?.photosNearbyProjects).toMatchObject({ decision: 'UNASSIGNED', reason: 'LOW_ACCURACY' });
  });
});
