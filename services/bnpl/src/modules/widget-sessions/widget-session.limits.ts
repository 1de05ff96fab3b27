// A widget session's lifetime and the lengths of its text fields: the columns (widget-session.entity.ts) and the create
// validation (widget-session.validation.ts) take them from here, so what is accepted always fits.

/** How long a session stays open: a shopper has 30 minutes from creation to complete checkout. */
export const WIDGET_SESSION_LIFETIME_MINUTES = 30;

/** The merchant's order reference (spec order_reference; the loan's purchase_reference). */
export const ORDER_REFERENCE_MAX = 191;
/** RFC 5321's practical limit of an e-mail address. */
export const CUSTOMER_EMAIL_MAX = 254;
/** E.164: `+` and at most 15 digits. */
export const CUSTOMER_PHONE_MAX = 16;
export const PURCHASE_DESCRIPTION_MAX = 500;
/** success_url and cancel_url. */
export const REDIRECT_URL_MAX = 2048;
