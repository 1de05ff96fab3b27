// Webhook endpoints (spec "Webhook endpoint", /api/v1/merchant/webhooks, DT) over real HTTP and PostgreSQL: the spec's
// table with exact status codes and fields, the secret shown once and stored encrypted, validation, merchant scoping,
// the per-merchant limit, no contact at registration, and the same rules through GraphQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { NOT_PUBLIC_ADDRESS_MESSAGE, WebhookDelivery, WorkflowOutboxEntry, generateSecretBoxKey, secretBoxFor } from '@tributary/kit';
import { startHttpsReceiver, type HttpsReceiver } from '@tributary/kit/testing';
import { ApiKey, generateKeyPair, hashSecretKey } from '../src/modules/api-keys/index.js';
import { Merchant } from '../src/modules/merchants/index.js';
import {
  EMITTED_WEBHOOK_EVENTS,
  MAX_WEBHOOK_ENDPOINTS_PER_MERCHANT,
  RESERVED_WEBHOOK_EVENTS,
  WEBHOOK_EVENT_NAMES,
  WEBHOOK_SECRET_PATTERN,
  WEBHOOK_SIGNATURE_VERIFICATION_SNIPPET,
  WebhookEndpoint,
  WebhookEndpointSecrets,
  WebhookEndpointService,
  webhookEndpointSecretRef,
} from '../src/modules/webhook-endpoints/index.js';
import { resolveSigningSecret } from '../src/worker.js';
import { createMerchant, gql, startHarness, type Harness, type TestMerchant } from './helpers.js';

const KEY = generateSecretBoxKey();
const PRIVATE_HOSTS = 'localhost,127.0.0.1';
const PATH = '/api/v1/merchant/webhooks';
const UNAUTHENTICATED = { error: { code: 'unauthenticated', message: 'Authentication is required.' } };
const NOT_FOUND = { error: { code: 'not_found', message: expect.any(String) } };

let h: Harness;
let receiver: HttpsReceiver;
let shop: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  h = await startHarness({ env: { WEBHOOK_ALLOW_PRIVATE_HOSTS: PRIVATE_HOSTS, SECRETS_ENCRYPTION_KEY: KEY } });
  receiver = await startHttpsReceiver();
  shop = await createMerchant(h, 'Webhook Shop');
  other = await createMerchant(h, 'Other Shop');
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

interface Answer {
  status: number;
  body: Record<string, unknown> & { data?: Array<Record<string, unknown>>; error?: { code: string; message: string; fields?: Record<string, string[]> } };
  text: string;
}

async function call(method: string, path: string, token: string | null, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${h.service.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Answer['body']) : {}, text };
}

const create = (token: string, body: unknown) => call('POST', PATH, token, body);
const receiverUrl = (path: string) => `${receiver.url}${path}`;
const fieldsOf = (answer: Answer) => answer.body.error?.fields;
const SPEC_CREATE_FIELDS = ['id', 'url', 'events', 'is_active', 'secret', 'created_at', 'updated_at'];
const ENDPOINT_FIELDS = ['id', 'url', 'events', 'is_active', 'created_at', 'updated_at'];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('event catalogue', () => {
  it('holds exactly the six emitted and the seven accepted-but-never-emitted names of the spec', () => {
    expect([...EMITTED_WEBHOOK_EVENTS]).toEqual(['loan.authorized', 'loan.funded', 'loan.completed', 'installment.paid', 'installment.missed', 'settlement.processed']);
    expect([...RESERVED_WEBHOOK_EVENTS]).toEqual(['order.created', 'loan.cancelled', 'installment.due', 'refund.requested', 'refund.completed', 'dispute.opened', 'dispute.resolved']);
    expect(new Set(WEBHOOK_EVENT_NAMES).size).toBe(13);
  });
});

describe('POST /api/v1/merchant/webhooks', () => {
  it('answers 201 with id, url, events, is_active and the whsec_ secret; the secret is stored encrypted, never in plaintext', async () => {
    const res = await create(shop.token, { url: receiverUrl('/created'), events: ['loan.authorized', 'installment.paid'] });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(SPEC_CREATE_FIELDS);
    const secret = String(res.body.secret);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: receiverUrl('/created'),
      events: ['loan.authorized', 'installment.paid'],
      is_active: true,
      secret: expect.stringMatching(WEBHOOK_SECRET_PATTERN),
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(secret.startsWith('whsec_')).toBe(true);

    const rows = await h.orm.em.getConnection().execute<Array<Record<string, unknown>>>('select * from webhook_endpoints where id = ?', [res.body.id]);
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice('whsec_'.length, 20));
    expect(String(rows[0]!.secret_sealed)).toMatch(/^v1\./);
    // It opens with the service's key (what the worker does at send time), and not with another key.
    const em = h.orm.em.fork();
    expect(await new WebhookEndpointSecrets(em, secretBoxFor({ SECRETS_ENCRYPTION_KEY: KEY })).current(String(res.body.id))).toBe(secret);
    await expect(new WebhookEndpointSecrets(h.orm.em.fork(), secretBoxFor({ SECRETS_ENCRYPTION_KEY: generateSecretBoxKey() })).current(String(res.body.id))).rejects.toThrow(/cannot be opened/);
    await expect(resolveSigningSecret(webhookEndpointSecretRef(String(res.body.id)), { em: h.orm.em.fork(), env: { SECRETS_ENCRYPTION_KEY: KEY } })).resolves.toBe(secret);
  });

  it('shows the secret only in the create response: list, read and update never carry it', async () => {
    const created = await create(shop.token, { url: receiverUrl('/once'), events: ['loan.funded'] });
    const id = String(created.body.id);
    const secret = String(created.body.secret);
    const list = await call('GET', PATH, shop.token);
    const read = await call('GET', `${PATH}/${id}`, shop.token);
    const updated = await call('PUT', `${PATH}/${id}`, shop.token, { url: receiverUrl('/once2'), events: ['loan.funded'], is_active: true });
    for (const answer of [list, read, updated]) {
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain(secret);
      expect(answer.text).not.toContain('secret');
    }
    expect(Object.keys(read.body)).toEqual(ENDPOINT_FIELDS);
  });

  it('contacts nothing at registration: no request reaches the receiver and no delivery is queued', async () => {
    receiver.reset();
    const res = await create(shop.token, { url: receiverUrl('/silent'), events: [...WEBHOOK_EVENT_NAMES] });
    expect(res.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.requests).toEqual([]);
    const em = h.orm.em.fork();
    expect(await em.count(WebhookDelivery, {})).toBe(0);
    expect(await em.count(WorkflowOutboxEntry, {})).toBe(0);
  });

  it('drops duplicate event names, keeping the first occurrence and the order given; is_active may be given', async () => {
    const res = await create(shop.token, { url: receiverUrl('/dedupe'), events: ['refund.completed', 'loan.authorized', 'refund.completed', 'loan.authorized'], is_active: false });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ events: ['refund.completed', 'loan.authorized'], is_active: false });
    const stored = await h.orm.em.fork().findOneOrFail(WebhookEndpoint, { id: String(res.body.id) });
    expect(stored.events).toEqual(['refund.completed', 'loan.authorized']);
    expect(stored.isActive).toBe(false);
  });

  it('accepts every reserved (never emitted) name for subscription', async () => {
    const res = await create(shop.token, { url: receiverUrl('/reserved'), events: [...RESERVED_WEBHOOK_EVENTS] });
    expect(res.status).toBe(201);
    expect(res.body.events).toEqual([...RESERVED_WEBHOOK_EVENTS]);
  });

  it.each([
    ['an http URL', { url: 'http://shop.example.com/hooks', events: ['loan.authorized'] }, { url: ['Must be an https URL.'] }],
    ['a private address', { url: 'https://192.168.1.20/hooks', events: ['loan.authorized'] }, { url: [NOT_PUBLIC_ADDRESS_MESSAGE] }],
    ['a loopback address not exempted', { url: 'https://127.0.0.2:8443/hooks', events: ['loan.authorized'] }, { url: [NOT_PUBLIC_ADDRESS_MESSAGE] }],
    ['IPv6 loopback', { url: 'https://[::1]/hooks', events: ['loan.authorized'] }, { url: [NOT_PUBLIC_ADDRESS_MESSAGE] }],
    ['credentials in the URL', { url: 'https://user:pw@localhost/hooks', events: ['loan.authorized'] }, { url: ['Must not contain credentials.'] }],
    ['not a URL', { url: 'hooks here', events: ['loan.authorized'] }, { url: ['Must be a valid absolute URL.'] }],
    ['an unknown event', { url: 'https://localhost/h', events: ['loan.authorized', 'loan.exploded'] }, { 'events.1': [`Must be one of: ${WEBHOOK_EVENT_NAMES.join(', ')}.`] }],
    ['an empty event list', { url: 'https://localhost/h', events: [] }, { events: ['Must list at least one event.'] }],
    ['events not a list', { url: 'https://localhost/h', events: 'loan.authorized' }, { events: [expect.any(String)] }],
    ['no url', { events: ['loan.authorized'] }, { url: ['This field is required.'] }],
    ['no events', { url: 'https://localhost/h' }, { events: ['This field is required.'] }],
    ['is_active not a boolean', { url: 'https://localhost/h', events: ['loan.authorized'], is_active: 'yes' }, { is_active: [expect.any(String)] }],
    ['a NUL in the url', { url: 'https://localhost/h\u0000', events: ['loan.authorized'] }, { url: [expect.stringMatching(/NUL/)] }],
  ])('refuses %s with 422 naming the field, storing nothing', async (_label, body, fields) => {
    const em = h.orm.em.fork();
    const before = await em.count(WebhookEndpoint, {});
    const res = await create(shop.token, body);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'validation_failed' });
    expect(fieldsOf(res)).toEqual(fields);
    expect(await em.count(WebhookEndpoint, {})).toBe(before);
  });

  it('refuses a URL longer than 2048 characters', async () => {
    const res = await create(shop.token, { url: `https://localhost/${'a'.repeat(2048)}`, events: ['loan.authorized'] });
    expect(res.status).toBe(422);
    expect(Object.keys(fieldsOf(res) ?? {})).toEqual(['url']);
  });

  it('exempts only the hosts of WEBHOOK_ALLOW_PRIVATE_HOSTS: without it, localhost is refused too', async () => {
    const strict = new WebhookEndpointService(h.orm.em.fork(), { box: secretBoxFor({ SECRETS_ENCRYPTION_KEY: KEY }) });
    const principal = { kind: 'dashboard', merchantId: shop.merchant.id, merchantUserId: shop.user.id, tokenId: 'x' } as const;
    await expect(strict.create(principal, { url: receiverUrl('/strict'), events: ['loan.authorized'] })).rejects.toMatchObject({
      // localhost resolves to 127.0.0.1: the refusal names neither the address nor its kind.
      fields: { url: [NOT_PUBLIC_ADDRESS_MESSAGE] },
    });
  });
});

describe('GET, PUT and DELETE /api/v1/merchant/webhooks/{id}', () => {
  it('lists the merchant’s own endpoints in creation order under {"data": […]}, without secrets', async () => {
    const merchant = await createMerchant(h, 'Lister');
    const first = await create(merchant.token, { url: receiverUrl('/l1'), events: ['loan.authorized'] });
    const second = await create(merchant.token, { url: receiverUrl('/l2'), events: ['settlement.processed'] });
    const res = await call('GET', PATH, merchant.token);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data!.map((e) => e.id)).toEqual([first.body.id, second.body.id]);
    for (const endpoint of res.body.data!) expect(Object.keys(endpoint)).toEqual(ENDPOINT_FIELDS);
    expect(res.body.data![1]).toEqual({ ...second.body, secret: undefined });
    expect((await call('GET', PATH, (await createMerchant(h, 'Empty')).token)).body).toEqual({ data: [] });
  });

  it('PUT replaces url, events and is_active (all three required), keeps the secret, and answers the updated endpoint', async () => {
    const created = await create(shop.token, { url: receiverUrl('/before'), events: ['loan.authorized'] });
    const id = String(created.body.id);
    const missing = await call('PUT', `${PATH}/${id}`, shop.token, { url: receiverUrl('/after') });
    expect(missing.status).toBe(422);
    expect(fieldsOf(missing)).toEqual({ events: ['This field is required.'], is_active: ['This field is required.'] });

    const res = await call('PUT', `${PATH}/${id}`, shop.token, { url: receiverUrl('/after'), events: ['loan.completed', 'dispute.opened', 'loan.completed'], is_active: false });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, url: receiverUrl('/after'), events: ['loan.completed', 'dispute.opened'], is_active: false, created_at: created.body.created_at, updated_at: expect.stringMatching(ISO) });
    expect((await call('GET', `${PATH}/${id}`, shop.token)).body).toEqual(res.body);
    const secret = await new WebhookEndpointSecrets(h.orm.em.fork(), secretBoxFor({ SECRETS_ENCRYPTION_KEY: KEY })).current(id);
    expect(secret).toBe(created.body.secret);

    const unsafe = await call('PUT', `${PATH}/${id}`, shop.token, { url: 'http://localhost/x', events: ['loan.completed'], is_active: true });
    expect(unsafe.status).toBe(422);
    expect(fieldsOf(unsafe)).toEqual({ url: ['Must be an https URL.'] });
    expect((await call('GET', `${PATH}/${id}`, shop.token)).body).toEqual(res.body);
  });

  it('DELETE answers 204 with an empty body; the endpoint is gone (404 afterwards)', async () => {
    const created = await create(shop.token, { url: receiverUrl('/gone'), events: ['loan.authorized'] });
    const id = String(created.body.id);
    const res = await call('DELETE', `${PATH}/${id}`, shop.token);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await call('GET', `${PATH}/${id}`, shop.token)).status).toBe(404);
    expect((await call('DELETE', `${PATH}/${id}`, shop.token)).status).toBe(404);
    expect(await h.orm.em.fork().count(WebhookEndpoint, { id })).toBe(0);
    await expect(resolveSigningSecret(webhookEndpointSecretRef(id), { em: h.orm.em.fork(), env: { SECRETS_ENCRYPTION_KEY: KEY } })).resolves.toBeNull();
  });

  it("another merchant's endpoint, an unknown id and a malformed id are all 404, and nothing changes", async () => {
    const created = await create(shop.token, { url: receiverUrl('/mine'), events: ['loan.authorized'] });
    const id = String(created.body.id);
    for (const target of [id, crypto.randomUUID(), 'not-a-uuid']) {
      const asOther = target === id ? other.token : shop.token;
      expect(await call('GET', `${PATH}/${target}`, asOther)).toMatchObject({ status: 404, body: NOT_FOUND });
      expect(await call('PUT', `${PATH}/${target}`, asOther, { url: receiverUrl('/stolen'), events: ['loan.funded'], is_active: false })).toMatchObject({ status: 404, body: NOT_FOUND });
      expect(await call('DELETE', `${PATH}/${target}`, asOther)).toMatchObject({ status: 404, body: NOT_FOUND });
    }
    expect((await call('GET', PATH, other.token)).body.data!.map((e) => e.id)).not.toContain(id);
    expect((await call('GET', `${PATH}/${id}`, shop.token)).body).toMatchObject({ url: receiverUrl('/mine'), events: ['loan.authorized'], is_active: true });
  });

  it('every route answers 401 without a dashboard token, with an API key pair, or with a revoked token', async () => {
    const revoked = await createMerchant(h, 'Revoked', { revokedAt: new Date() });
    const { publicKey, secretKey } = await apiKeyFor(shop.merchant.id);
    const id = String((await create(shop.token, { url: receiverUrl('/auth'), events: ['loan.authorized'] })).body.id);
    const routes: Array<[string, string, unknown?]> = [
      ['GET', PATH],
      ['POST', PATH, { url: receiverUrl('/x'), events: ['loan.authorized'] }],
      ['GET', `${PATH}/${id}`],
      ['PUT', `${PATH}/${id}`, { url: receiverUrl('/x'), events: ['loan.authorized'], is_active: true }],
      ['DELETE', `${PATH}/${id}`],
    ];
    for (const [method, path, body] of routes) {
      expect(await call(method, path, null, body)).toMatchObject({ status: 401, body: UNAUTHENTICATED });
      expect(await call(method, path, revoked.token, body)).toMatchObject({ status: 401, body: UNAUTHENTICATED });
      const withKeys = await fetch(`${h.service.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${secretKey}`, 'x-merchant-public-key': publicKey, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(withKeys.status).toBe(401);
    }
    expect((await call('GET', `${PATH}/${id}`, shop.token)).status).toBe(200);
  });
});

describe('endpoint limit', () => {
  it(`allows ${MAX_WEBHOOK_ENDPOINTS_PER_MERCHANT} endpoints per merchant, even under concurrent creates; the next is 422 webhook_endpoint_limit`, async () => {
    const merchant = await createMerchant(h, 'Busy Shop');
    const attempts = await Promise.all(
      Array.from({ length: MAX_WEBHOOK_ENDPOINTS_PER_MERCHANT + 4 }, (_, i) => create(merchant.token, { url: receiverUrl(`/many/${i}`), events: ['loan.authorized'] })),
    );
    expect(attempts.filter((a) => a.status === 201)).toHaveLength(MAX_WEBHOOK_ENDPOINTS_PER_MERCHANT);
    const refused = attempts.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(4);
    for (const answer of refused) {
      expect(answer.status).toBe(422);
      expect(answer.body.error).toEqual({ code: 'webhook_endpoint_limit', message: `A merchant can have at most ${MAX_WEBHOOK_ENDPOINTS_PER_MERCHANT} webhook endpoints; delete one first.` });
    }
    expect(await h.orm.em.fork().count(WebhookEndpoint, { merchant: merchant.merchant.id })).toBe(MAX_WEBHOOK_ENDPOINTS_PER_MERCHANT);
    // Another merchant is not affected, and deleting one makes room again.
    expect((await create(other.token, { url: receiverUrl('/other'), events: ['loan.authorized'] })).status).toBe(201);
    await call('DELETE', `${PATH}/${String(attempts.find((a) => a.status === 201)!.body.id)}`, merchant.token);
    expect((await create(merchant.token, { url: receiverUrl('/room'), events: ['loan.authorized'] })).status).toBe(201);
  });
});

async function apiKeyFor(merchantId: string): Promise<{ publicKey: string; secretKey: string }> {
  const em = h.orm.em.fork();
  const pair = generateKeyPair('test');
  em.create(ApiKey, { merchant: em.getReference(Merchant, merchantId), name: 'k', environment: 'test', publicKey: pair.publicKey, secretKeyHash: await hashSecretKey(pair.secretKey), revokedAt: null });
  await em.flush();
  return pair;
}

describe('GraphQL: webhookEndpoints and the endpoint mutations (same service, same rules)', () => {
  const dt = (token: string) => ({ authorization: `Bearer ${token}` });
  const ENDPOINT = 'id url events isActive createdAt updatedAt';

  it('creates (secret shown once), lists, updates and deletes through the same rules as REST', async () => {
    const merchant = await createMerchant(h, 'Graph Shop');
    const created = await gql(
      h.service.url,
      `mutation ($input: CreateBnplWebhookEndpointInput!) { createBnplWebhookEndpoint(input: $input) { secret webhookEndpoint { ${ENDPOINT} } } }`,
      dt(merchant.token),
      { input: { url: receiverUrl('/gql'), events: ['loan.authorized', 'loan.authorized', 'order.created'] } },
    );
    expect(created.body.errors).toBeUndefined();
    const result = created.body.data!.createBnplWebhookEndpoint as { secret: string; webhookEndpoint: Record<string, unknown> };
    expect(result.secret).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(result.webhookEndpoint).toEqual({ id: expect.any(String), url: receiverUrl('/gql'), events: ['loan.authorized', 'order.created'], isActive: true, createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) });
    const id = String(result.webhookEndpoint.id);
    expect((await call('GET', `${PATH}/${id}`, merchant.token)).status).toBe(200);

    const listed = await gql(h.service.url, `{ bnplMerchant { webhookEndpoints { ${ENDPOINT} } } }`, dt(merchant.token));
    expect(listed.body.data).toEqual({ bnplMerchant: { webhookEndpoints: [result.webhookEndpoint] } });
    expect(JSON.stringify(listed.body)).not.toContain(result.secret);

    const updated = await gql(
      h.service.url,
      `mutation ($id: ID!, $input: UpdateBnplWebhookEndpointInput!) { updateBnplWebhookEndpoint(id: $id, input: $input) { ${ENDPOINT} } }`,
      dt(merchant.token),
      { id, input: { url: receiverUrl('/gql2'), events: ['loan.funded'], isActive: false } },
    );
    expect(updated.body.data).toEqual({ updateBnplWebhookEndpoint: { ...result.webhookEndpoint, url: receiverUrl('/gql2'), events: ['loan.funded'], isActive: false, updatedAt: expect.stringMatching(ISO) } });

    const deleted = await gql(h.service.url, 'mutation ($id: ID!) { deleteBnplWebhookEndpoint(id: $id) }', dt(merchant.token), { id });
    expect(deleted.body.data).toEqual({ deleteBnplWebhookEndpoint: id });
    expect((await call('GET', `${PATH}/${id}`, merchant.token)).status).toBe(404);
  });

  it('refuses bad input with BAD_USER_INPUT naming the REST field, and another merchant’s endpoint with NOT_FOUND', async () => {
    const bad = await gql(
      h.service.url,
      'mutation ($input: CreateBnplWebhookEndpointInput!) { createBnplWebhookEndpoint(input: $input) { secret } }',
      dt(shop.token),
      { input: { url: 'http://localhost/x', events: ['nope'] } },
    );
    expect(bad.body.data).toEqual({ createBnplWebhookEndpoint: null });
    expect(bad.body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { 'events.0': [expect.stringMatching(/^Must be one of/)] } });

    const id = String((await create(shop.token, { url: receiverUrl('/gql-mine'), events: ['loan.authorized'] })).body.id);
    const stolen = await gql(
      h.service.url,
      'mutation ($id: ID!, $input: UpdateBnplWebhookEndpointInput!) { updateBnplWebhookEndpoint(id: $id, input: $input) { id } }',
      dt(other.token),
      { id, input: { url: receiverUrl('/stolen'), events: ['loan.funded'], isActive: true } },
    );
    expect(stolen.body.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND' });
    const removed = await gql(h.service.url, 'mutation ($id: ID!) { deleteBnplWebhookEndpoint(id: $id) }', dt(other.token), { id });
    expect(removed.body.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND' });
    expect((await call('GET', `${PATH}/${id}`, shop.token)).body).toMatchObject({ url: receiverUrl('/gql-mine') });
  });

  it('webhooks are managed with a dashboard token: an API key pair gets FORBIDDEN, no credential UNAUTHENTICATED', async () => {
    const { publicKey, secretKey } = await apiKeyFor(shop.merchant.id);
    const keys = { authorization: `Bearer ${secretKey}`, 'x-merchant-public-key': publicKey };
    const read = await gql(h.service.url, '{ bnplMerchant { id webhookEndpoints { id } } }', keys);
    expect(read.body.errors![0]!.extensions).toMatchObject({ code: 'FORBIDDEN' });
    const write = await gql(h.service.url, 'mutation { createBnplWebhookEndpoint(input: { url: "https://localhost/k", events: ["loan.authorized"] }) { secret } }', keys);
    expect(write.body.errors![0]!.extensions).toMatchObject({ code: 'FORBIDDEN' });
    const anonymous = await gql(h.service.url, 'mutation { createBnplWebhookEndpoint(input: { url: "https://localhost/k", events: ["loan.authorized"] }) { secret } }');
    expect(anonymous.body.errors![0]!.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(await h.orm.em.fork().count(WebhookEndpoint, { url: 'https://localhost/k' })).toBe(0);
  });
});

describe('receiver documentation', () => {
  it('the /docs page (OpenAPI Webhooks tag) and the README show how to verify X-Service-Signature', async () => {
    const document = (await (await fetch(`${h.service.url}/api/v1/openapi.json`)).json()) as { tags: Array<{ name: string; description?: string }>; paths: Record<string, unknown> };
    const tag = document.tags.find((t) => t.name === 'Webhooks');
    expect(tag?.description).toContain(WEBHOOK_SIGNATURE_VERIFICATION_SNIPPET);
    expect(tag?.description).toContain('X-Service-Signature');
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/v1/merchant/webhooks', '/api/v1/merchant/webhooks/{id}']));
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`\`\`\`js\n${WEBHOOK_SIGNATURE_VERIFICATION_SNIPPET}\n\`\`\``);
    expect(WEBHOOK_SIGNATURE_VERIFICATION_SNIPPET).toContain('timingSafeEqual');
  });

  it('the README renders every table whole: the Decisions section is one table, each run of rows has its header', () => {
    const lines = readFileSync(new URL('../README.md', import.meta.url), 'utf8').split('\n');
    let fenced = false;
    const prose = lines.map((line) => {
      if (line.startsWith('```')) fenced = !fenced;
      return fenced || line.startsWith('```') ? '' : line;
    });
    // A run of `|` lines is a table only with a header row and a separator under it; else it renders as loose text.
    const runs: string[][] = [];
    prose.forEach((line, i) => {
      if (!line.startsWith('|')) return;
      if (i > 0 && prose[i - 1]!.startsWith('|')) runs.at(-1)!.push(line);
      else runs.push([line]);
    });
    expect(runs.filter((run) => !/^\|(\s*:?-+:?\s*\|)+$/.test(run[1] ?? '')).map((run) => run[0]!.slice(0, 60))).toEqual([]);
    const start = prose.findIndex((line) => line.startsWith('## Decisions'));
    const next = prose.findIndex((line, i) => i > start && line.startsWith('## '));
    const section = prose.slice(start + 1, next === -1 ? undefined : next).filter((line) => line.trim() !== '');
    expect(section.filter((line) => !line.startsWith('| ') && !line.startsWith('|---'))).toEqual([]);
    expect(runs.filter((run) => section.includes(run[0]!))).toHaveLength(1);
    // Two cells per row: a `|` inside a cell, code spans included, is escaped (`\|`), else it starts another cell.
    expect(section.filter((line) => line.split(/(?<!\\)\|/).length !== 4).map((line) => line.slice(0, 60))).toEqual([]);
  });
});
