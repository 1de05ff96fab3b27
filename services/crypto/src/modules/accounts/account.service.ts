import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthenticationError } from '@tributary/kit';
import { Account } from './account.entity.js';
import { ApiKey } from './api-key.entity.js';
import { parseBearerApiKey, secretMatches } from './api-key-credentials.js';

/** Who is calling: the account that owns the API key, and that key. */
export interface CryptoPrincipal {
  accountId: number;
  apiKeyId: number;
}

export class AccountService {
  constructor(private readonly em: EntityManager) {}

  /**
   * Authenticates `Authorization: Bearer <KEY_ID>.<SECRET>`. Missing, malformed, unknown or revoked keys and
   * suspended accounts all fail the same way; the secret is hashed and compared in constant time even when no key
   * matched, so timing does not reveal which key ids exist.
   */
  async authenticate(authorization: string | undefined): Promise<CryptoPrincipal> {
    const apiKeys = this.em.getRepository(ApiKey);
    const parsed = parseBearerApiKey(authorization);
    const key = parsed ? await apiKeys.findByKeyIdWithAccount(parsed.keyId) : null;
    const matches = secretMatches(parsed?.secret ?? authorization ?? '', key?.secretHash);
    // The reason goes to the log only; the client always reads the same 401.
    if (!parsed) throw new AuthenticationError('missing or malformed API key');
    if (!key || !matches) throw new AuthenticationError('unknown key id or wrong secret');
    if (key.isRevoked()) throw new AuthenticationError('revoked API key');
    if (!key.account.isActive()) throw new AuthenticationError('suspended account');
    await apiKeys.recordUse(key, new Date());
    return { accountId: key.account.id, apiKeyId: key.id };
  }

  getAccount(principal: CryptoPrincipal): Promise<Account> {
    return this.em.getRepository(Account).findOneOrFail({ id: principal.accountId });
  }

  /** Entity resolution: an account is visible only to its own keys; anything else reads as absent. */
  async findVisibleAccount(principal: CryptoPrincipal, id: string): Promise<Account | null> {
    if (String(principal.accountId) !== id) return null;
    return this.em.getRepository(Account).findOne({ id: principal.accountId });
  }

  /** The account's keys that are not revoked (never their secrets). */
  activeKeys(account: Account): Promise<ApiKey[]> {
    return this.em.getRepository(ApiKey).activeFor(account);
  }
}
