import type { Request } from 'express';
import { clientIpKey, subgraphContext, type SubgraphContext } from '@tributary/kit';
import type { ApiKeyService } from './modules/api-keys/index.js';
import type { BnplPrincipal, MerchantAuthService } from './modules/merchant-auth/index.js';
import type { LoanService, LoanWorkflowViewer, TestClockService } from './modules/loans/index.js';
import type { MerchantService } from './modules/merchants/index.js';
import type { WebhookEndpointService } from './modules/webhook-endpoints/index.js';
import type { WebhookDeliveryService } from './modules/webhooks/index.js';
import type { PaymentLinkService } from './modules/payment-links/index.js';
import type { PlanService } from './modules/plans/index.js';
import type { RefundService } from './modules/refunds/index.js';
import type { SettlementService } from './modules/settlements/index.js';
import type { SalesService } from './modules/sales/index.js';
import type { WidgetSessionService } from './modules/widget-sessions/index.js';

export interface BnplServices {
  auth: MerchantAuthService;
  merchants: MerchantService;
  apiKeys: ApiKeyService;
  webhookEndpoints: WebhookEndpointService;
  webhookDeliveries: WebhookDeliveryService;
  paymentLinks: PaymentLinkService;
  loans: LoanService;
  loanWorkflows: LoanWorkflowViewer;
  refunds: RefundService;
  settlements: SettlementService;
  testClocks: TestClockService;
  sales: SalesService;
  widgetSessions: WidgetSessionService;
  plans: PlanService;
}

/** The context of bnpl's resolvers (codegen's contextType, see schema/codegen.ts). */
export type BnplContext = SubgraphContext<BnplServices, BnplPrincipal>;

export function createContext(services: BnplServices, req: Request): BnplContext {
  const publicKey = req.get('x-merchant-public-key');
  return subgraphContext(services, () => services.auth.authenticateEither(req.headers.authorization, publicKey, clientIpKey(req)));
}
