// The shopper's hosted checkout: the page at checkout_url (eligibility on open, the loan booked on confirm), the
// embedding script widget.js, and the eligibility rule.
export { CheckoutService, type CheckoutServiceOptions, type ConfirmOutcome, type PaymentLinkUseCounter } from './checkout.service.js';
export { CHECKOUT_FORM_BODY_ROUTE, CHECKOUT_FORM_MEDIA_TYPE, CHECKOUT_PAGE_ROUTE, CONFIRM_STATUS, checkoutRoutes, securePage } from './checkout.routes.js';
export {
  CHECKOUT_MESSAGES,
  EMBED_MODES,
  EMBED_QUERY_PARAM,
  FETCH_DEST_HEADER,
  NO_SESSION_CONTENT_SECURITY_POLICY,
  checkoutPageContentSecurityPolicy,
  merchantOrigins,
  parseEmbedMode,
  requestEmbedMode,
  type CheckoutSuccessMessage,
  type EmbedMode,
  type MerchantOrigins,
} from './checkout.embedding.js';
export { CHECKOUT_ASSET_CACHE_CONTROL, CHECKOUT_PAGE_FILES, CHECKOUT_STATIC_DIR, WIDGET_SCRIPT_CACHE_CONTROL } from './checkout.assets.js';
export { CLOSED_TEXT, checkoutPath, planCadence, planFeeText, renderCheckoutPage, renderNotFoundPage, type RenderOptions } from './checkout.view.js';
export type { CheckoutPage, CheckoutSummary, ClosedPage, ClosedStatus, CompletedPage, FormPage, PlanOffer } from './checkout.pages.js';
export { E164_PATTERN, SHOPPER_FIELDS, SHOPPER_MESSAGES, TERMS_ACCEPTED, checkShopperForm, normalizePhone, type ShopperDetails, type ShopperFormValues } from './checkout.validation.js';
export { decideEligibility, isDeclineTriggerEmail, plansCovering, type EligibilityDecision, type EligibilityInput, type IneligibleReason } from './eligibility.js';
export { formatBps, formatDueDate, formatMoney } from './checkout-format.js';
