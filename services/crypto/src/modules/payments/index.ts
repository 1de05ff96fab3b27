// Incoming payments: the single entry point (PaymentService.record) and the Payment entity.
import { PaymentSchema } from './payment.entity.js';

export { Payment, PaymentSchema } from './payment.entity.js';
export { PaymentService, TXID_PATTERN, type IncomingPayment, type PaymentServiceOptions, type RecordedPayment } from './payment.service.js';

export const paymentEntities = [PaymentSchema];
