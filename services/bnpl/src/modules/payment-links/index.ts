// Payment links: permanent shareable URLs bound to a fixed price (DT CRUD) and their public pages.
import { PaymentLinkSchema } from './payment-link.entity.js';

export { PaymentLink, PaymentLinkSchema } from './payment-link.entity.js';
export { PAYMENT_LINK_SLUG_PATTERN, PaymentLinkService } from './payment-link.service.js';
export { paymentLinkPublicUrl, presentPaymentLink } from './payment-link.presenter.js';
export { paymentLinkApi } from './payment-link.openapi.js';
export { paymentLinkResolvers } from './payment-link.resolvers.js';
export { paymentLinkRoutes } from './payment-link.routes.js';

export const paymentLinkEntities = [PaymentLinkSchema];
