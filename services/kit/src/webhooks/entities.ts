import { defineEntity, p } from '@mikro-orm/core';
import type { InferEntity } from '@mikro-orm/core';
import { WebhookDeliveryRepository } from './webhook-delivery.repository.js';
import { DEFAULT_WEBHOOK_SIGNATURE_SCHEME, WEBHOOK_SIGNATURE_SCHEMES } from './headers.js';

export const WEBHOOK_DELIVERY_STATUSES = ['queued', 'delivering', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * One delivery of one event to one endpoint, owned by the service that emits it (each service has these
 * tables in its own database, created by `CreateWebhookDeliveryTables`). The body text is stored at enqueue
 * time: every attempt sends exactly these bytes, unless the service renders each attempt's body (`renderBody`, which
 * then stores the bytes it sent); the signature is computed per attempt with the secret
 * current then (looked up through `signingSecretRef`). Its workflow is started through the workflow outbox, enqueued
 * in the same transaction (delivery-queue.ts).
 */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  repository: () => WebhookDeliveryRepository,
  // The constraints and indexes of the kit's webhook migrations (migration.ts), so a schema diff of a service that
  // owns these tables is empty. Only the two foreign keys live in the migrations alone (ids are plain uuid columns).
  uniques: [
    { name: 'webhook_deliveries_event_delivery_number_unique', properties: ['eventId', 'deliveryNumber'] },
    { name: 'webhook_deliveries_workflow_id_unique', properties: ['workflowId'] },
  ],
  indexes: [
    { name: 'webhook_deliveries_endpoint_idx', properties: ['endpointId', 'createdAt'] },
    // An owner's recent deliveries (a merchant's dashboard).
    { name: 'webhook_deliveries_owner_idx', properties: ['ownerId', 'createdAt'] },
  ],
  checks: [{ name: 'webhook_deliveries_delivery_number_check', expression: 'delivery_number >= 1' }],
  properties: {
    /** Stable delivery id (UUID). */
    id: p.uuid().primary(),
    /** Service that owns and sends the delivery (bnpl, crypto...). */
    service: p.string().length(32),
    /** The event's stable id; with the event name it identifies a repeat to the receiver. */
    eventId: p.string(),
    eventName: p.string(),
    /** 1 for the first delivery of the event, then 2, 3... for further endpoints and manual re-fires. */
    deliveryNumber: p.integer(),
    /** Delivery this one re-fires, if any. */
    redeliveryOf: p.uuid().nullable(),
    /** Service-defined endpoint reference (e.g. a webhook endpoint id or a payment request id). */
    endpointId: p.string().nullable(),
    /** Who the delivery belongs to, in the service's terms (e.g. crypto's account id): whose dashboard lists it. */
    ownerId: p.string().length(64).nullable(),
    endpointUrl: p.text(),
    /** Exact body text; its UTF-8 bytes are what is sent and signed (with `renderBody`: the bytes last sent). */
    body: p.text(),
    eventHeader: p.string(),
    signatureHeader: p.string(),
    /** How each attempt is signed (WEBHOOK_SIGNATURE_SCHEMES). */
    signatureScheme: p.enum(WEBHOOK_SIGNATURE_SCHEMES).default(DEFAULT_WEBHOOK_SIGNATURE_SCHEME),
    /** Reference the service resolves to the signing secret at send time (never the secret itself). */
    signingSecretRef: p.string(),
    status: p.enum(WEBHOOK_DELIVERY_STATUSES).default('queued'),
    workflowId: p.string().length(512),
    attemptCount: p.integer().default(0),
    lastStatusCode: p.integer().nullable(),
    lastError: p.text().nullable(),
    lastAttemptAt: p.datetime().nullable(),
    nextAttemptAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type WebhookDelivery = InferEntity<typeof WebhookDelivery>;

export const WEBHOOK_ATTEMPT_OUTCOMES = ['delivered', 'failed'] as const;

/** One HTTP attempt of a delivery; (deliveryId, attemptNumber) is unique, so a retried activity never records twice. */
export const WebhookDeliveryAttempt = defineEntity({
  name: 'WebhookDeliveryAttempt',
  tableName: 'webhook_delivery_attempts',
  uniques: [{ name: 'webhook_delivery_attempts_delivery_attempt_unique', properties: ['deliveryId', 'attemptNumber'] }],
  checks: [{ name: 'webhook_delivery_attempts_attempt_number_check', expression: 'attempt_number >= 1' }],
  properties: {
    id: p.uuid().primary(),
    deliveryId: p.uuid(),
    attemptNumber: p.integer(),
    outcome: p.enum(WEBHOOK_ATTEMPT_OUTCOMES),
    /** When the request was started (wall clock of the worker). */
    attemptedAt: p.datetime(),
    statusCode: p.integer().nullable(),
    /** Failure reason (timeout, refused destination, connection error, non-2xx...), null on success. */
    error: p.text().nullable(),
    errorKind: p.string().length(32).nullable(),
    durationMs: p.integer(),
    /** Address actually connected to, when a connection was made. */
    remoteAddress: p.string().length(64).nullable(),
  },
});
export type WebhookDeliveryAttempt = InferEntity<typeof WebhookDeliveryAttempt>;
