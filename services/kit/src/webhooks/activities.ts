import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import type { WebhookAttemptResult, WebhookDeliveryActivities } from '@tributary/workflows';
import type { Logger } from '../logging/index.js';
import { UNNAMED_SERVICE, webhookDeliveriesFailed, webhookDeliveryAttempts } from '../observability/metrics.js';
import { WebhookDelivery, WebhookDeliveryAttempt } from './entities.js';
import type { WebhookSender, WebhookSendResult } from './sender.js';
import { signPayload } from './signature.js';
import { standardWebhookHeaders } from './standard-webhooks.js';

export interface WebhookDeliveryActivityDeps {
  /** The owning service (metrics); default UNNAMED_SERVICE. */
  service?: string;
  /** Root EntityManager of the owning service's database (orm.em); each activity forks its own. */
  em: EntityManager;
  /** SSRF-safe sender (createWebhookSender with the service's WEBHOOK_ALLOW_PRIVATE_HOSTS). */
  sender: WebhookSender;
  /**
   * Returns the signing secret CURRENT now for a delivery's `signingSecretRef`, or null when there is none any
   * more (the attempt then fails and is recorded). Throwing means "try again" (infrastructure trouble).
   */
  resolveSigningSecret(ref: string): Promise<string | null>;
  /**
   * The body text an attempt sends, rendered at send time (e.g. with a status read now). Default: the stored body,
   * unchanged. The rendered bytes are what is signed and sent, and become the delivery's stored body.
   */
  renderBody?(delivery: WebhookDelivery, attemptedAt: Date): Promise<string>;
  logger?: Logger;
}

const fromAttempt = (attempt: WebhookDeliveryAttempt, replayed: boolean): WebhookAttemptResult => ({
  attemptNumber: attempt.attemptNumber,
  delivered: attempt.outcome === 'delivered',
  statusCode: attempt.statusCode ?? null,
  error: attempt.error ?? null,
  durationMs: attempt.durationMs,
  replayed,
});

/** The event header and the signature headers of one attempt, by the delivery's scheme. */
function signedHeaders(delivery: WebhookDelivery, secret: string, body: Buffer, attemptedAt: Date): Record<string, string> {
  const event = { [delivery.eventHeader]: delivery.eventName };
  if (delivery.signatureScheme === 'standard-webhooks') {
    // webhook-id is the event id: the same on every retry and re-send, so a receiver can drop repeats.
    return { ...event, ...standardWebhookHeaders(secret, delivery.eventId, Math.floor(attemptedAt.getTime() / 1000), body) };
  }
  return { ...event, [delivery.signatureHeader]: signPayload(secret, body) };
}

/**
 * The webhook delivery activities of one service, bound to its database, sender and secret store.
 * Register the returned object on the service's worker (createServiceWorker({ activities })).
 */
export function createWebhookDeliveryActivities(deps: WebhookDeliveryActivityDeps): WebhookDeliveryActivities {
  const { sender, resolveSigningSecret, logger } = deps;
  const service = deps.service ?? UNNAMED_SERVICE;

  return {
    async deliverWebhookAttempt({ deliveryId, attemptNumber, timeoutMs, nextAttemptInMs }) {
      const em = deps.em.fork();
      // An earlier execution of this activity may have recorded the attempt and then lost its completion:
      // report what was recorded instead of sending again.
      const recorded = await em.findOne(WebhookDeliveryAttempt, { deliveryId, attemptNumber });
      if (recorded) return fromAttempt(recorded, true);

      const delivery = await em.findOne(WebhookDelivery, { id: deliveryId });
      if (!delivery) throw ApplicationFailure.nonRetryable(`webhook delivery ${deliveryId} not found`, 'WebhookDeliveryNotFound');

      const attemptedAt = new Date();
      const bodyText = deps.renderBody ? await deps.renderBody(delivery, attemptedAt) : delivery.body;
      const body = Buffer.from(bodyText, 'utf8');
      const secret = await resolveSigningSecret(delivery.signingSecretRef);
      let result: WebhookSendResult;
      if (secret === null) {
        result = { ok: false, statusCode: null, error: 'no signing secret for this endpoint', errorKind: 'blocked', durationMs: 0, remoteAddress: null };
      } else {
        result = await sender.send({
          url: delivery.endpointUrl,
          body,
          timeoutMs,
          headers: signedHeaders(delivery, secret, body, attemptedAt),
        });
      }

      const finishedAt = new Date();
      const attempt = em.create(WebhookDeliveryAttempt, {
        id: randomUUID(),
        deliveryId,
        attemptNumber,
        outcome: result.ok ? 'delivered' : 'failed',
        attemptedAt,
        statusCode: result.statusCode,
        error: result.error,
        errorKind: result.errorKind,
        durationMs: result.durationMs,
        remoteAddress: result.remoteAddress,
      });
      try {
        await em.transactional(async (tx) => {
          await tx.persist(attempt).flush();
          await tx.nativeUpdate(
            WebhookDelivery,
            { id: deliveryId },
            {
              status: result.ok ? 'delivered' : 'delivering',
              attemptCount: attemptNumber,
              lastStatusCode: result.statusCode,
              lastError: result.error,
              lastAttemptAt: attemptedAt,
              nextAttemptAt: !result.ok && nextAttemptInMs !== null ? new Date(finishedAt.getTime() + nextAttemptInMs) : null,
              completedAt: result.ok ? finishedAt : null,
              // What the receiver got last, so the stored body verifies against the last signature.
              ...(bodyText === delivery.body ? {} : { body: bodyText }),
            },
          );
        });
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException) {
          // A concurrent execution of the same attempt recorded first: keep its record.
          const existing = await deps.em.fork().findOne(WebhookDeliveryAttempt, { deliveryId, attemptNumber });
          if (existing) return fromAttempt(existing, true);
        }
        throw error;
      }
      webhookDeliveryAttempts.inc({ service, outcome: attempt.outcome, attempt: String(attemptNumber) });
      logger?.info(
        { deliveryId, eventName: delivery.eventName, attemptNumber, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs },
        result.ok ? 'webhook delivered' : 'webhook attempt failed',
      );
      return fromAttempt(attempt, false);
    },

    async markWebhookDeliveryFailed({ deliveryId, attempts }) {
      const em = deps.em.fork();
      const updated = await em.nativeUpdate(
        WebhookDelivery,
        { id: deliveryId, status: { $ne: 'delivered' } },
        { status: 'failed', nextAttemptAt: null, completedAt: new Date() },
      );
      if (updated === 0) return;
      webhookDeliveriesFailed.inc({ service });
      logger?.warn({ deliveryId, attempts }, 'webhook delivery permanently failed');
    },
  };
}
