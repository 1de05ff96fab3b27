import { EntityRepository } from '@mikro-orm/postgresql';
import type { DashboardToken } from './dashboard-token.entity.js';

/** What authenticating a dashboard token needs of it: the token's state and whose it is. */
export interface DashboardTokenCredential {
  id: string;
  tokenHash: string;
  merchantUserId: string;
  merchantId: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** A row of findCredentialByHash as the driver returns it (timestamps as PostgreSQL's text). */
interface CredentialRow {
  id: string;
  token_hash: string;
  merchant_user_id: string;
  merchant_id: string;
  expires_at: string | null;
  revoked_at: string | null;
}

const dateOrNull = (text: string | null): Date | null => (text === null ? null : new Date(text));

export class DashboardTokenRepository extends EntityRepository<DashboardToken> {
  /**
   * The token with this hash and its user's merchant as one plain row: every dashboard request runs it, and the
   * token, user and merchant entities it used to hydrate were most of a light request's ORM work.
   */
  async findCredentialByHash(tokenHash: string): Promise<DashboardTokenCredential | null> {
    const [row] = await this.em.getConnection().execute<CredentialRow[]>(
      `select t."id", t."token_hash", t."expires_at", t."revoked_at", u."id" as "merchant_user_id", u."merchant_id"
        from "dashboard_tokens" t join "merchant_users" u on u."id" = t."user_id" where t."token_hash" = ?`,
      [tokenHash],
      'all',
      this.em.getTransactionContext(),
    );
    if (!row) return null;
    return {
      id: row.id,
      tokenHash: row.token_hash,
      merchantUserId: row.merchant_user_id,
      merchantId: row.merchant_id,
      expiresAt: dateOrNull(row.expires_at),
      revokedAt: dateOrNull(row.revoked_at),
    };
  }
}
