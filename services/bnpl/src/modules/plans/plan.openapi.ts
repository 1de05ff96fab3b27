// The installment plan routes as OpenAPI operations; plan.routes.ts mounts its handlers on these definitions.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { MERCHANT_PREFIX } from '../../api-paths.js';
import { DASHBOARD_TOKEN_SECURITY } from '../../api-security.js';
import { PLAN_IDS } from './plan-catalogue.js';
import { SUPPORTED_CURRENCIES } from './supported-currencies.js';
import { setPlanEnabledBody } from './plan.validation.js';

const tags = ['Installment plans'];

export const configuredPlanResource = z
  .object({
    plan: z.enum(PLAN_IDS).meta({ description: 'The plan id (an `available` element\'s `plan`).' }),
    is_enabled: z.boolean().meta({ description: 'Whether checkout offers the plan to this merchant\'s shoppers.' }),
  })
  .meta({ id: 'BnplConfiguredPlan' });

export const availablePlanResource = z
  .object({
    plan: z.enum(PLAN_IDS),
    name: z.string(),
    installment_count: z.number().int().meta({ description: 'Number of installments the shopper pays.' }),
    interval: z.enum(['day', 'month']).meta({ description: 'Unit of the spacing between due dates.' }),
    interval_count: z.number().int().meta({ description: 'Spacing between due dates, in `interval` units (14 days; 1 month).' }),
    first_due: z.enum(['at_checkout', 'after_one_interval']).meta({ description: 'at_checkout: the first installment is paid when the loan is booked.' }),
    fee_bps: z.number().int().meta({ description: "The shopper's flat fee in basis points of the principal (0 = interest free); no compounding. Live loans only: no fees apply in test mode." }),
    min_amount_cents: z.number().int().meta({ description: 'Smallest principal the plan accepts (inclusive, minor units).' }),
    max_amount_cents: z.number().int().meta({ description: 'Largest principal the plan accepts (inclusive, minor units).' }),
    enabled_by_default: z.boolean().meta({ description: 'Whether a merchant that never switched it has it on.' }),
  })
  .meta({ id: 'BnplAvailablePlan', description: `A plan of the catalogue. Limits apply in every supported currency (${SUPPORTED_CURRENCIES.join(', ')}; all two-decimal).` });

export const planOverviewResponse = z
  .object({
    configured: z.array(configuredPlanResource).meta({ description: "Every catalogue plan with the merchant's switch, in catalogue order." }),
    available: z.array(availablePlanResource).meta({ description: 'The catalogue.' }),
  })
  .meta({ id: 'BnplPlanOverview' });

export const planApi = {
  list: defineApiRoute({
    method: 'get',
    path: `${MERCHANT_PREFIX}/plans`,
    errors: [401],
    operation: {
      operationId: 'listPlans',
      summary: "The merchant's installment plans and the catalogue",
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      responses: { '200': { description: 'Switches and catalogue.', content: { 'application/json': { schema: planOverviewResponse } } } },
    },
  }),
  update: defineApiRoute({
    method: 'put',
    path: `${MERCHANT_PREFIX}/plans/:plan_id`,
    errors: [401, 404, 422],
    operation: {
      operationId: 'setPlanEnabled',
      summary: 'Turn an installment plan on or off for checkout',
      description: 'An unknown plan_id answers 404. Sessions already open keep their amount; checkout offers only the plans enabled when the shopper opens it.',
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestParams: { path: z.object({ plan_id: z.string().meta({ description: `One of ${PLAN_IDS.join(', ')}.` }) }) },
      requestBody: { required: true, content: { 'application/json': { schema: setPlanEnabledBody } } },
      responses: { '200': { description: 'The plan with its new switch.', content: { 'application/json': { schema: configuredPlanResource } } } },
    },
  }),
};
