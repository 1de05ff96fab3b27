// Merchant events become webhook deliveries (outbox style): inside the transaction that changed the record, one
// delivery per ACTIVE endpoint of the merchant subscribed to the event, each with the start of its delivery workflow in
// the workflow outbox; after the commit the outbox dispatches them. Nothing is sent inline: the kit's delivery workflow
// on bnpl's worker sends and retries on bnpl's schedule (WEBHOOK_SCHEDULES.bnpl) with bnpl's headers
// (X-Service-Event, X-Service-Signature). If the process dies between commit and dispatch, the worker's outbox sweeper
// dispatches them. Loan events go through createLoanWebhookSink; part 2's installment and settlement events reuse
// emitMerchantEvent with their own data.
import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueueWebhookDelivery, type AfterCommit, type OutboxEntryRef, type WorkflowOutbox } from '@tributary/kit';
import { SERVICE_NAME } from '../../service-name.js';
import { installmentEventData, loanEventData, type LoanLifecycleEventSink } from '../loans/index.js';
import type { SettlementEventSink } from '../settlements/index.js';
import { WebhookEndpoint, isEmittedWebhookEvent, webhookEndpointSecretRef, type EmittedWebhookEvent } from '../webhook-endpoints/index.js';

export interface MerchantWebhookSinkOptions {
  /** Dispatches the deliveries after the commit. Without one the worker's outbox sweeper does (within about 15 s). */
  outbox?: WorkflowOutbox | undefined;
  /** Clock of the envelope's `timestamp` (enqueue time). */
  now?: () => Date;
}

/** The spec's envelope: exactly these three keys. */
export interface WebhookEnvelope<D extends object = object> {
  event: EmittedWebhookEvent;
  /** ISO 8601 UTC, when the event was queued; a retry or a re-send repeats it. */
  timestamp: string;
  data: D;
}

/**
 * The event's id in the delivery records (not in the body: the spec's envelope has no id): one per (subject, event),
 * e.g. `loan.authorized:<loan id>`. Every endpoint's delivery of one event shares it (delivery numbers 1, 2, ... tell
 * them and their re-sends apart), so a loan's loan.authorized is never queued under two ids.
 */
export function webhookEventId(event: EmittedWebhookEvent, subjectId: string): string {
  return `${event}:${subjectId}`;
}

/** `ownerId` of a merchant's deliveries: the merchant id, so its dashboard lists and re-sends only its own. */
export function deliveryOwnerId(merchantId: string): string {
  return merchantId;
}

export interface MerchantWebhookEmitter {
  /**
   * Queues `event` about subject `eventKey` (a loan, installment or settlement id) with `data` for every active endpoint
   * of the merchant subscribed to it, in `tx`; returns the after-commit dispatch (undefined when no endpoint wants it).
   * A reserved (never emitted) name is refused.
   */
  emitMerchantEvent(tx: EntityManager, merchantId: string, event: EmittedWebhookEvent, eventKey: string, data: object): Promise<AfterCommit | undefined>;
}

export function createMerchantWebhookEmitter(options: MerchantWebhookSinkOptions = {}): MerchantWebhookEmitter {
  const now = options.now ?? (() => new Date());
  return {
    async emitMerchantEvent(tx, merchantId, event, eventKey, data) {
      if (!isEmittedWebhookEvent(event)) throw new Error(`${String(event)} is not an emitted webhook event`);
      const endpoints = await tx.getRepository(WebhookEndpoint).subscribers(merchantId, event);
      if (endpoints.length === 0) return undefined;
      const envelope: WebhookEnvelope = { event, timestamp: now().toISOString(), data };
      const body = JSON.stringify(envelope);
      const queued: OutboxEntryRef[] = [];
      for (const endpoint of endpoints) {
        const { outboxEntry } = await enqueueWebhookDelivery(tx, {
          service: SERVICE_NAME,
          eventId: webhookEventId(event, eventKey),
          eventName: event,
          endpointUrl: endpoint.url,
          endpointId: endpoint.id,
          ownerId: deliveryOwnerId(merchantId),
          body,
          signingSecretRef: webhookEndpointSecretRef(endpoint.id),
        });
        queued.push(outboxEntry);
      }
      return options.outbox?.dispatchAfterCommit(queued);
    },
  };
}

/**
 * The loans module's LoanEventSink: loan.authorized (checkout), loan.funded and loan.completed (lifecycle) keyed by the
 * loan, installment.paid and installment.missed keyed by the installment (each happens once per installment).
 */
export function createLoanWebhookSink(options: MerchantWebhookSinkOptions = {}): LoanLifecycleEventSink {
  const emitter = createMerchantWebhookEmitter(options);
  return {
    emit: (tx, loan, event) => emitter.emitMerchantEvent(tx, loan.merchant.id, event, loan.id, loanEventData(loan)),
    emitInstallment: (tx, loan, installment, event) => emitter.emitMerchantEvent(tx, loan.merchant.id, event, installment.id, installmentEventData(loan, installment, event)),
  };
}

/** The settlements module's SettlementEventSink: settlement.processed when a batch is paid. */
export function createSettlementWebhookSink(options: MerchantWebhookSinkOptions = {}): SettlementEventSink {
  const emitter = createMerchantWebhookEmitter(options);
  return {
    settlementProcessed: (tx, merchantId, settlementId, data) => emitter.emitMerchantEvent(tx, merchantId, 'settlement.processed', settlementId, data),
  };
}
