// Payment requests: entity, repository, domain service, status engine, validation, REST routes, GraphQL resolvers.
import { PaymentRequestSchema } from './payment-request.entity.js';

export { PaymentRequest, PaymentRequestSchema } from './payment-request.entity.js';
export { PaymentRequestRepository, reportedStatusWhere, type PaymentRequestListFilter, type PaymentRequestPage } from './payment-request.repository.js';
export { PaymentRequestService, SLUG_FORMAT, SLUG_LENGTH, SLUG_PATTERN, type PaymentRequestChange, type PaymentRequestCreation, type PaymentRequestServiceOptions } from './payment-request.service.js';
export { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_MESSAGES } from './payment-request.idempotency.js';
export { domainEvents, noPaymentEvents, type PaymentDomainEvent, type PaymentEventSink, type PaymentRef } from './payment-request.events.js';
export { merchantPath, presentPaymentRequest, presentPaymentRequestPage, presentPublicPaymentRequest, type PaymentRequestBody, type PublicPaymentRequestBody } from './payment-request.presenter.js';
export { paymentRequestApi, paymentRequestListResponse, paymentRequestResource, paymentRequestResponse, publicPaymentRequestResource } from './payment-request.openapi.js';
export { paymentRequestRoutes } from './payment-request.routes.js';
export { paymentRequestResolvers } from './payment-request.resolvers.js';
export * from './payment-request.validation.js';
export * from './status-engine.js';

export const paymentRequestEntities = [PaymentRequestSchema];
