import type { Request } from 'express';
import { subgraphContext, type SubgraphContext } from '@tributary/kit';
import type { AccountService, CryptoPrincipal } from './modules/accounts/account.service.js';
import type { PaymentRequestService } from './modules/payment-requests/payment-request.service.js';
import type { PaymentService } from './modules/payments/payment.service.js';
import type { WebhookDeliveryService } from './modules/webhooks/webhook-delivery.service.js';

export interface CryptoServices {
  accounts: AccountService;
  paymentRequests: PaymentRequestService;
  payments: PaymentService;
  webhookDeliveries: WebhookDeliveryService;
}

/** The context of crypto's resolvers (codegen's contextType, see schema/codegen.ts). */
export type CryptoContext = SubgraphContext<CryptoServices, CryptoPrincipal>;

export function createContext(req: Request, services: CryptoServices): CryptoContext {
  // The rate limiter in front of /graphql (rate-limits.ts) has already authenticated a key that is valid: reuse it.
  const known = req.res?.locals.principal as CryptoPrincipal | undefined;
  return subgraphContext(services, async () => known ?? services.accounts.authenticate(req.headers.authorization));
}
