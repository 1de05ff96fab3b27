import { EntityRepository } from '@mikro-orm/postgresql';
import { PLAN_CATALOGUE, type InstallmentPlan, type PlanId } from './plan-catalogue.js';
import type { MerchantPlan } from './merchant-plan.entity.js';

export class MerchantPlanRepository extends EntityRepository<MerchantPlan> {
  /** Each catalogue plan with the merchant's switch (its row, else the catalogue default), in catalogue order. */
  async configuredFor(merchantId: string): Promise<Array<{ plan: InstallmentPlan; isEnabled: boolean }>> {
    const rows = await this.find({ merchant: merchantId });
    const switches = new Map<PlanId, boolean>(rows.map((row) => [row.planId, row.isEnabled]));
    return PLAN_CATALOGUE.map((plan) => ({ plan, isEnabled: switches.get(plan.id) ?? plan.enabledByDefault }));
  }

  /**
   * Switches one plan on or off: one statement inserting the merchant's row or updating it, so two concurrent switches
   * never collide on the unique (merchant, plan) constraint; the last one wins.
   */
  async setEnabled(merchantId: string, planId: PlanId, isEnabled: boolean): Promise<void> {
    await this.em.getConnection().execute(
      `insert into "merchant_plans" ("id", "merchant_id", "plan_id", "is_enabled", "updated_at") values (?, ?, ?, ?, clock_timestamp())
       on conflict ("merchant_id", "plan_id") do update set "is_enabled" = excluded."is_enabled", "updated_at" = excluded."updated_at"`,
      [crypto.randomUUID(), merchantId, planId, isEnabled],
      'run',
      this.em.getTransactionContext(),
    );
  }

  /** The plans checkout may offer this merchant's shoppers now. */
  async enabledFor(merchantId: string): Promise<InstallmentPlan[]> {
    return (await this.configuredFor(merchantId)).filter((c) => c.isEnabled).map((c) => c.plan);
  }
}
