// The photos operator commands end to end: the real entry point (`npm run admin` → services/stack/bin/admin.mjs →
// services/photos/dist/admin/cli.js, built by `npm test`) against a real, migrated database, and the effect of the
// tokens they create and revoke on the running HTTP service.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AccessToken, hashAccessToken } from '../src/modules/auth/index.js';
import { DEMO_ACCESS_TOKEN, DEMO_USER_EMAIL, DEMO_USER_PASSWORD } from '../src/seed.js';
import { createTeam, startHarness, type Harness } from './helpers.js';

const dispatcher = fileURLToPath(new URL('../../stack/bin/admin.mjs', import.meta.url));
const serviceCli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const DAY_MS = 24 * 60 * 60 * 1000;
let h: Harness;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function admin(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [dispatcher, 'photos', ...args], { env: { ...process.env, DATABASE_URL: h.db.url } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** --json: exactly one JSON document on stdout. */
async function adminJson(...args: string[]): Promise<{ code: number; body: Record<string, unknown>; stderr: string }> {
  const run = await admin(...args, '--json');
  const lines = run.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return { code: run.code, body: JSON.parse(lines[0]!) as Record<string, unknown>, stderr: run.stderr };
}

const get = (token: string, path: string) => fetch(`${h.service.url}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('token create', () => {
  it('creates an integration token for a member of the team: shown once, stored hashed, limited to its abilities, expiring as asked', async () => {
    const team = await createTeam(h, 'Operator Team');
    const before = Date.now();
    const { code, body } = await adminJson('token', 'create', '--user', team.user.email.toUpperCase(), '--team', String(team.team.id), '--abilities', 'projects:read,photos:read', '--expires-in', '30d', '--name', 'ERP sync');
    expect(code).toBe(0);
    expect(body).toMatchObject({ name: 'ERP sync', abilities: ['projects:read', 'photos:read'], team_id: team.team.id, user: { id: team.user.id, email: team.user.email } });
    const token = body.token as string;
    expect(token).toMatch(/^ph_[A-Za-z0-9]{48}$/);
    expect(Math.abs(new Date(body.expires_at as string).getTime() - before - 30 * DAY_MS)).toBeLessThan(60_000);
    const stored = await h.orm.em.fork().findOneOrFail(AccessToken, { tokenHash: hashAccessToken(token) });
    expect(JSON.stringify(stored)).not.toContain(token);

    expect((await get(token, '/projects')).status).toBe(200);
    const refused = await get(token, '/auth/tokens');
    expect(refused.status).toBe(403);
  });

  it('human output names the token once; bad arguments exit 2, an unknown user or a team the user is not in exit 1', async () => {
    const team = await createTeam(h, 'Operator Text Team');
    const text = await admin('token', 'create', '--user', team.user.email, '--team', String(team.team.id), '--abilities', 'reports:read', '--expires-in', '7d');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Created integration token \d+ "operator token" .*\nToken \(shown once\): ph_[A-Za-z0-9]{48}\n$/);

    const base = ['token', 'create', '--user', team.user.email, '--team', String(team.team.id)];
    const usage: string[][] = [
      [...base, '--abilities', 'reports:read', '--expires-in', '30'],
      [...base, '--abilities', 'reports:read'],
      ['token', 'create', '--user', team.user.email, '--team', 'x', '--abilities', 'reports:read', '--expires-in', '1d'],
    ];
    for (const args of usage) {
      const run = await adminJson(...args);
      expect({ args, code: run.code, kind: (run.body.error as { code: string }).code }).toEqual({ args, code: 2, kind: 'usage' });
    }
    const invalid: Array<[string[], string]> = [
      [[...base, '--abilities', 'capture', '--expires-in', '30d'], '--abilities'],
      [[...base, '--abilities', 'reports:read', '--expires-in', '366d'], '--expires-in'],
      [[...base, '--abilities', 'reports:read', '--expires-in', '0d'], '--expires-in'],
    ];
    for (const [args, label] of invalid) {
      const run = await adminJson(...args);
      expect(run.code).toBe(2);
      expect(run.body.error).toMatchObject({ code: 'invalid_argument', message: expect.stringContaining(label) });
    }
    const stranger = await createTeam(h, 'Not The Operator Team');
    for (const args of [
      ['token', 'create', '--user', 'nobody@example.test', '--team', String(team.team.id), '--abilities', 'reports:read', '--expires-in', '1d'],
      ['token', 'create', '--user', team.user.email, '--team', String(stranger.team.id), '--abilities', 'reports:read', '--expires-in', '1d'],
    ]) {
      const run = await adminJson(...args);
      expect({ code: run.code, kind: (run.body.error as { code: string }).code }).toEqual({ code: 1, kind: 'not_found' });
    }
  });
});

describe('token list and token revoke', () => {
  it('lists the team\'s live integration tokens without secrets; revoke ends one (401), again → exit 1', async () => {
    const team = await createTeam(h, 'Operator List Team');
    const created = await adminJson('token', 'create', '--user', team.user.email, '--team', String(team.team.id), '--abilities', 'tasks:read', '--expires-in', '1d', '--name', 'listed');
    const token = created.body.token as string;
    const listed = await adminJson('token', 'list', '--team', String(team.team.id));
    expect(listed.code).toBe(0);
    const tokens = listed.body.tokens as Array<{ id: number; name: string }>;
    expect(tokens.map((t) => [t.id, t.name])).toEqual([[created.body.id, 'listed']]);
    expect(JSON.stringify(listed.body)).not.toContain(token);

    const revoked = await adminJson('token', 'revoke', String(created.body.id));
    expect(revoked).toMatchObject({ code: 0, body: { id: created.body.id, revoked: true } });
    expect((await get(token, '/auth/me')).status).toBe(401);
    expect((await adminJson('token', 'list', '--team', String(team.team.id))).body).toEqual({ tokens: [] });

    const again = await adminJson('token', 'revoke', String(created.body.id));
    expect(again.code).toBe(1);
    // A session token is not an integration token: not found.
    const session = await h.orm.em.fork().findOneOrFail(AccessToken, { tokenHash: hashAccessToken(team.token) });
    expect((await adminJson('token', 'revoke', String(session.id))).code).toBe(1);
    expect((await get(team.token, '/auth/me')).status).toBe(200);
  });

  it('help lists the token commands', async () => {
    const run = await admin('help');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('token create --user E --team ID --abilities a,b --expires-in 30d');
    expect(run.stdout).toContain('token revoke ID');
  });
});

describe('seed (what `npm start` prints in its URL table)', () => {
  it('prints the demo e-mail and password beside the demo token, and that password signs in', async () => {
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [serviceCli, 'seed'], { env: { ...process.env, DATABASE_URL: h.db.url } }, (error, out) => (error ? reject(error) : resolve(out)));
    });
    const { credentials } = JSON.parse(stdout.trim().split('\n').at(-1)!) as { credentials: Record<string, unknown> };
    expect(credentials).toMatchObject({ email: DEMO_USER_EMAIL, password: DEMO_USER_PASSWORD, token: DEMO_ACCESS_TOKEN });
    const res = await fetch(`${h.service.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: credentials.email, password: credentials.password }),
    });
    expect(res.status).toBe(200);
  });
});
