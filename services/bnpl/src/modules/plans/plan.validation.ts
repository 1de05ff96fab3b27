// The plan switch body (spec: PUT /api/v1/merchant/plans/{plan_id} {is_enabled}) as a zod schema: the route documents
// it (plan.openapi.ts) and PlanService validates with it. Unknown fields are ignored.
import { z } from 'zod';

export const IS_ENABLED_MESSAGE = 'Must be true or false.';

export const setPlanEnabledBody = z
  .object({ is_enabled: z.boolean({ error: IS_ENABLED_MESSAGE }).meta({ description: 'true offers the plan at checkout, false stops offering it.' }) })
  .meta({ id: 'BnplPlanSwitch' });
