import { EntityRepository } from '@mikro-orm/postgresql';
import type { DashboardToken } from './dashboard-token.entity.js';

export class DashboardTokenRepository extends EntityRepository<DashboardToken> {
  findByHashWithMerchant(tokenHash: string): Promise<DashboardToken | null> {
    return this.findOne({ tokenHash }, { populate: ['user', 'user.merchant'] });
  }
}
