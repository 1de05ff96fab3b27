// The spec's payment link resource, with the further fields a merchant needs (uses_count, environment, timestamps).
import type { z } from 'zod';
import { PAYMENT_LINK_PAGE_PREFIX } from '../../api-paths.js';
import type { PaymentLink } from './payment-link.entity.js';
import type { paymentLinkResource } from './payment-link.openapi.js';

export function paymentLinkPublicUrl(publicBaseUrl: string, link: Pick<PaymentLink, 'slug'>): string {
  return `${publicBaseUrl}${PAYMENT_LINK_PAGE_PREFIX}/${link.slug}`;
}

export function presentPaymentLink(link: PaymentLink, publicBaseUrl: string): z.input<typeof paymentLinkResource> {
  return {
    id: link.id,
    title: link.title,
    amount_cents: link.amountCents,
    currency: link.currency,
    max_uses: link.maxUses ?? null,
    slug: link.slug,
    public_url: paymentLinkPublicUrl(publicBaseUrl, link),
    is_redeemable: link.isRedeemable(),
    uses_count: link.usesCount,
    environment: link.environment,
    livemode: link.environment === 'live',
    created_at: link.createdAt.toISOString(),
    updated_at: link.updatedAt.toISOString(),
  };
}
