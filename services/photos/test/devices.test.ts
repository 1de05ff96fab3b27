// Devices and the capture ability over real HTTP against the real database (README "Decisions": heartbeat, what
// `capture` covers): heartbeat stores the device's queue depth and versions; GraphQL shows them to the office; a device
// token reaches exactly the capture endpoints (and the endpoints every token may use) and is refused everywhere else.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { photosApiDocument } from '../src/api-document.js';
import { CAPTURE_ENDPOINTS } from '../src/modules/auth/index.js';
import { Device } from '../src/modules/devices/index.js';
import { createTeam, gql, startHarness, type Harness } from './helpers.js';

let h: Harness;
const PASSWORD = 'capture app password';
const DAY_MS = 24 * 60 * 60 * 1000;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

interface DeviceView {
  id: number;
  device_id: string;
  name: string | null;
  platform: string | null;
  os_version: string | null;
  app_version: string | null;
  queue_depth: number | null;
  last_seen_at: string | null;
  created_at: string;
}

const heartbeat = (token: string, body: unknown) =>
  fetch(`${h.service.url}/api/v1/devices/heartbeat`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(token) }, body: JSON.stringify(body) });

/** A team whose user signs in on a phone: the office session (createTeam's token) and a device token from login. */
async function teamWithPhone(name: string, deviceId = 'phone-1') {
  const team = await createTeam(h, name, {}, { password: PASSWORD, role: 'member' });
  const res = await fetch(`${h.service.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: team.user.email, password: PASSWORD, device_id: deviceId, device_name: 'Site phone', platform: 'android' }),
  });
  const { data } = (await res.json()) as { data: { token: string; device: { id: number } } };
  return { ...team, deviceToken: data.token, deviceRowId: data.device.id };
}

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('POST /api/v1/devices/heartbeat', () => {
  it('stores queue depth, app version, platform, OS version and last seen on the device; answers the device', async () => {
    const phone = await teamWithPhone('Heartbeat Team');
    const before = Date.now();
    const res = await heartbeat(phone.deviceToken, { queue_depth: 7, app_version: '1.4.2', os_version: '14' });
    expect(res.status).toBe(200);
    const device = ((await res.json()) as { data: DeviceView }).data;
    expect(device).toMatchObject({ id: phone.deviceRowId, device_id: 'phone-1', name: 'Site phone', platform: 'android', os_version: '14', app_version: '1.4.2', queue_depth: 7 });
    expect(new Date(device.last_seen_at!).getTime()).toBeGreaterThanOrEqual(before - 1000);

    // The next heartbeat replaces the values; a platform sent replaces the login's.
    const next = await heartbeat(phone.deviceToken, { queue_depth: 0, app_version: '1.5.0', platform: 'ios' });
    expect(((await next.json()) as { data: DeviceView }).data).toMatchObject({ queue_depth: 0, app_version: '1.5.0', platform: 'ios', os_version: '14' });
    const row = await h.orm.em.fork().findOneOrFail(Device, phone.deviceRowId);
    expect({ queueDepth: row.queueDepth, appVersion: row.appVersion, platform: row.platform }).toEqual({ queueDepth: 0, appVersion: '1.5.0', platform: 'ios' });
  });

  it('refuses malformed bodies with 422 naming the field, changing nothing', async () => {
    const phone = await teamWithPhone('Heartbeat 422 Team');
    const cases: Array<[unknown, string]> = [
      [{ app_version: '1.0' }, 'queue_depth'],
      [{ queue_depth: -1, app_version: '1.0' }, 'queue_depth'],
      [{ queue_depth: 1.5, app_version: '1.0' }, 'queue_depth'],
      [{ queue_depth: '3', app_version: '1.0' }, 'queue_depth'],
      [{ queue_depth: 2 ** 31, app_version: '1.0' }, 'queue_depth'],
      [{ queue_depth: 1 }, 'app_version'],
      [{ queue_depth: 1, app_version: 'v'.repeat(65) }, 'app_version'],
      [{ queue_depth: 1, app_version: '1.0', os_version: '' }, 'os_version'],
    ];
    for (const [body, field] of cases) {
      const res = await heartbeat(phone.deviceToken, body);
      expect({ body, status: res.status }).toEqual({ body, status: 422 });
      expect(((await res.json()) as { error: { fields: object } }).error.fields).toHaveProperty(field);
    }
    expect((await h.orm.em.fork().findOneOrFail(Device, phone.deviceRowId)).lastSeenAt).toBeNull();
  });

  it('an office session or an integration token gets 403 "needs a device token"; no token 401', async () => {
    const phone = await teamWithPhone('Heartbeat 403 Team');
    const integration = await createTeam(h, 'Heartbeat Integration', { abilities: ['projects:read'], expiresAt: new Date(Date.now() + DAY_MS) });
    for (const token of [phone.token, integration.token]) {
      const res = await heartbeat(token, { queue_depth: 1, app_version: '1.0' });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: { code: 'forbidden', message: 'This endpoint needs a device token (sign in with a device_id).' } });
    }
    const anonymous = await fetch(`${h.service.url}/api/v1/devices/heartbeat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(anonymous.status).toBe(401);
  });
});

describe('GraphQL PhotosTeam.devices', () => {
  const query = '{ photosTeam { devices { id deviceId name platform osVersion appVersion queueDepth lastSeenAt userName } } }';

  it('shows the office every device of the team with queue depth and last seen; other teams\' devices never', async () => {
    const phone = await teamWithPhone('Office Team');
    await teamWithPhone('Someone Else');
    await heartbeat(phone.deviceToken, { queue_depth: 42, app_version: '2.0.0', os_version: '17.1' });
    const { body } = await gql(h.service.url, query, bearer(phone.token));
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      photosTeam: {
        devices: [{ id: String(phone.deviceRowId), deviceId: 'phone-1', name: 'Site phone', platform: 'android', osVersion: '17.1', appVersion: '2.0.0', queueDepth: 42, lastSeenAt: expect.any(String), userName: 'Member' }],
      },
    });
  });

  it('is refused (FORBIDDEN) to device and integration tokens', async () => {
    const phone = await teamWithPhone('Refused Team');
    const integration = await createTeam(h, 'Refused Integration', { abilities: ['projects:read', 'photos:read'], expiresAt: new Date(Date.now() + DAY_MS) });
    for (const token of [phone.deviceToken, integration.token]) {
      const { body } = await gql(h.service.url, query, bearer(token));
      expect(body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
  });
});

describe('what capture covers', () => {
  /** Endpoints every token may use, whatever its abilities: who am I, sign out, move to another team. */
  const EVERY_TOKEN = ['GET /api/v1/auth/me', 'POST /api/v1/auth/switch-team'];

  /** Every documented operation that takes the access token, as `METHOD /path/{param}`. */
  function tokenOperations(): string[] {
    const document = photosApiDocument() as unknown as { paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>> };
    const operations: string[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (operation.security?.some((requirement) => 'accessToken' in requirement) && path.startsWith('/api/v1/')) operations.push(`${method.toUpperCase()} ${path}`);
      }
    }
    return operations;
  }

  const call = (operation: string, token: string) => {
    const [method, path] = operation.split(' ') as [string, string];
    const url = `${h.service.url}${path.replace(/\{[^}]+\}/g, '1')}`;
    return fetch(url, { method, headers: { 'content-type': 'application/json', ...bearer(token) }, ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }) });
  };

  it('a device token reaches every capture endpoint that exists and is refused 403 (naming the scope or roles) on every other documented endpoint', async () => {
    const phone = await teamWithPhone('Capture Team');
    const operations = tokenOperations();
    expect(operations).toContain('POST /api/v1/devices/heartbeat');
    expect(operations).toContain('GET /api/v1/projects');
    const checked: Record<string, string> = {};
    // Logout would revoke the token the loop uses: it is tested on its own (test/auth.test.ts).
    for (const operation of operations.filter((op) => op !== 'POST /api/v1/auth/logout')) {
      const res = await call(operation, phone.deviceToken);
      const body = (await res.json().catch(() => ({}))) as { error?: { code?: string; missing_scope?: string; required_roles?: string[] } };
      const reachable = (CAPTURE_ENDPOINTS as readonly string[]).includes(operation) || EVERY_TOKEN.includes(operation);
      // A refusal names what is missing: the endpoint's scope, or the roles of an administration endpoint.
      const namesWhatIsMissing = body.error?.code === 'forbidden' && (body.error.missing_scope !== undefined || body.error.required_roles !== undefined);
      checked[operation] = reachable ? (res.status === 403 || res.status === 401 ? `refused ${res.status}` : 'reached') : res.status === 403 && namesWhatIsMissing ? 'refused' : `answered ${res.status}`;
      expect({ operation, outcome: checked[operation] }).toEqual({ operation, outcome: reachable ? 'reached' : 'refused' });
    }
    expect(checked['GET /api/v1/auth/tokens']).toBe('refused');
  });

  it('the subgraph refuses a device token naming the scope; GET /projects, a capture endpoint, answers it', async () => {
    const phone = await teamWithPhone('Scope Name Team');
    const { body } = await gql(h.service.url, '{ photosProjects { id } }', bearer(phone.deviceToken));
    expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'FORBIDDEN', missing_scope: 'projects:read' }) })]);
    const projects = await fetch(`${h.service.url}/api/v1/projects`, { headers: bearer(phone.deviceToken) });
    expect(projects.status).toBe(200);
  });

  it('revoked (re-login) and expired device tokens answer the same 401 as an unknown token', async () => {
    const phone = await teamWithPhone('Expiring Team', 'expiring-phone');
    const em = h.orm.em.fork();
    const relogin = await fetch(`${h.service.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: phone.user.email, password: PASSWORD, device_id: 'expiring-phone' }),
    });
    const fresh = ((await relogin.json()) as { data: { token: string } }).data.token;
    await em.getConnection().execute(`update access_tokens set expires_at = now() - interval '1 second' where device_id = ? and revoked_at is null`, [phone.deviceRowId]);
    const unauthenticated = { error: { code: 'unauthenticated', message: 'Authentication is required.' } };
    for (const token of [phone.deviceToken, fresh, `ph_${'x'.repeat(48)}`]) {
      const res = await heartbeat(token, { queue_depth: 1, app_version: '1.0' });
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 401, body: unauthenticated });
    }
  });
});
