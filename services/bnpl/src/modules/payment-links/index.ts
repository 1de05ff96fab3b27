// Payment links: permanent shareable URLs bound to a fixed price (DT CRUD) and their public pages.
import { PaymentLinkSchema } from './payment-link.entity.js';

export { PaymentLink, PaymentLinkSchema } from './payment-link.entity.js';
export { PAYMENT_LINK_SLUG_PATTERN, PaymentLinkService, type PaymentLinkCheckoutStart, type PaymentLinkServiceOptions } from './payment-link.service.js';
export { PAYMENT_LINK_FORM_BODY_ROUTE, SOLD_OUT_STATUS, paymentLinkPageRoutes } from './payment-link-page.routes.js';
export { PAYMENT_LINK_PAGE_TEXT, paymentLinkDonePath, paymentLinkPagePath, renderPaymentLinkPage, type PaymentLinkPageModel } from './payment-link-page.view.js';
export { paymentLinkPublicUrl, presentPaymentLink } from './payment-link.presenter.js';
export { paymentLinkApi } from './payment-link.openapi.js';
export { paymentLinkResolvers } from './payment-link.resolvers.js';
export { paymentLinkRoutes } from './payment-link.routes.js';
export { PAYMENT_LINK_BUSY_RETRY_SECONDS, PAYMENT_LINK_MAX_OPEN_SESSIONS } from './payment-link.service.js';

export const paymentLinkEntities = [PaymentLinkSchema];
