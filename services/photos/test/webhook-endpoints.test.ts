// Webhook endpoint management (README Decisions "Webhooks"): owner/admin office sessions only, https and public hosts,
// the secret shown once and stored sealed, team isolation; the emitter queues Standard Webhooks deliveries.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NOT_PUBLIC_ADDRESS_MESSAGE, STANDARD_WEBHOOK_SECRET_PATTERN, WebhookDelivery, generateSecretBoxKey, webhookEndpointSecretRef } from '@tributary/kit';
import { TeamMembership, type TeamRole } from '../src/modules/teams/index.js';
import { MAX_WEBHOOK_ENDPOINTS_PER_TEAM, WebhookEndpoint } from '../src/modules/webhook-endpoints/index.js';
import { createTeamWebhookEmitter } from '../src/modules/webhooks/index.js';
import { resolveSigningSecret } from '../src/worker.js';
import { createTeam, gql, startHarness, type Harness } from './helpers.js';

let h: Harness;
let url: string;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
// A public address literal: the save-time SSRF check needs no DNS for it.
const RECEIVER = 'https://93.184.216.34/hooks/photos';
const KEY = generateSecretBoxKey();

beforeAll(async () => {
  h = await startHarness({ env: { SECRETS_ENCRYPTION_KEY: KEY } });
  url = h.service.url;
});
afterAll(async () => {
  await h?.close();
});

async function teamWithRole(name: string, role: TeamRole, token: Parameters<typeof createTeam>[2] = {}) {
  const team = await createTeam(h, name, token);
  await h.orm.em.fork().nativeUpdate(TeamMembership, { id: team.membership.id }, { role });
  return team;
}

function call(token: string, method: string, path: string, body?: unknown) {
  return fetch(`${url}/api/v1/webhook-endpoints${path}`, {
    method,
    headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('REST /api/v1/webhook-endpoints', () => {
  it('an owner creates (secret shown once), lists, reads, edits and deletes an endpoint', async () => {
    const owner = await teamWithRole('Hooks Owner Team', 'owner');
    const created = await call(owner.token, 'POST', '', { url: RECEIVER, events: ['photo.created', 'project.created', 'photo.created'] });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as { data: Record<string, unknown> & { id: string; secret: string } };
    expect(data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: RECEIVER,
      events: ['photo.created', 'project.created'],
      is_active: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      secret: expect.stringMatching(STANDARD_WEBHOOK_SECRET_PATTERN),
    });

    const stored = await h.orm.em.fork().findOneOrFail(WebhookEndpoint, data.id);
    expect(stored.secretSealed).not.toContain(data.secret.slice(6));

    const listed = (await (await call(owner.token, 'GET', '')).json()) as { data: Array<Record<string, unknown>> };
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).not.toHaveProperty('secret');

    const edited = await call(owner.token, 'PATCH', `/${data.id}`, { is_active: false, events: ['photo.updated'] });
    expect(edited.status).toBe(200);
    expect(((await edited.json()) as { data: object }).data).toMatchObject({ url: RECEIVER, events: ['photo.updated'], is_active: false });
    expect(((await (await call(owner.token, 'GET', `/${data.id}`)).json()) as { data: object }).data).toMatchObject({ is_active: false });

    // The worker opens the sealed secret at send time; a wrong key throws (retried, never sent unsigned).
    const key = { SECRETS_ENCRYPTION_KEY: KEY };
    const ref = webhookEndpointSecretRef(data.id);
    await expect(resolveSigningSecret(ref, { em: h.orm.em.fork(), env: key })).resolves.toBe(data.secret);
    await expect(resolveSigningSecret(ref, { em: h.orm.em.fork(), env: { SECRETS_ENCRYPTION_KEY: generateSecretBoxKey() } })).rejects.toThrow(/cannot be opened/);
    await expect(resolveSigningSecret('payment_request:1', { em: h.orm.em.fork(), env: key })).resolves.toBeNull();

    expect((await call(owner.token, 'DELETE', `/${data.id}`)).status).toBe(204);
    expect((await call(owner.token, 'GET', `/${data.id}`)).status).toBe(404);
    await expect(resolveSigningSecret(ref, { em: h.orm.em.fork(), env: key })).resolves.toBeNull();
  });

  it('an admin may manage them; a member, an integration token and a device token get 403', async () => {
    const admin = await teamWithRole('Hooks Admin Team', 'admin');
    expect((await call(admin.token, 'POST', '', { url: RECEIVER, events: ['photo.created'] })).status).toBe(201);
    const member = await teamWithRole('Hooks Member Team', 'member');
    const integration = await teamWithRole('Hooks Integration Team', 'owner', { abilities: ['photos:read', 'photos:write'] });
    const device = await teamWithRole('Hooks Device Team', 'owner', { abilities: ['capture'] });
    for (const token of [member.token, integration.token, device.token]) {
      const res = await call(token, 'GET', '');
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: { code: 'forbidden' } });
      expect((await call(token, 'POST', '', { url: RECEIVER, events: ['photo.created'] })).status).toBe(403);
    }
  });

  it("another team's endpoint, an unknown and a malformed id read as 404 and cannot be changed", async () => {
    const a = await teamWithRole('Hooks Team A', 'owner');
    const b = await teamWithRole('Hooks Team B', 'owner');
    const { data } = (await (await call(a.token, 'POST', '', { url: RECEIVER, events: ['photo.created'] })).json()) as { data: { id: string } };
    for (const path of [`/${data.id}`, '/00000000-0000-4000-8000-000000000000', '/not-a-uuid']) {
      expect((await call(b.token, 'GET', path)).status).toBe(404);
      expect((await call(b.token, 'PATCH', path, { is_active: false })).status).toBe(404);
      expect((await call(b.token, 'DELETE', path)).status).toBe(404);
    }
    expect(((await (await call(a.token, 'GET', `/${data.id}`)).json()) as { data: object }).data).toMatchObject({ is_active: true });
  });

  it('refuses http, private hosts, unknown events and an empty list with 422 naming the field, storing nothing', async () => {
    const owner = await teamWithRole('Hooks Validation Team', 'owner');
    const cases: Array<[unknown, string]> = [
      [{ url: 'http://93.184.216.34/hooks', events: ['photo.created'] }, 'url'],
      [{ url: 'https://127.0.0.1/hooks', events: ['photo.created'] }, 'url'],
      [{ url: 'https://10.1.2.3/hooks', events: ['photo.created'] }, 'url'],
      [{ url: RECEIVER, events: ['photo.deleted'] }, 'events.0'],
      [{ url: RECEIVER, events: [] }, 'events'],
      [{ url: `https://93.184.216.34/${'a'.repeat(2100)}`, events: ['photo.created'] }, 'url'],
      [{ events: ['photo.created'] }, 'url'],
    ];
    for (const [body, field] of cases) {
      const res = await call(owner.token, 'POST', '', body);
      expect({ field, status: res.status }).toEqual({ field, status: 422 });
      expect(Object.keys(((await res.json()) as { error: { fields: object } }).error.fields)).toContain(field);
    }
    expect(await h.orm.em.fork().count(WebhookEndpoint, { team: owner.team.id })).toBe(0);
  });

  it('refuses a host that resolves to a loopback address without naming the address or its kind', async () => {
    const owner = await teamWithRole('Hooks Loopback Team', 'owner');
    const res = await call(owner.token, 'POST', '', { url: 'https://localhost/hooks', events: ['photo.created'] });
    expect(res.status).toBe(422);
    const text = await res.text();
    expect((JSON.parse(text) as { error: { fields: object } }).error.fields).toEqual({ url: [NOT_PUBLIC_ADDRESS_MESSAGE] });
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toContain('loopback');
  });

  it(`allows ${MAX_WEBHOOK_ENDPOINTS_PER_TEAM} endpoints per team, even under concurrent creates`, async () => {
    const owner = await teamWithRole('Hooks Limit Team', 'owner');
    const results = await Promise.all(
      Array.from({ length: MAX_WEBHOOK_ENDPOINTS_PER_TEAM + 3 }, (_, i) => call(owner.token, 'POST', '', { url: `${RECEIVER}/${i}`, events: ['photo.created'] })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(MAX_WEBHOOK_ENDPOINTS_PER_TEAM);
    const refused = results.filter((r) => r.status === 422);
    expect(refused).toHaveLength(3);
    expect(await refused[0]!.json()).toMatchObject({ error: { code: 'webhook_endpoint_limit' } });
  });
});

describe('GraphQL', () => {
  it('creates (secret once), lists on PhotosTeam, edits and deletes; the same rules as REST', async () => {
    const owner = await teamWithRole('Hooks GraphQL Team', 'owner');
    const created = await gql(
      url,
      'mutation($input: PhotosWebhookEndpointInput!) { createPhotosWebhookEndpoint(input: $input) { secret webhookEndpoint { id url events isActive } } }',
      bearer(owner.token),
      { input: { url: RECEIVER, events: ['photo.updated'] } },
    );
    expect(created.body.errors).toBeUndefined();
    const result = created.body.data?.createPhotosWebhookEndpoint as { secret: string; webhookEndpoint: { id: string } };
    expect(result.secret).toMatch(STANDARD_WEBHOOK_SECRET_PATTERN);
    expect(result.webhookEndpoint).toMatchObject({ url: RECEIVER, events: ['photo.updated'], isActive: true });

    const listed = await gql(url, '{ photosTeam { webhookEndpoints { id events } } }', bearer(owner.token));
    expect(listed.body.data?.photosTeam).toEqual({ webhookEndpoints: [{ id: result.webhookEndpoint.id, events: ['photo.updated'] }] });

    const refused = await gql(
      url,
      'mutation($id: ID!) { updatePhotosWebhookEndpoint(id: $id, input: { events: ["photo.deleted"] }) { id } }',
      bearer(owner.token),
      { id: result.webhookEndpoint.id },
    );
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');

    const deleted = await gql(url, 'mutation($id: ID!) { deletePhotosWebhookEndpoint(id: $id) }', bearer(owner.token), { id: result.webhookEndpoint.id });
    expect(deleted.body.data).toEqual({ deletePhotosWebhookEndpoint: result.webhookEndpoint.id });

    const member = await teamWithRole('Hooks GraphQL Member Team', 'member');
    const forbidden = await gql(url, '{ photosTeam { webhookEndpoints { id } } }', bearer(member.token));
    expect(forbidden.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('team webhook emitter', () => {
  it('queues one Standard Webhooks delivery per active subscribed endpoint, with the {id,type,timestamp,data} envelope', async () => {
    const owner = await teamWithRole('Hooks Emitter Team', 'owner');
    const subscribe = async (events: string[], isActive = true) =>
      ((await (await call(owner.token, 'POST', '', { url: RECEIVER, events, is_active: isActive })).json()) as { data: { id: string } }).data.id;
    const wanted = await subscribe(['project.created']);
    await subscribe(['photo.created']);
    await subscribe(['project.created'], false);

    const data = { id: 7, name: 'Dock 4 extension' };
    const emitter = createTeamWebhookEmitter({ now: () => new Date('2026-11-23T10:00:00.000Z') });
    const afterCommit = await h.orm.em.fork().transactional((tx) => emitter.emit(tx, owner.team.id, 'project.created', data));
    expect(afterCommit).toBeUndefined(); // no outbox given: the worker's sweeper would dispatch

    const deliveries = await h.orm.em.fork().find(WebhookDelivery, { ownerId: String(owner.team.id) });
    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries as [WebhookDelivery];
    expect(delivery).toMatchObject({ endpointId: wanted, eventName: 'project.created', signatureScheme: 'standard-webhooks', signatureHeader: 'webhook-signature' });
    const body = JSON.parse(delivery.body) as Record<string, unknown>;
    expect(body).toEqual({ id: delivery.eventId, type: 'project.created', timestamp: '2026-11-23T10:00:00.000Z', data });
    expect(delivery.eventId).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(delivery.body).toBe(`{"id":"${delivery.eventId}","type":"project.created","timestamp":"2026-11-23T10:00:00.000Z","data":${JSON.stringify(data)}}`);

    expect(await h.orm.em.fork().transactional((tx) => emitter.emit(tx, owner.team.id, 'photo.updated', data))).toBeUndefined();
    expect(await h.orm.em.fork().count(WebhookDelivery, { ownerId: String(owner.team.id) })).toBe(1);
  });
});
