import type { EntityManager } from '@mikro-orm/postgresql';
import { BODY_NOT_AN_OBJECT_MESSAGE, NotFoundError, ValidationError, parseInput } from '@tributary/kit';
import type { EnabledPlansCache } from './enabled-plans-cache.js';
import { MerchantPlan } from './merchant-plan.entity.js';
import { PLAN_CATALOGUE, isPlanId, planById, type InstallmentPlan } from './plan-catalogue.js';
import { setPlanEnabledBody } from './plan.validation.js';

/** One catalogue plan with the merchant's switch (its own, or the catalogue default). */
export interface ConfiguredPlan {
  plan: InstallmentPlan;
  isEnabled: boolean;
}

/** What GET /merchant/plans shows: every plan's switch, and the catalogue. */
export interface PlanOverview {
  configured: ConfiguredPlan[];
  available: readonly InstallmentPlan[];
}

/** The installment plan domain of the dashboard: one path for REST and GraphQL. */
export class PlanService {
  /** `enabledPlans`: the cache the widget-session create reads, cleared for the merchant after each switch. */
  constructor(
    private readonly em: EntityManager,
    private readonly enabledPlans?: EnabledPlansCache,
  ) {}

  async overview(merchantId: string): Promise<PlanOverview> {
    return { configured: await this.em.getRepository(MerchantPlan).configuredFor(merchantId), available: PLAN_CATALOGUE };
  }

  /** REST: validates the body ({is_enabled: boolean}) after the plan id; an unknown plan is a 404. */
  async setEnabledFromBody(merchantId: string, planId: string, body: unknown): Promise<ConfiguredPlan> {
    const plan = this.knownPlan(planId);
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) throw new ValidationError({ body: [BODY_NOT_AN_OBJECT_MESSAGE] });
    const input = parseInput(setPlanEnabledBody, body ?? {});
    return this.switchPlan(merchantId, plan, input.is_enabled);
  }

  /** Switches the plan on or off for the merchant's checkout; an unknown plan is a 404. */
  setEnabled(merchantId: string, planId: string, isEnabled: boolean): Promise<ConfiguredPlan> {
    return this.switchPlan(merchantId, this.knownPlan(planId), isEnabled);
  }

  private knownPlan(planId: string): InstallmentPlan {
    if (!isPlanId(planId)) throw new NotFoundError(`plan ${planId.slice(0, 40)}`);
    return planById(planId);
  }

  private async switchPlan(merchantId: string, plan: InstallmentPlan, isEnabled: boolean): Promise<ConfiguredPlan> {
    await this.em.getRepository(MerchantPlan).setEnabled(merchantId, plan.id, isEnabled);
    this.enabledPlans?.forget(merchantId);
    return { plan, isEnabled };
  }
}
