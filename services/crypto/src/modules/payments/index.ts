// Incoming payments: the single entry point (PaymentService.record), the Payment entity and its GraphQL type.
import { PaymentSchema } from './payment.entity.js';

export { Payment, PaymentSchema } from './payment.entity.js';
export { PaymentService, TXID_PATTERN, wrongNetworkMessage, type IncomingPayment, type OrphanedPayments, type PaymentServiceOptions, type RecordedPayment } from './payment.service.js';
export { paymentResolvers } from './payment.resolvers.js';

export const paymentEntities = [PaymentSchema];
