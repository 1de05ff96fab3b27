import { EntityRepository } from '@mikro-orm/postgresql';
import type { MerchantUser } from './merchant-user.entity.js';
import { normalizeEmail } from './merchant-user-email.js';

export class MerchantUserRepository extends EntityRepository<MerchantUser> {
  /** The user signing in with `email` (compared case-insensitively: stored lowercased). */
  findByEmail(email: string): Promise<MerchantUser | null> {
    return this.findOne({ email: normalizeEmail(email) });
  }
}
