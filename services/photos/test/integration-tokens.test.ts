// Integration tokens and roles over real HTTP against the real database (README "Decisions": integration tokens, roles,
// what a member may not do): REST /api/v1/auth/tokens and the GraphQL equivalents, for owners and admins only.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ABILITIES, AccessToken, INTEGRATION_TOKEN_MAX_DAYS, hashAccessToken } from '../src/modules/auth/index.js';
import { createTeam, gql, startHarness, type Harness } from './helpers.js';

let h: Harness;
const DAY_MS = 24 * 60 * 60 * 1000;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

interface TokenView {
  id: number;
  name: string;
  abilities: string[];
  user: { id: number; email: string };
  created_at: string;
  expires_at: string;
  token?: string;
}

const tokensUrl = () => `${h.service.url}/api/v1/auth/tokens`;
const createToken = (token: string, body: unknown) =>
  fetch(tokensUrl(), { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(token) }, body: JSON.stringify(body) });
const listTokens = (token: string, query = '') => fetch(`${tokensUrl()}${query}`, { headers: bearer(token) });
const revokeToken = (token: string, id: string | number) => fetch(`${tokensUrl()}/${id}`, { method: 'DELETE', headers: bearer(token) });
const get = (token: string, path: string) => fetch(`${h.service.url}/api/v1${path}`, { headers: bearer(token) });

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('POST /api/v1/auth/tokens', () => {
  it('an owner creates a token with explicit abilities and an expiry: shown once, stored hashed, limited to its abilities', async () => {
    const owner = await createTeam(h, 'Owner Team', {}, { role: 'owner' });
    const before = Date.now();
    const res = await createToken(owner.token, { name: 'Accounting export', abilities: ['projects:read', 'photos:read'], expires_in_days: 30 });
    expect(res.status).toBe(201);
    const created = ((await res.json()) as { data: TokenView }).data;
    expect(created).toMatchObject({ name: 'Accounting export', abilities: ['projects:read', 'photos:read'], user: { id: owner.user.id, email: owner.user.email } });
    expect(created.token).toMatch(/^ph_[A-Za-z0-9]{48}$/);
    expect(Math.abs(new Date(created.expires_at).getTime() - before - 30 * DAY_MS)).toBeLessThan(60_000);

    const stored = await h.orm.em.fork().findOneOrFail(AccessToken, { tokenHash: hashAccessToken(created.token!) });
    expect(stored.abilities).toEqual(['projects:read', 'photos:read']);
    expect(JSON.stringify(stored)).not.toContain(created.token);

    // It acts in the owner's team with its abilities only: no role powers, no other scopes.
    expect((await get(created.token!, '/projects')).status).toBe(200);
    const tokens = await listTokens(created.token!);
    expect(tokens.status).toBe(403);

    const listed = ((await (await listTokens(owner.token)).json()) as { data: TokenView[] }).data;
    expect(listed).toEqual([{ id: created.id, name: created.name, abilities: created.abilities, user: created.user, created_at: created.created_at, expires_at: created.expires_at }]);
    expect(JSON.stringify(listed)).not.toContain(created.token);
  });

  it('a token lacking the scope gets 403 naming it', async () => {
    const owner = await createTeam(h, 'Scope Team', {}, { role: 'admin' });
    const created = ((await (await createToken(owner.token, { name: 'photos only', abilities: ['photos:read'], expires_in_days: 1 })).json()) as { data: TokenView }).data;
    const res = await get(created.token!, '/projects');
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: { code: 'forbidden', message: 'This token lacks the projects:read ability.', missing_scope: 'projects:read' } });
  });

  it('expires_at: a chosen future time is kept; past, too far, both or neither → 422', async () => {
    const owner = await createTeam(h, 'Expiry Team', {}, { role: 'owner' });
    const at = new Date(Date.now() + 10 * DAY_MS);
    at.setMilliseconds(0);
    const res = await createToken(owner.token, { name: 'until', abilities: ['reports:read'], expires_at: at.toISOString() });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { data: TokenView }).data.expires_at).toBe(at.toISOString());

    const bad: Array<[Record<string, unknown>, string]> = [
      [{ expires_at: new Date(Date.now() - 1000).toISOString() }, 'expires_at'],
      [{ expires_at: new Date(Date.now() + (INTEGRATION_TOKEN_MAX_DAYS + 1) * DAY_MS).toISOString() }, 'expires_at'],
      [{ expires_in_days: 0 }, 'expires_in_days'],
      [{ expires_in_days: INTEGRATION_TOKEN_MAX_DAYS + 1 }, 'expires_in_days'],
      [{ expires_in_days: 5, expires_at: at.toISOString() }, 'expires_at'],
      [{}, 'expires_at'],
    ];
    for (const [expiry, field] of bad) {
      const refused = await createToken(owner.token, { name: 'x', abilities: ['reports:read'], ...expiry });
      expect({ expiry, status: refused.status }).toEqual({ expiry, status: 422 });
      expect(((await refused.json()) as { error: { fields: object } }).error.fields).toHaveProperty(field);
    }
  });

  it('grants only the 15 scopes: capture, unknown or repeated abilities and an empty list → 422', async () => {
    const owner = await createTeam(h, 'Abilities Team', {}, { role: 'owner' });
    for (const abilities of [['capture'], ['photos:delete'], ['photos:read', 'photos:read'], []]) {
      const res = await createToken(owner.token, { name: 'x', abilities, expires_in_days: 1 });
      expect({ abilities, status: res.status }).toEqual({ abilities, status: 422 });
    }
    const all = await createToken(owner.token, { name: 'everything', abilities: [...ABILITIES], expires_in_days: 1 });
    expect(all.status).toBe(201);
  });
});

describe('roles: what a member may not do', () => {
  it('a member and an integration token cannot list, create or revoke tokens (403); the member still reads projects', async () => {
    const owner = await createTeam(h, 'Role Team', {}, { role: 'owner' });
    const created = ((await (await createToken(owner.token, { name: 'kept', abilities: ['photos:read'], expires_in_days: 1 })).json()) as { data: TokenView }).data;
    const member = await createTeam(h, 'Member Team', {}, { role: 'member' });
    const memberRes = await listTokens(member.token);
    expect(memberRes.status).toBe(403);
    expect(await memberRes.json()).toEqual({
      error: { code: 'forbidden', message: 'This needs the role owner or admin; your role in this team is member.', required_roles: ['owner', 'admin'] },
    });
    expect((await createToken(member.token, { name: 'x', abilities: ['photos:read'], expires_in_days: 1 })).status).toBe(403);
    expect((await revokeToken(member.token, created.id)).status).toBe(403);
    expect((await get(member.token, '/projects')).status).toBe(200);

    const integration = await createTeam(h, 'Integration Team', { abilities: [...ABILITIES], expiresAt: new Date(Date.now() + DAY_MS) }, { role: 'owner' });
    const refused = await listTokens(integration.token);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('needs an office session');
    expect((await createToken(integration.token, { name: 'x', abilities: ['photos:read'], expires_in_days: 1 })).status).toBe(403);
  });
});

describe('GET /api/v1/auth/tokens', () => {
  it('lists the team\'s live integration tokens only (not sessions, revoked, expired or other teams\'), newest first, paginated', async () => {
    const owner = await createTeam(h, 'List Team', {}, { role: 'owner' });
    const other = await createTeam(h, 'Other List Team', {}, { role: 'owner' });
    await createToken(other.token, { name: 'foreign', abilities: ['photos:read'], expires_in_days: 1 });
    const names = ['one', 'two', 'three'];
    for (const name of names) await createToken(owner.token, { name, abilities: ['photos:read'], expires_in_days: 1 });
    const em = h.orm.em.fork();
    em.create(AccessToken, { user: owner.user, team: owner.team, tokenHash: hashAccessToken(`expired-${crypto.randomUUID()}`), name: 'expired', abilities: ['photos:read'], device: null, expiresAt: new Date(Date.now() - 1000), revokedAt: null });
    await em.flush();
    const res = await listTokens(owner.token);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: TokenView[]; meta: object };
    expect(body.data.map((t) => t.name)).toEqual(['three', 'two', 'one']);
    expect(body.meta).toEqual({ current_page: 1, per_page: 25, total: 3, last_page: 1 });
    expect(((await (await listTokens(owner.token, '?page=2')).json()) as { data: TokenView[] }).data).toEqual([]);
    expect((await listTokens(owner.token, '?page=0')).status).toBe(422);
  });
});

describe('DELETE /api/v1/auth/tokens/{token}', () => {
  it('revokes (204): the token then answers 401; again, another team\'s, a session token or a non-numeric id → 404', async () => {
    const owner = await createTeam(h, 'Revoke Team', {}, { role: 'owner' });
    const other = await createTeam(h, 'Revoke Other', {}, { role: 'owner' });
    const created = ((await (await createToken(owner.token, { name: 'doomed', abilities: ['projects:read'], expires_in_days: 1 })).json()) as { data: TokenView }).data;
    const foreign = ((await (await createToken(other.token, { name: 'foreign', abilities: ['projects:read'], expires_in_days: 1 })).json()) as { data: TokenView }).data;
    const res = await revokeToken(owner.token, created.id);
    expect(res.status).toBe(204);
    expect((await get(created.token!, '/projects')).status).toBe(401);
    const sessionRow = await h.orm.em.fork().findOneOrFail(AccessToken, { tokenHash: hashAccessToken(owner.token) });
    for (const id of [created.id, foreign.id, sessionRow.id, 'abc', '99999999999']) {
      const refused = await revokeToken(owner.token, id);
      expect({ id, status: refused.status }).toEqual({ id, status: 404 });
    }
    expect((await get(foreign.token!, '/projects')).status).toBe(200);
    expect((await get(owner.token, '/projects')).status).toBe(200);
  });
});

describe('GraphQL', () => {
  it('accessTokens, createPhotosAccessToken and revokePhotosAccessToken for owners and admins; FORBIDDEN for members and tokens with abilities', async () => {
    const admin = await createTeam(h, 'GraphQL Team', {}, { role: 'admin' });
    const create = `mutation($input: CreatePhotosAccessTokenInput!) { createPhotosAccessToken(input: $input) { token accessToken { id name abilities userName expiresAt } } }`;
    const { body } = await gql(h.service.url, create, bearer(admin.token), { input: { name: 'From GraphQL', abilities: ['tasks:read'], expiresInDays: 7 } });
    expect(body.errors).toBeUndefined();
    const created = body.data?.createPhotosAccessToken as { token: string; accessToken: { id: string; name: string; abilities: string[]; userName: string } };
    expect(created.accessToken).toMatchObject({ name: 'From GraphQL', abilities: ['tasks:read'], userName: 'Member' });
    expect(created.token).toMatch(/^ph_/);

    const listed = await gql(h.service.url, '{ photosTeam { accessTokens { id name } } }', bearer(admin.token));
    expect(listed.body.data).toEqual({ photosTeam: { accessTokens: [{ id: created.accessToken.id, name: 'From GraphQL' }] } });

    const invalid = await gql(h.service.url, create, bearer(admin.token), { input: { name: 'bad', abilities: ['capture'], expiresInDays: 7 } });
    expect(invalid.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');

    const member = await createTeam(h, 'GraphQL Member', {}, { role: 'member' });
    const refused = await gql(h.service.url, '{ photosTeam { name accessTokens { id } } }', bearer(member.token));
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const memberCreate = await gql(h.service.url, create, bearer(member.token), { input: { name: 'x', abilities: ['tasks:read'], expiresInDays: 7 } });
    expect(memberCreate.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    const revoke = 'mutation($id: ID!) { revokePhotosAccessToken(id: $id) }';
    const byToken = await gql(h.service.url, revoke, bearer(created.token), { id: created.accessToken.id });
    expect(byToken.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const revoked = await gql(h.service.url, revoke, bearer(admin.token), { id: created.accessToken.id });
    expect(revoked.body).toEqual({ data: { revokePhotosAccessToken: created.accessToken.id } });
    expect((await get(created.token, '/auth/me')).status).toBe(401);
  });
});
