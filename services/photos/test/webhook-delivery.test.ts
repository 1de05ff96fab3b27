// Signed webhooks end to end (README Decisions "Webhooks"): an owner registers an HTTPS endpoint, a project is created
// over REST, and photos' own worker delivers project.created to a real local HTTPS receiver, signed the Standard
// Webhooks way, with `data` byte for byte the REST resource. Everything real: PostgreSQL, Temporal, HTTP, TLS.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, generateSecretBoxKey, verifyStandardWebhook, WebhookDelivery } from '@tributary/kit';
import { startHttpsReceiver, waitFor, type HttpsReceiver } from '@tributary/kit/testing';
import { startTimeSkippingEnvironment } from '@tributary/workflows/testing';
import { TeamMembership } from '../src/modules/teams/index.js';
import { startWorker, type RunningWorker } from '../src/worker.js';
import { createTeam, startHarness, type Harness } from './helpers.js';

type TimeSkippingEnvironment = Awaited<ReturnType<typeof startTimeSkippingEnvironment>>;

const KEY = generateSecretBoxKey();
const PRIVATE_HOSTS = ['localhost', '127.0.0.1'];

let env: TimeSkippingEnvironment;
let h: Harness;
let receiver: HttpsReceiver;
let worker: RunningWorker;

beforeAll(async () => {
  env = await startTimeSkippingEnvironment();
  h = await startHarness({ env: { WEBHOOK_ALLOW_PRIVATE_HOSTS: PRIVATE_HOSTS.join(','), SECRETS_ENCRYPTION_KEY: KEY, TEMPORAL_ADDRESS: env.address } });
  receiver = await startHttpsReceiver();
  worker = await startWorker({
    orm: h.orm,
    logger: createLogger({ service: 'photos', level: 'silent' }),
    config: { TEMPORAL_ADDRESS: env.address, TEMPORAL_NAMESPACE: env.namespace ?? 'default', WEBHOOK_ALLOW_PRIVATE_HOSTS: PRIVATE_HOSTS },
    env: { SECRETS_ENCRYPTION_KEY: KEY },
  });
}, 180_000);

afterAll(async () => {
  await worker?.shutdown();
  await env?.teardown();
  await receiver?.close();
  await h?.close();
});

describe('project.created at a registered endpoint', () => {
  it('arrives once, signed with the endpoint secret, data byte for byte the POST /projects resource; a replay announces nothing', async () => {
    const url = h.service.url;
    const office = await createTeam(h, 'Webhook Delivery Team');
    await h.orm.em.fork().nativeUpdate(TeamMembership, { id: office.membership.id }, { role: 'owner' });
    const headers = { authorization: `Bearer ${office.token}`, 'content-type': 'application/json' };
    const registered = await fetch(`${url}/api/v1/webhook-endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: `${receiver.url}/photos-hook`, events: ['project.created'] }) });
    expect(registered.status).toBe(201);
    const { secret } = ((await registered.json()) as { data: { secret: string } }).data;

    const create = () =>
      fetch(`${url}/api/v1/projects`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': 'dock-4' },
        body: JSON.stringify({ name: 'Dock 4 extension', address: '4 Wharf Road', coordinates: { lat: -36.84, lng: 174.76 } }),
      });
    const created = await create();
    expect(created.status).toBe(201);
    const createdText = await created.text();
    const resourceText = JSON.stringify((JSON.parse(createdText) as { data: unknown }).data);

    const [hook] = await waitFor(async () => receiver.requests.filter((r) => r.path === '/photos-hook'), (requests) => requests.length >= 1, 30_000);
    expect(hook!.headers['webhook-event']).toBe('project.created');
    expect(verifyStandardWebhook(secret, hook!.headers, hook!.body)).toEqual({ ok: true });
    const bodyText = hook!.body.toString('utf8');
    const envelope = JSON.parse(bodyText) as { id: string; type: string; timestamp: string };
    expect(envelope).toMatchObject({ type: 'project.created', id: hook!.headers['webhook-id'] });
    // Byte for byte: the envelope's data is exactly the text of the REST resource.
    expect(bodyText).toBe(`{"id":"${envelope.id}","type":"project.created","timestamp":"${envelope.timestamp}","data":${resourceText}}`);

    // An idempotent replay of the create returns the same project and queues nothing more.
    expect((await create()).status).toBe(201);
    const deliveries = await h.orm.em.fork().find(WebhookDelivery, { ownerId: String(office.team.id) });
    expect(deliveries).toHaveLength(1);
    await waitFor(async () => h.orm.em.fork().findOneOrFail(WebhookDelivery, deliveries[0]!.id), (d) => d.status === 'delivered', 30_000);
  }, 90_000);
});
