// Everything a crypto webhook test needs, real end to end: the service over HTTP on its own database, the kit's
// delivery workflow on a time-skipping Temporal server with crypto's signing-secret resolver, a local HTTPS receiver,
// the workflow outbox on that server, and a merchant account with an API key and its signing secret.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { createLogger, createWebhookDeliveryActivities, createWebhookSender, createWorkflowOutbox, generateSecretBoxKey, loadConfig, secretBoxFor, secretsEnv, type SecretBox, type WorkflowOutbox } from '@tributary/kit';
import { startHttpsReceiver, type HttpsReceiver } from '@tributary/kit/testing';
import { startTimeSkippingEnvironment } from '@tributary/workflows/testing';
import { createServiceWorker } from '@tributary/workflows/worker';
import { createInvoiceActivities } from '../src/modules/invoice-workflow/index.js';
import { PaymentRequestService } from '../src/modules/payment-requests/index.js';
import { createPaymentWebhookSink } from '../src/modules/webhooks/index.js';
import { cryptoWorker, resolveSigningSecret } from '../src/worker.js';
import { createMerchant as createTestMerchant, startHarness, type Harness } from './helpers.js';

export const PRIVATE_HOSTS = 'localhost,127.0.0.1';

export interface TestMerchant {
  accountId: number;
  apiKey: string;
  signingSecret: string;
}

export interface WebhookTestbed {
  /** The SECRETS_ENCRYPTION_KEY the service and worker share. */
  encryptionKey: string;
  box: SecretBox;
  h: Harness;
  env: TestWorkflowEnvironment;
  receiver: HttpsReceiver;
  /** The workflow outbox on the time-skipping server (what the operator commands and the worker use). */
  outbox: WorkflowOutbox;
  merchant: TestMerchant;
  createMerchant(name: string): Promise<TestMerchant>;
  close(): Promise<void>;
}

/**
 * `serviceOnTestServer`: the HTTP service's own workflow outbox (invoice workflows, dispatch after commit) talks to
 * the time-skipping server too, so what the service starts is delivered by this worker. Off, it uses the run's
 * TEMPORAL_ADDRESS (a real-time dev server without a crypto worker), which keeps invoice deadlines out of the
 * skipped time of tests that wait through retry schedules.
 */
export async function startWebhookTestbed(options: { serviceOnTestServer?: boolean } = {}): Promise<WebhookTestbed> {
  const encryptionKey = generateSecretBoxKey();
  const box = secretBoxFor(loadConfig(secretsEnv, { SECRETS_ENCRYPTION_KEY: encryptionKey }));
  const env = await startTimeSkippingEnvironment();
  const h = await startHarness({
    env: { WEBHOOK_ALLOW_PRIVATE_HOSTS: PRIVATE_HOSTS, SECRETS_ENCRYPTION_KEY: encryptionKey, ...(options.serviceOnTestServer ? { TEMPORAL_ADDRESS: env.address } : {}) },
  });
  const receiver = await startHttpsReceiver();
  const logger = createLogger({ service: 'crypto', level: 'silent' });
  const outbox = createWorkflowOutbox({ em: h.orm.em, client: env.client, logger });
  // The invoice workflows the service starts on this server reach their deadline when a test's wait skips time; the
  // real activity decides on the server's (skipped) clock, as in production the worker's clock is the deadline's.
  let serverNow = new Date();
  const invoices = createInvoiceActivities({
    paymentRequests: new PaymentRequestService(h.orm.em.fork(), { now: () => serverNow, events: createPaymentWebhookSink({ outbox }), outbox }),
  });
  const worker: Worker = await createServiceWorker({
    service: 'crypto',
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    activities: {
      ...createWebhookDeliveryActivities({
        em: h.orm.em,
        sender: createWebhookSender({ allowPrivateHosts: PRIVATE_HOSTS.split(',') }),
        resolveSigningSecret: (ref) => resolveSigningSecret(ref, { em: h.orm.em.fork(), env: { SECRETS_ENCRYPTION_KEY: encryptionKey } }),
        renderBody: (delivery, sentAt) => cryptoWorker.renderWebhookBody!(delivery, sentAt, { em: h.orm.em.fork(), env: { SECRETS_ENCRYPTION_KEY: encryptionKey } }),
        logger,
      }),
      ...(options.serviceOnTestServer
        ? {
            expireInvoiceIfDue: async (input: Parameters<typeof invoices.expireInvoiceIfDue>[0]) => {
              serverNow = new Date(await env.currentTimeMs());
              return invoices.expireInvoiceIfDue(input);
            },
          }
        : {}),
    },
  });
  const running = worker.run();

  const createMerchant = async (name: string): Promise<TestMerchant> => {
    const merchant = await createTestMerchant(h, name, { box });
    return { accountId: merchant.accountId, signingSecret: merchant.signingSecret, apiKey: merchant.key };
  };

  return {
    encryptionKey,
    box,
    h,
    env,
    receiver,
    outbox,
    merchant: await createMerchant('Webhook Shop'),
    createMerchant,
    async close() {
      await outbox.idle();
      worker.shutdown();
      await running;
      await env.teardown();
      await receiver.close();
      await h.close();
    },
  };
}
