import { EntityRepository } from '@mikro-orm/postgresql';
import type { AccessToken } from './access-token.entity.js';

export class AccessTokenRepository extends EntityRepository<AccessToken> {
  findByHash(tokenHash: string): Promise<AccessToken | null> {
    return this.findOne({ tokenHash }, { populate: ['user', 'team'] });
  }
}
