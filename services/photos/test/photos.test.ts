import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AccessToken, generateAccessToken, hashAccessToken } from '../src/modules/auth/index.js';
import { Project } from '../src/modules/projects/index.js';
import { Team, TeamMembership } from '../src/modules/teams/index.js';
import { DEMO_ACCESS_TOKEN, seedDemoData } from '../src/seed.js';
import { createTeam as createTestTeam, gql, ownSchemaDiff, startHarness, type Harness } from './helpers.js';

let h: Harness;
let url: string;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const UNAUTHENTICATED = { error: { code: 'unauthenticated', message: 'Authentication is required.' } };

beforeAll(async () => {
  h = await startHarness();
  url = h.service.url;
  await seedDemoData(h.orm.em.fork());
});
afterAll(async () => {
  await h?.close();
});

const createTeam = (name: string, token?: Parameters<typeof createTestTeam>[2]) => createTestTeam(h, name, token);

describe('database', () => {
  it('the checked-in migrations create exactly the schema the entities describe', async () => {
    expect(await ownSchemaDiff(h.orm)).toEqual([]);
  });

  it('seed is idempotent: one team, one token, four projects (one without coordinates)', async () => {
    const first = await seedDemoData(h.orm.em.fork());
    const second = await seedDemoData(h.orm.em.fork());
    expect(second).toEqual(first);
    const em = h.orm.em.fork();
    expect(await em.count(Team, { name: 'Demo Builders' })).toBe(1);
    expect(await em.count(AccessToken, { tokenHash: hashAccessToken(DEMO_ACCESS_TOKEN) })).toBe(1);
    expect(await em.count(Project, { team: first.team_id })).toBe(4);
    expect(await em.count(Project, { team: first.team_id, latitude: null })).toBe(1);
  });

  it('stores only the SHA-256 of tokens', async () => {
    const tokens = await h.orm.em.fork().find(AccessToken, {});
    expect(JSON.stringify(tokens)).not.toContain(DEMO_ACCESS_TOKEN);
  });
});

describe('probes', () => {
  it('/healthz and /readyz (database + Temporal) answer 200', async () => {
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${url}/readyz`);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: 'ok', temporal: 'ok' } });
  });
});

describe('REST', () => {
  it('GET /api/v1/auth/me returns the user, role and the team the token is scoped to', async () => {
    const res = await fetch(`${url}/api/v1/auth/me`, { headers: bearer(DEMO_ACCESS_TOKEN) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      data: { user: { email: 'demo@photos.tributary.test' }, role: 'owner', team: { name: 'Demo Builders' } },
    });
  });

  it('GET /api/v1/projects lists only the team\'s active projects, newest activity first, with meta', async () => {
    const other = await createTeam('Other Team');
    const res = await fetch(`${url}/api/v1/projects`, { headers: bearer(DEMO_ACCESS_TOKEN) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Array<{ name: string; coordinates: unknown; last_activity_at: string }>; meta: Record<string, number> };
    expect(body.meta).toEqual({ current_page: 1, per_page: 25, total: 4, last_page: 1 });
    expect(body.data.map((p) => p.name)).not.toContain(other.project.name);
    const times = body.data.map((p) => p.last_activity_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(body.data.find((p) => p.name.includes('no site coordinates'))?.coordinates).toBeNull();
    expect(body.data.find((p) => p.name === 'Harbour View Apartments')?.coordinates).toEqual({ lat: -36.8433, lng: 174.7676, radius_m: 150 });

    const searched = (await (await fetch(`${url}/api/v1/projects?q=apartments`, { headers: bearer(DEMO_ACCESS_TOKEN) })).json()) as { data: Array<{ name: string }> };
    expect(searched.data.map((p) => p.name)).toEqual(['Harbour View Apartments']);
  });

  it('refuses a token lacking projects:read with 403 naming the scope', async () => {
    const scoped = await createTeam('Scoped Team', { abilities: ['photos:read'] });
    const res = await fetch(`${url}/api/v1/projects`, { headers: bearer(scoped.token) });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'forbidden', missing_scope: 'projects:read' } });
    // The subgraph holds the same rule: FORBIDDEN naming the scope, no projects; the team itself needs no scope.
    const { body } = await gql(url, '{ photosTeam { name } photosProjects { id } }', bearer(scoped.token));
    expect(body.data).toEqual({ photosTeam: { name: 'Scoped Team' }, photosProjects: null });
    expect(body.errors).toEqual([expect.objectContaining({ path: ['photosProjects'], extensions: expect.objectContaining({ code: 'FORBIDDEN', missing_scope: 'projects:read' }) })]);
  });

  it('refuses bad query parameters with 422', async () => {
    const res = await fetch(`${url}/api/v1/projects?page=0&status=deleted`, { headers: bearer(DEMO_ACCESS_TOKEN) });
    expect(res.status).toBe(422);
    expect(Object.keys(((await res.json()) as { error: { fields: object } }).error.fields).sort()).toEqual(['page', 'status']);
  });

  it('answers the same 401 for missing, malformed, unknown, revoked, expired tokens and removed members', async () => {
    const revoked = await createTeam('Revoked Team', { revokedAt: new Date() });
    const expired = await createTeam('Expired Team', { expiresAt: new Date(Date.now() - 1000) });
    const removed = await createTeam('Removed Team');
    await h.orm.em.fork().nativeDelete(TeamMembership, { id: removed.membership.id });
    const cases: Record<string, Record<string, string>> = {
      missing: {},
      malformed: bearer('x'),
      unknown: bearer(generateAccessToken()),
      revoked: bearer(revoked.token),
      expired: bearer(expired.token),
      removedMember: bearer(removed.token),
    };
    for (const [name, headers] of Object.entries(cases)) {
      for (const path of ['/api/v1/auth/me', '/api/v1/projects']) {
        const res = await fetch(`${url}${path}`, { headers });
        expect({ name, path, status: res.status, body: await res.json() }).toEqual({ name, path, status: 401, body: UNAUTHENTICATED });
      }
    }
  });
});

describe('subgraph', () => {
  const query = '{ photosTeam { id name } photosProjects { id name status coordinates { lat lng radiusM } team { name } } }';

  it('resolves photosTeam and photosProjects for the token\'s team', async () => {
    const { body } = await gql(url, query, bearer(DEMO_ACCESS_TOKEN));
    expect(body.errors).toBeUndefined();
    expect(body.data?.photosTeam).toMatchObject({ name: 'Demo Builders' });
    const projects = body.data?.photosProjects as Array<{ name: string; coordinates: unknown; team: { name: string } }>;
    expect(projects).toHaveLength(4);
    expect(projects.every((p) => p.team.name === 'Demo Builders')).toBe(true);
    expect(projects.find((p) => p.name.includes('no site coordinates'))?.coordinates).toBeNull();
  });

  it('refuses without valid credentials', async () => {
    for (const headers of [{}, bearer(generateAccessToken())]) {
      const { body } = await gql(url, query, headers);
      expect(body.data?.photosTeam ?? null).toBeNull();
      expect(body.data?.photosProjects ?? null).toBeNull();
      expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
  });

  describe('_entities', () => {
    const entitiesQuery = `query($reps: [_Any!]!) { _entities(representations: $reps) { ... on PhotosProject { id name } ... on PhotosTeam { id name } } }`;

    it("resolves the caller's own team and projects and hides other teams'", async () => {
      const other = await createTeam('Foreign Team');
      const own = await gql(url, '{ photosTeam { id } photosProjects { id name } }', bearer(DEMO_ACCESS_TOKEN));
      const ownTeam = own.body.data?.photosTeam as { id: string };
      const ownProject = (own.body.data?.photosProjects as Array<{ id: string; name: string }>)[0]!;
      const reps = [
        { __typename: 'PhotosProject', id: ownProject.id },
        { __typename: 'PhotosProject', id: String(other.project.id) },
        { __typename: 'PhotosTeam', id: ownTeam.id },
        { __typename: 'PhotosTeam', id: String(other.team.id) },
        { __typename: 'PhotosProject', id: 'not-a-number' },
      ];
      const { body } = await gql(url, entitiesQuery, bearer(DEMO_ACCESS_TOKEN), { reps });
      expect(body.errors).toBeUndefined();
      expect(body.data?._entities).toEqual([ownProject, null, { id: ownTeam.id, name: 'Demo Builders' }, null, null]);
    });

    it('never returns data to an unauthenticated caller', async () => {
      const { body } = await gql(url, entitiesQuery, {}, { reps: [{ __typename: 'PhotosTeam', id: '1' }, { __typename: 'PhotosProject', id: '1' }] });
      expect(JSON.stringify(body.data ?? null)).not.toMatch(/Demo Builders|Harbour/);
      expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    });
  });
});
