// Sign-in over real HTTP against the real database (README "Decisions": login, logout, switch-team, token lifetimes,
// device tokens, the identical 401).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AccessToken, DEVICE_TOKEN_TTL_DAYS, SESSION_TOKEN_TTL_DAYS, hashAccessToken } from '../src/modules/auth/index.js';
import { Device } from '../src/modules/devices/index.js';
import { Team, TeamMembership, User } from '../src/modules/teams/index.js';
import { DEMO_SECOND_TEAM_NAME, DEMO_TEAM_NAME, DEMO_USER_EMAIL, DEMO_USER_PASSWORD, seedDemoData } from '../src/seed.js';
import { addProject, createTeam, startHarness, type Harness } from './helpers.js';

let h: Harness;
const PASSWORD = 'correct horse battery staple';
const UNAUTHENTICATED = { error: { code: 'unauthenticated', message: 'Authentication is required.' } };
const DAY_MS = 24 * 60 * 60 * 1000;

interface Issued {
  token: string;
  token_type: string;
  kind: string;
  abilities: string[] | null;
  expires_at: string;
  user: { id: number; email: string };
  role: string;
  team: { id: number; name: string };
  device: { id: number; device_id: string; name: string | null; platform: string | null } | null;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${h.service.url}/api/v1/auth/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const me = (token: string) => fetch(`${h.service.url}/api/v1/auth/me`, { headers: bearer(token) });
const projectStatus = async (token: string, id: number) => (await fetch(`${h.service.url}/api/v1/projects/${id}`, { headers: bearer(token) })).status;
async function projectIds(token: string): Promise<number[]> {
  const res = await fetch(`${h.service.url}/api/v1/projects`, { headers: bearer(token) });
  return ((await res.json()) as { data: Array<{ id: number }> }).data.map((project) => project.id);
}

async function login(body: Record<string, unknown>): Promise<Issued> {
  const res = await post('login', body);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Issued }).data;
}

/** A user with a password in two teams: first (member, the older membership) and second (admin). */
async function twoTeamUser() {
  const first = await createTeam(h, 'First Team', {}, { password: PASSWORD });
  const em = h.orm.em.fork();
  const second = em.create(Team, { name: 'Second Team' });
  em.create(TeamMembership, { team: second, user: first.user.id, role: 'admin' });
  await em.flush();
  const secondProject = await addProject(h, second, { name: 'Second Team site' });
  return { email: first.user.email, user: first.user, first: first.team, second, firstProject: first.project, secondProject };
}

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('POST /api/v1/auth/login', () => {
  it('without device_id: an office session (abilities null) for 30 days in the first team; the token works and only its SHA-256 is stored', async () => {
    const { email, user, first } = await twoTeamUser();
    const before = Date.now();
    const issued = await login({ email: email.toUpperCase(), password: PASSWORD });
    expect(issued).toMatchObject({ token_type: 'Bearer', kind: 'session', abilities: null, user: { id: user.id, email }, role: 'member', team: { id: first.id, name: 'First Team' }, device: null });
    expect(issued.token).toMatch(/^ph_[A-Za-z0-9]{48}$/);
    const lifetime = new Date(issued.expires_at).getTime() - before;
    expect(Math.abs(lifetime - SESSION_TOKEN_TTL_DAYS * DAY_MS)).toBeLessThan(60_000);
    expect((await (await me(issued.token)).json()) as unknown).toMatchObject({ data: { team: { id: first.id } } });
    const stored = await h.orm.em.fork().findOneOrFail(AccessToken, { tokenHash: hashAccessToken(issued.token) });
    expect(JSON.stringify(stored)).not.toContain(issued.token);
    expect(stored.abilities).toBeNull();
  });

  it('with team_id: that team of the user; a team the user is not in → 403', async () => {
    const { email, second } = await twoTeamUser();
    const issued = await login({ email, password: PASSWORD, team_id: second.id });
    expect(issued).toMatchObject({ team: { id: second.id }, role: 'admin' });
    const other = await createTeam(h, 'Stranger Team');
    const refused = await post('login', { email, password: PASSWORD, team_id: other.team.id });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'forbidden', message: 'You are not a member of that team.' } });
  });

  it('with device_id: a device token (the single ability capture, 1 year) tied to a Device row; a new login of the device revokes the earlier token', async () => {
    const { email, user, first } = await twoTeamUser();
    const before = Date.now();
    const firstLogin = await login({ email, password: PASSWORD, device_id: 'install-1', device_name: "Sam's iPhone", platform: 'ios' });
    expect(firstLogin).toMatchObject({ kind: 'device', abilities: ['capture'], device: { device_id: 'install-1', name: "Sam's iPhone", platform: 'ios' } });
    expect(Math.abs(new Date(firstLogin.expires_at).getTime() - before - DEVICE_TOKEN_TTL_DAYS * DAY_MS)).toBeLessThan(60_000);

    const again = await login({ email, password: PASSWORD, device_id: 'install-1' });
    expect(again.device?.id).toBe(firstLogin.device?.id);
    expect(again.device).toMatchObject({ name: "Sam's iPhone", platform: 'ios' });
    expect((await me(firstLogin.token)).status).toBe(401);
    expect((await me(again.token)).status).toBe(200);

    // Another installation is another device; both stay signed in.
    const tablet = await login({ email, password: PASSWORD, device_id: 'install-2', platform: 'android' });
    expect(tablet.device?.id).not.toBe(again.device?.id);
    expect((await me(again.token)).status).toBe(200);
    expect((await me(tablet.token)).status).toBe(200);
    const devices = await h.orm.em.fork().find(Device, { user: user.id, team: first.id }, { orderBy: { deviceId: 'asc' } });
    expect(devices.map((d) => d.deviceId)).toEqual(['install-1', 'install-2']);
  });

  it('concurrent logins of one device leave exactly one live token and one Device row', async () => {
    const { email, user } = await twoTeamUser();
    const results = await Promise.all([1, 2, 3, 4].map(() => post('login', { email, password: PASSWORD, device_id: 'racing-phone' })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const em = h.orm.em.fork();
    expect(await em.count(Device, { user: user.id, deviceId: 'racing-phone' })).toBe(1);
    expect(await em.count(AccessToken, { user: user.id, device: { deviceId: 'racing-phone' }, revokedAt: null })).toBe(1);
  });

  it('unknown e-mail, wrong password and a user without a password get the identical 401, after the same bcrypt work', async () => {
    const { email } = await twoTeamUser();
    const noPassword = await createTeam(h, 'No Password Team');
    const attempts = { unknown: { email: `nobody-${crypto.randomUUID()}@example.test`, password: PASSWORD }, wrong: { email, password: 'not the password' }, none: { email: noPassword.user.email, password: PASSWORD } };
    const timings: Record<string, number[]> = { unknown: [], wrong: [], none: [] };
    for (let round = 0; round < 3; round += 1) {
      for (const [kind, body] of Object.entries(attempts)) {
        const started = performance.now();
        const res = await post('login', body);
        timings[kind]!.push(performance.now() - started);
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual(UNAUTHENTICATED);
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
    // bcrypt at cost 12 takes tens of milliseconds at least; without the dummy hash an unknown e-mail answers in ~1 ms.
    expect(median(timings.unknown!)).toBeGreaterThan(median(timings.wrong!) * 0.5);
    expect(median(timings.none!)).toBeGreaterThan(median(timings.wrong!) * 0.5);
  });

  it('a user in no team gets the same 401', async () => {
    const { user } = await createTeam(h, 'Left Team', {}, { password: PASSWORD });
    await h.orm.em.fork().nativeDelete(TeamMembership, { user: user.id });
    const res = await post('login', { email: user.email, password: PASSWORD });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(UNAUTHENTICATED);
  });

  it('refuses malformed bodies with 422 naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ password: PASSWORD }, 'email'],
      [{ email: 'a@b.test' }, 'password'],
      [{ email: 'a@b.test', password: PASSWORD, device_id: '' }, 'device_id'],
      [{ email: 'a@b.test', password: PASSWORD, device_id: 'x'.repeat(192) }, 'device_id'],
      [{ email: 'a@b.test', password: PASSWORD, team_id: 'one' }, 'team_id'],
      [{ email: 'a\u0000@b.test', password: PASSWORD }, 'email'],
    ];
    for (const [body, field] of cases) {
      const res = await post('login', body);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: { fields: Record<string, unknown> } }).error.fields).toHaveProperty(field);
    }
  });

  it('the seeded demo user signs in with the documented password into Demo Builders', async () => {
    await seedDemoData(h.orm.em.fork());
    const issued = await login({ email: DEMO_USER_EMAIL, password: DEMO_USER_PASSWORD });
    expect(issued).toMatchObject({ role: 'owner', team: { name: DEMO_TEAM_NAME } });
  });
});

describe('POST /api/v1/auth/logout', () => {
  it('revokes the calling token (204); it then answers the same 401 as an unknown token, and other tokens keep working', async () => {
    const { email } = await twoTeamUser();
    const session = await login({ email, password: PASSWORD });
    const device = await login({ email, password: PASSWORD, device_id: 'logout-phone' });
    const res = await post('logout', {}, bearer(device.token));
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const after = await me(device.token);
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual(UNAUTHENTICATED);
    expect((await post('logout', {}, bearer(device.token))).status).toBe(401);
    expect((await me(session.token)).status).toBe(200);
  });
});

describe('POST /api/v1/auth/switch-team', () => {
  // Spec, Authentication: "it is scoped to a team, and switch-team moves the session to another team of the user".
  it('moves the session: the token the client holds now acts in the other team, and the old team is out of its reach at once', async () => {
    const { email, first, second, firstProject, secondProject } = await twoTeamUser();
    const session = await login({ email, password: PASSWORD });
    expect([await projectStatus(session.token, firstProject.id), await projectStatus(session.token, secondProject.id)]).toEqual([200, 404]);
    const res = await post('switch-team', { team_id: second.id }, bearer(session.token));
    expect(res.status).toBe(200);
    const switched = ((await res.json()) as { data: Issued }).data;
    expect(switched).toEqual({ ...session, team: { id: second.id, name: 'Second Team' }, role: 'admin' });
    expect((await (await me(session.token)).json()) as unknown).toMatchObject({ data: { team: { id: second.id }, role: 'admin' } });
    expect([await projectStatus(session.token, firstProject.id), await projectStatus(session.token, secondProject.id)]).toEqual([404, 200]);
    expect(await projectIds(session.token)).toEqual([secondProject.id]);

    // Switching to the team it is in changes nothing; and back again.
    const again = await post('switch-team', { team_id: second.id }, bearer(session.token));
    expect(((await again.json()) as { data: Issued }).data).toEqual(switched);
    const back = await post('switch-team', { team_id: first.id }, bearer(session.token));
    expect(((await back.json()) as { data: Issued }).data).toEqual(session);
    expect([await projectStatus(session.token, firstProject.id), await projectStatus(session.token, secondProject.id)]).toEqual([200, 404]);
  });

  it('a device token keeps working as a device token of the same device_id, registered in the new team', async () => {
    const { email, user, second, firstProject, secondProject } = await twoTeamUser();
    // The same phone signed in to the second team before: that device's token there is replaced by the moved one.
    const earlier = await login({ email, password: PASSWORD, device_id: 'switching-phone', team_id: second.id });
    const device = await login({ email, password: PASSWORD, device_id: 'switching-phone', device_name: 'Van tablet', platform: 'android' });
    const res = await post('switch-team', { team_id: second.id }, bearer(device.token));
    expect(res.status).toBe(200);
    const switched = ((await res.json()) as { data: Issued }).data;
    expect(switched).toMatchObject({ token: device.token, kind: 'device', abilities: ['capture'], expires_at: device.expires_at, team: { id: second.id }, device: { id: earlier.device?.id, device_id: 'switching-phone', name: 'Van tablet', platform: 'android' } });
    expect((await (await me(device.token)).json()) as unknown).toMatchObject({ data: { team: { id: second.id } } });
    expect([await projectStatus(device.token, firstProject.id), await projectStatus(device.token, secondProject.id)]).toEqual([404, 200]);
    const beat = await fetch(`${h.service.url}/api/v1/devices/heartbeat`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(device.token) }, body: JSON.stringify({ queue_depth: 2, app_version: '1.0.0' }) });
    expect(((await beat.json()) as { data: { id: number } }).data.id).toBe(earlier.device?.id);
    expect((await me(earlier.token)).status).toBe(401);
    expect(await h.orm.em.fork().count(Device, { user: user.id, deviceId: 'switching-phone' })).toBe(2);
  });

  it('refuses a team the user is not in (or that does not exist) with 403 and keeps the token in its team', async () => {
    const { email, first, firstProject } = await twoTeamUser();
    const session = await login({ email, password: PASSWORD });
    const stranger = await createTeam(h, 'Not Mine');
    for (const teamId of [stranger.team.id, 2_000_000_000]) {
      const res = await post('switch-team', { team_id: teamId }, bearer(session.token));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: { code: 'forbidden', message: 'You are not a member of that team.', team_id: teamId } });
    }
    expect((await (await me(session.token)).json()) as unknown).toMatchObject({ data: { team: { id: first.id } } });
    expect([await projectStatus(session.token, firstProject.id), await projectStatus(session.token, stranger.project.id)]).toEqual([200, 404]);
  });

  it('integration tokens are bound to their team: 403', async () => {
    const { second } = await twoTeamUser();
    const integration = await createTeam(h, 'Integration Team', { abilities: ['photos:read'], expiresAt: new Date(Date.now() + DAY_MS) });
    const em = h.orm.em.fork();
    em.create(TeamMembership, { team: second.id, user: integration.user.id, role: 'member' });
    await em.flush();
    const res = await post('switch-team', { team_id: second.id }, bearer(integration.token));
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'forbidden', message: expect.stringContaining('bound to the team') } });
    expect((await me(integration.token)).status).toBe(200);
  });

  it('refuses a malformed team_id with 422, and no token with 401', async () => {
    const { email } = await twoTeamUser();
    const session = await login({ email, password: PASSWORD });
    for (const body of [{}, { team_id: '1' }, { team_id: 1.5 }, { team_id: 0 }]) {
      expect((await post('switch-team', body, bearer(session.token))).status).toBe(422);
    }
    expect((await post('switch-team', { team_id: 1 })).status).toBe(401);
  });
});

describe('seed', () => {
  it('gives the demo user the documented password and a second team (admin) to switch to', async () => {
    const credentials = await seedDemoData(h.orm.em.fork());
    expect(credentials).toMatchObject({ email: DEMO_USER_EMAIL, password: DEMO_USER_PASSWORD });
    const em = h.orm.em.fork();
    const user = await em.findOneOrFail(User, { email: DEMO_USER_EMAIL });
    const memberships = await em.find(TeamMembership, { user }, { populate: ['team'], orderBy: { id: 'asc' } });
    expect(memberships.map((m) => [m.team.name, m.role])).toEqual([[DEMO_TEAM_NAME, 'owner'], [DEMO_SECOND_TEAM_NAME, 'admin']]);
    const issued = await login({ email: DEMO_USER_EMAIL, password: DEMO_USER_PASSWORD });
    const res = await post('switch-team', { team_id: memberships[1]!.team.id }, bearer(issued.token));
    expect(((await res.json()) as { data: Issued }).data.team.name).toBe(DEMO_SECOND_TEAM_NAME);
  });
});
