// GET /api/v1/bootstrap over real HTTP against the real database (README Decisions "Bootstrap"), its query count and
// the TagSource port.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEFAULT_PHOTO_MAX_BYTES, DEFAULT_VIDEO_MAX_BYTES } from '../src/config.js';
import { AuthService } from '../src/modules/auth/index.js';
import { BootstrapService, type TagSource } from '../src/modules/bootstrap/index.js';
import { Project, ProjectService } from '../src/modules/projects/index.js';
import { Team } from '../src/modules/teams/index.js';
import { createTeam as createTestTeam, startHarness, type Harness } from './helpers.js';

let h: Harness;
let url: string;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  h = await startHarness();
  url = h.service.url;
});
afterAll(async () => {
  await h?.close();
});

const createTeam = (name: string, token?: Parameters<typeof createTestTeam>[2]) => createTestTeam(h, name, token);

async function bootstrap(token: string) {
  const res = await fetch(`${url}/api/v1/bootstrap`, { headers: bearer(token) });
  return { status: res.status, body: (await res.json()) as { data: BootstrapBody } };
}

interface BootstrapBody {
  user: { id: number; name: string; email: string };
  role: string;
  team: { id: number; name: string };
  settings: Record<string, number>;
  projects: Array<{ id: number; name: string; coordinates: unknown }>;
  tags: string[];
  checklists: unknown[];
}

/** `count` more active projects with coordinates in the team, in one statement. */
async function addProjects(teamId: number, count: number): Promise<void> {
  await h.orm.em.getConnection().execute(
    `insert into projects (team_id, name, status, latitude, longitude, radius_m, created_at, updated_at, last_activity_at)
     select ?, 'Bulk ' || g, 'active', -36 - g / 1000.0, 174 + g / 1000.0, 150, now(), now(), now() from generate_series(1, ?) g`,
    [teamId, count],
  );
}

/** SQL statements the running service sends while `work` runs. */
async function queriesDuring(work: () => Promise<unknown>): Promise<string[]> {
  const logger = h.service.orm.config.getLogger();
  const original = logger.logQuery.bind(logger);
  const seen: string[] = [];
  logger.logQuery = (context) => {
    seen.push(context.query ?? '');
    original(context);
  };
  try {
    await work();
  } finally {
    logger.logQuery = original;
  }
  return seen;
}

describe('GET /api/v1/bootstrap', () => {
  it('answers the user, role, team, settings and limits, every active project, tags and checklists', async () => {
    const team = await createTeam('Bootstrap Team');
    const other = await createTeam('Bootstrap Other Team');
    const em = h.orm.em.fork();
    await em.nativeUpdate(Team, { id: team.team.id }, { defaultMatchRadiusM: 120, accuracyThresholdM: 35 });
    em.create(Project, { team: team.team.id, name: 'Mapped', status: 'active', address: '2 Main St', latitude: -36.8, longitude: 174.7, radiusM: 90 });
    em.create(Project, { team: team.team.id, name: 'Archived', status: 'archived', address: null, latitude: -36.8, longitude: 174.7 });
    await em.flush();

    const { status, body } = await bootstrap(team.token);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      user: { id: team.user.id, name: 'Member', email: team.user.email },
      role: 'member',
      team: { id: team.team.id, name: 'Bootstrap Team' },
      settings: { default_match_radius_m: 120, accuracy_threshold_m: 35, photo_max_bytes: DEFAULT_PHOTO_MAX_BYTES, video_max_bytes: DEFAULT_VIDEO_MAX_BYTES },
      tags: [],
      checklists: [],
    });
    expect(Object.keys(body.data).sort()).toEqual(['checklists', 'projects', 'role', 'settings', 'tags', 'team', 'user']);
    const projects = Object.fromEntries(body.data.projects.map((p) => [p.name, p.coordinates]));
    expect(projects).toEqual({ Mapped: { lat: -36.8, lng: 174.7, radius_m: 90 }, 'Bootstrap Team site': null });
    expect(JSON.stringify(body)).not.toContain(other.project.name);
  });

  it('is a capture endpoint: a device token reaches it; a token with photos:read alone gets 403 naming projects:read', async () => {
    const device = await createTeam('Bootstrap Device Team', { abilities: ['capture'] });
    expect((await bootstrap(device.token)).status).toBe(200);
    const scoped = await createTeam('Bootstrap Scoped Team', { abilities: ['photos:read'] });
    const refused = await bootstrap(scoped.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'forbidden', missing_scope: 'projects:read' } });
    expect((await fetch(`${url}/api/v1/bootstrap`)).status).toBe(401);
  });

  it('sends the same queries for 1 project as for 50, reading projects once', async () => {
    const small = await createTeam('One Project Team');
    const large = await createTeam('Fifty Projects Team');
    await addProjects(large.team.id, 49);
    await bootstrap(small.token); // warm: first-request work (metadata, pools) is not the bootstrap's
    const forOne = await queriesDuring(() => bootstrap(small.token));
    let fifty: BootstrapBody | undefined;
    const forFifty = await queriesDuring(async () => {
      fifty = (await bootstrap(large.token)).body.data;
    });
    expect(fifty?.projects).toHaveLength(50);
    expect(forFifty).toEqual(forOne);
    expect(forFifty.filter((query) => /from "projects"/.test(query))).toHaveLength(1);
    // token, membership, projects, tags, open checklists' ids (none here: no checklist query follows).
    expect(forFifty.length).toBeLessThanOrEqual(5);
  });
});

describe('TagSource', () => {
  it("bootstrap's tags are the union of every source's, sorted, asked for the caller's team", async () => {
    const team = await createTeam('Tags Team');
    const asked: number[] = [];
    const photos: TagSource = {
      tagsInUse: async (teamId) => {
        asked.push(teamId);
        return ['roof', 'before', 'drainage'];
      },
    };
    const other: TagSource = { tagsInUse: async () => ['after', 'roof'] };
    const em = h.orm.em.fork();
    const signedIn = await new AuthService(em).signedIn(`Bearer ${team.token}`);
    const service = new BootstrapService(new ProjectService(em), { limits: { photoMaxBytes: 1, videoMaxBytes: 2 }, tagSources: [photos, other] });
    const result = await service.bootstrap(signedIn);
    expect(result.tags).toEqual(['after', 'before', 'drainage', 'roof']);
    expect(asked).toEqual([team.team.id]);
    expect(result.limits).toEqual({ photoMaxBytes: 1, videoMaxBytes: 2 });
  });
});
