import type { Request } from 'express';
import { subgraphContext, type SubgraphContext } from '@tributary/kit';
import type { AccountService, CryptoPrincipal } from './modules/accounts/index.js';
import type { ChainWatchHealth } from './modules/chain-watch/index.js';
import type { PaymentRequestService } from './modules/payment-requests/index.js';
import type { PaymentService } from './modules/payments/index.js';
import type { ReceiveAddressGapService } from './modules/receive-addresses/index.js';
import type { WebhookDeliveryService } from './modules/webhooks/index.js';

/** The domain services the resolvers call (the same instances the REST routes use). */
export interface CryptoServices {
  accounts: AccountService;
  paymentRequests: PaymentRequestService;
  payments: PaymentService;
  webhookDeliveries: WebhookDeliveryService;
  chainWatchers: ChainWatchHealth;
  receiveAddressGaps: ReceiveAddressGapService;
}

/** The context of crypto's resolvers (codegen's contextType, see schema/codegen.ts). */
export type CryptoContext = SubgraphContext<CryptoServices, CryptoPrincipal>;

export function createContext(req: Request, services: CryptoServices): CryptoContext {
  // The rate limiter in front of /graphql (rate-limits.ts) has already authenticated a key that is valid: reuse it.
  const known = req.res?.locals.principal as CryptoPrincipal | undefined;
  return subgraphContext(services, async () => known ?? services.accounts.authenticate(req.headers.authorization));
}
